"""Builds the answer pipeline from options, loading every model once per process."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar, cast, get_args

from kgcite.errors import ModelError
from kgcite.generate.pipeline import FreeGenerator, Generator, GroundedGenerator
from kgcite.judge.support import JudgeVerifier, SupportJudge
from kgcite.kg.embedded import biokalma_store
from kgcite.kg.sparql import SparqlStore
from kgcite.models.cache import cache_root
from kgcite.models.embed import CachedEmbedder, OnnxMiniLM
from kgcite.models.ner import SpacyNER
from kgcite.models.nli import CachedNLI, load_nli
from kgcite.retrieve.linking import EntityLinker
from kgcite.retrieve.path_scorers import (
    GROUNDING_FILE,
    ZeroShotPathScorer,
    graph_end_words,
    graph_examples,
    graph_kinds,
    grounding_scorer,
    shipped_grounding,
)
from kgcite.retrieve.paths import PathReasoner
from kgcite.retrieve.plan import Planner
from kgcite.retrieve.question import QuestionAnalyzer
from kgcite.retrieve.retriever import KGRetriever
from kgcite.retrieve.scoring import EmbeddingScorer, HybridScorer

if TYPE_CHECKING:  # the document, LLM and ToG-E parts load when a command uses them: a plain ask starts faster
    from kgcite.generate.compose import QuoteAnswerer
    from kgcite.kg.store import KGStore
    from kgcite.models.llm import LLM
    from kgcite.models.rerank import Reranker
    from kgcite.retrieve.documents import DocumentRetriever
    from kgcite.retrieve.tog_e import ToGE

log = logging.getLogger(__name__)
T = TypeVar("T")

#: The path scorer when none is named: the shipped grounding model (see ``Runtime.paths``).
DEFAULT_PATH_SCORER: Literal["grounding"] = "grounding"


def default_cache_path(name: str = "responses.sqlite") -> Path:
    return cache_root() / name


def _loaded(what: str, load: Callable[[], T]) -> T:
    """``load()``, logged with how long it took (``kgcite --verbose``)."""
    t0 = time.perf_counter()
    out = load()
    log.info("loaded %s in %.1f s", what, time.perf_counter() - t0)
    return out


#: How claims are judged: "nli" (the rules, then the NLI model for what they leave undecided) or
#: "rules" (the rules alone; undecided counts as unsupported).
Verifier = Literal["nli", "rules"]
#: Relation-path reasoning: the shipped grounding model (with the zero-shot reading), zero-shot
#: alone, none (one-hop answers only), or a `kgcite train paths` export folder.
PathScorerName = Literal["grounding", "zero-shot", "off"]
PathScorer = PathScorerName | Path
Mode = Literal["grounded", "free"]
#: Who picks the answering chain among those the graph search walked (``RuntimeConfig.choose``).
Choose = Literal["score", "llm"]
Source = Literal["kg", "docs", "both"]
Extractor = Literal["window", "llm", "both"]


def path_scorer_spec(text: str | None) -> PathScorer:
    """``--path-scorer``'s text as a :data:`PathScorer` (a name, or else a folder)."""
    if not text:
        return DEFAULT_PATH_SCORER
    return cast(PathScorerName, text) if text in get_args(PathScorerName) else Path(text)


@dataclass(frozen=True, slots=True)
class RuntimeConfig:
    """What a user chose (command-line options, server flags), fixed for the process: the
    :class:`Runtime` loads components from it. ``model`` is a GGUF path (embedded llama.cpp) or,
    with ``base_url``, the model name on an OpenAI-compatible server."""

    model: str | None = None
    base_url: str | None = None
    cache: Path | None = field(default_factory=default_cache_path)
    # an LLM phrases grounded and quoted answers only when asked: a small model's rephrasing added
    # unsupported claims, and a composed answer that keeps no citation is thrown away for the
    # extractive one, so by default no text is generated that could be discarded
    rewrite: bool = False
    constrained: bool = False
    concurrency: int = 8
    timeout: float = 60.0
    nli_model: str | None = None  # see load_nli: kgcite (shipped), hf:PATH, t5:PATH, an ONNX folder
    verifier: Verifier = "nli"
    reranker_model: str | None = None  # see load_reranker: kgcite (shipped), hf:PATH, an ONNX folder; "none": off
    path_scorer: PathScorer = DEFAULT_PATH_SCORER
    # which walked chain answers: "score" (the path scorer's best above its threshold, no LLM
    # call) or "llm" (the LLM picks among the best few, or none, in one constrained call)
    choose: Choose = "score"

    def __post_init__(self) -> None:
        if self.choose not in get_args(Choose):
            raise ValueError(f"choose {self.choose!r}: score or llm")
        if self.verifier not in get_args(Verifier):
            raise ValueError(f"verifier {self.verifier!r}: choose one of {', '.join(get_args(Verifier))}")
        if isinstance(self.path_scorer, str) and self.path_scorer not in get_args(PathScorerName):
            raise ValueError(f"path scorer {self.path_scorer!r}: grounding, zero-shot, off, or a Path to an export")
        if self.concurrency < 1 or self.timeout <= 0:
            raise ValueError("concurrency must be at least 1 and timeout above 0")

    @property
    def shipped_llm(self) -> bool:
        """Whether the LLM is the shipped SmolLM2-135M (no model or server named)."""
        return self.model is None and self.base_url is None


class Runtime:
    """A :class:`RuntimeConfig` in, loaded components out: each loads on first use, once per process.
    ``store``: the graph (the shipped BioKaLMA graph when None)."""

    def __init__(self, config: RuntimeConfig | None = None, *, store: SparqlStore | None = None) -> None:
        self.config = config or RuntimeConfig()
        self.store = store

    @cached_property
    def kg(self) -> SparqlStore:
        if self.store is not None:
            return self.store
        t0 = time.perf_counter()
        store = biokalma_store()[0]
        log.info("opened the shipped BioKaLMA graph in %.1f s", time.perf_counter() - t0)
        return store

    @cached_property
    def ner(self) -> SpacyNER:
        """spaCy NER, loaded when a question first needs it (most link without it)."""
        return SpacyNER()

    @cached_property
    def embedder(self) -> OnnxMiniLM:
        return _loaded("MiniLM embeddings (ONNX)", lambda: OnnxMiniLM().load())

    @cached_property
    def vectors(self) -> CachedEmbedder:
        """The embedder with vectors kept by text, for stages that see the same texts again."""
        return CachedEmbedder(self.embedder)

    @cached_property
    def retriever(self) -> KGRetriever:
        analyzer = QuestionAnalyzer(
            self.kg.relations(), embedder=lambda: self.vectors
        )  # MiniLM loads only if a part needs it
        return KGRetriever(self.kg, EntityLinker(self.kg, self.ner), analyzer)

    @cached_property
    def nli(self) -> CachedNLI:
        """The NLI model; the shipped one loads when the rules first leave a claim undecided."""
        return load_nli(self.config.nli_model, eager=False)

    @cached_property
    def reranker(self) -> Reranker | None:
        from kgcite.models.rerank import load_reranker

        spec = self.config.reranker_model
        return None if spec == "none" else load_reranker(spec)

    @cached_property
    def paths(self) -> PathReasoner | None:
        """Relation-path reasoning, scored by ``path_scorer``: ``grounding`` (the default: the
        shipped bi-encoder mixed with the zero-shot reading), ``zero-shot`` (no trained model),
        ``off``, or a ``kgcite train paths`` export folder."""
        spec = self.config.path_scorer
        if spec == "off":
            return None
        zero_shot = ZeroShotPathScorer(
            self.kg.relations(),
            EmbeddingScorer(self.vectors),
            examples=graph_examples(self.kg),
            kinds=graph_kinds(self.kg),
            end_words=graph_end_words(self.kg),
        )
        chooser = None
        if self.config.choose == "llm":
            from kgcite.retrieve.choose import LLMChooser

            chooser = LLMChooser(self.llm)
        if spec == "zero-shot":
            return PathReasoner(self.kg, zero_shot, linker=self.retriever.linker, chooser=chooser)
        model = self._grounding_model()
        assert model is not None
        # chain vectors kept beside the response cache: what `kgcite kg load` prepared, or an
        # earlier run met, is not encoded again
        vectors = cache.with_name("vectors.sqlite") if (cache := self.config.cache) is not None else None
        return PathReasoner(
            self.kg,
            grounding_scorer(model, self.kg, zero_shot, vectors=vectors),
            linker=self.retriever.linker,
            chooser=chooser,
        )

    def _grounding_model(self) -> Path | None:
        """The grounding model folder ``path_scorer`` names (None: no trained model), checked
        without loading it: a wrong folder is an error when the command starts."""
        spec = self.config.path_scorer
        if spec in ("off", "zero-shot"):
            return None
        model = shipped_grounding() if spec == "grounding" else Path(spec)
        if not (model / "model.onnx").exists() or not (model / GROUNDING_FILE).exists():
            raise ModelError(
                f"{model}: no model.onnx and {GROUNDING_FILE} (--path-scorer is grounding, zero-shot, off, or a "
                "`kgcite train paths` export folder)"
            )
        return model

    @cached_property
    def tog_e(self) -> ToGE:
        from kgcite.retrieve.tog_e import ToGE

        return ToGE(self.kg, HybridScorer(EmbeddingScorer(self.vectors)), linker=self.retriever.linker)

    def documents(
        self,
        paths: Sequence[str | Path] = (),
        *,
        search_url: str | None = None,
        extractor: Extractor = "window",
        top_k: int = 5,
        robots: bool = True,
        allow_hosts: Sequence[str] = (),
    ) -> DocumentRetriever:
        """Adaptive retrieval over local files/folders and/or a SearXNG instance; parsed pages cached
        beside the response cache (in memory with ``cache=None``); web pages only where robots.txt
        allows, and never from an internal address unless ``allow_hosts`` names it."""
        from kgcite.retrieve.documents import (
            AddressPolicy,
            DocumentCache,
            DocumentRetriever,
            LLMSpanExtractor,
            RobotsRules,
            SearxngSearch,
            TwoStageRanker,
            WindowExtractor,
        )
        from kgcite.retrieve.documents.extract import EvidenceExtractor

        extractors: list[EvidenceExtractor] = []
        if extractor in ("window", "both"):
            extractors.append(WindowExtractor(self.vectors))
        if extractor in ("llm", "both"):
            extractors.append(LLMSpanExtractor(self.llm, self.vectors))
        return DocumentRetriever(
            ranker=TwoStageRanker(self.vectors, self.reranker, top_k=top_k),
            extractors=extractors,
            cache=DocumentCache(
                cache.with_name("documents.sqlite") if (cache := self.config.cache) is not None else None
            ),
            paths=paths,
            search=SearxngSearch(search_url) if search_url else None,
            robots=RobotsRules() if robots else None,
            policy=AddressPolicy.allowing(allow_hosts),
        )

    def quote_answerer(self, source: Source, documents: DocumentRetriever | None) -> QuoteAnswerer:
        """EWEK-QA's composer over ``kg`` (ToG-E triples), ``docs`` or ``both``."""
        from kgcite.generate.compose import QuoteAnswerer, QuoteComposer
        from kgcite.judge.quotes import NLIQuoteVerifier

        composer = QuoteComposer(
            self.llm if self.config.rewrite else None,
            self.vectors,
            NLIQuoteVerifier(self.nli if self.config.verifier == "nli" else None),
            constrained=self.config.constrained,
        )
        return QuoteAnswerer(
            composer,
            self.tog_e if source in ("kg", "both") else None,
            documents if source in ("docs", "both") else None,
        )

    @cached_property
    def judge(self) -> SupportJudge:
        return SupportJudge(self.nli if self.config.verifier == "nli" else None)

    @cached_property
    def llm(self) -> LLM:
        from kgcite.models.cache import CachedLLM
        from kgcite.models.llamacpp import LlamaCppLLM
        from kgcite.models.openai_http import OpenAICompatLLM

        c = self.config
        llm: LLM
        if c.base_url:
            llm = OpenAICompatLLM(c.base_url, c.model or "default", concurrency=c.concurrency, timeout=c.timeout)
            log.info("LLM: %s on %s", c.model or "default", c.base_url)
        else:
            llm = _loaded(f"llama.cpp {c.model or 'SmolLM2-135M'}", lambda: LlamaCppLLM(c.model).load())
        return CachedLLM(llm, c.cache) if c.cache is not None else llm

    def generator(self, mode: Mode) -> Generator:
        if mode == "grounded":
            self._grounding_model()  # a wrong --path-scorer folder fails now; the model loads when a question needs it
            search = None if self.config.path_scorer == "off" else (lambda: self.paths)
            return GroundedGenerator(
                self.retriever,
                self.llm if self.config.rewrite else None,
                JudgeVerifier(self.judge),
                planner=Planner(self.retriever, search),
            )
        if mode == "free":
            return FreeGenerator(
                self.retriever, self.llm, JudgeVerifier(self.judge), constrained=self.config.constrained
            )
        raise ValueError(f"unknown mode {mode!r}; choose grounded or free")


def export_answerer(store: KGStore, folder: Path) -> GroundedGenerator:
    """The pipeline `kgcite ask --path-scorer FOLDER` runs over ``store``, without the response
    cache: what calibrating an export, choosing its mix and the few-shot benchmark ask
    (:data:`kgcite.train.grounding.Answerer`)."""
    assert isinstance(store, SparqlStore)  # the graphs trained and measured on are embedded stores
    generator = Runtime(RuntimeConfig(cache=None, path_scorer=folder), store=store).generator("grounded")
    assert isinstance(generator, GroundedGenerator)
    return generator
