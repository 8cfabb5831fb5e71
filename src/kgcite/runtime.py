"""Builds the answer pipeline from options, loading every model once per process."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from kgcite.evaluate.support import NLIVerifier, SupportJudge
from kgcite.generate.pipeline import FreeGenerator, Generator, GroundedGenerator
from kgcite.generate.select import TripleSelector
from kgcite.kg.embedded import biokalma_store
from kgcite.kg.sparql import SparqlStore
from kgcite.models.cache import CachedLLM
from kgcite.models.embed import OnnxMiniLM
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.models.llm import LLM
from kgcite.models.ner import SpacyNER
from kgcite.models.nli import CachedNLI, load_nli
from kgcite.models.openai_http import OpenAICompatLLM
from kgcite.retrieve.linking import EntityLinker
from kgcite.retrieve.retriever import KGRetriever


def default_cache_path() -> Path:
    root = os.environ.get("KGCITE_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "kgcite")
    return Path(root) / "responses.sqlite"


@dataclass
class Runtime:
    """Options in, loaded components out. ``model`` is a GGUF path (embedded llama.cpp) or, with
    ``base_url``, the model name on an OpenAI-compatible server."""

    store: SparqlStore | None = None
    model: str | None = None
    base_url: str | None = None
    cache: Path | None = field(default_factory=default_cache_path)
    rewrite: bool = True
    constrained: bool = False
    concurrency: int = 8
    timeout: float = 60.0
    nli_model: str | None = None  # see load_nli: kgcite (shipped), hf:PATH, t5:PATH, an ONNX folder
    verifier: str = "nli"  # "nli": value present or NLI-entailed; "lexical": value present only

    @cached_property
    def kg(self) -> SparqlStore:
        if self.store is not None:
            return self.store
        return biokalma_store()[0]

    @cached_property
    def ner(self) -> SpacyNER:
        return SpacyNER().load()

    @cached_property
    def embedder(self) -> OnnxMiniLM:
        return OnnxMiniLM().load()

    @cached_property
    def retriever(self) -> KGRetriever:
        return KGRetriever(self.kg, EntityLinker(self.kg, self.ner))

    @cached_property
    def nli(self) -> CachedNLI:
        return load_nli(self.nli_model)

    @cached_property
    def judge(self) -> SupportJudge:
        return SupportJudge(self.nli if self.verifier == "nli" else None)

    @cached_property
    def llm(self) -> LLM:
        llm: LLM
        if self.base_url:
            llm = OpenAICompatLLM(self.base_url, self.model or "default", concurrency=self.concurrency, timeout=self.timeout)
        else:
            llm = LlamaCppLLM(self.model).load()
        return CachedLLM(llm, self.cache) if self.cache is not None else llm

    def generator(self, mode: str) -> Generator:
        if mode == "grounded":
            return GroundedGenerator(
                self.retriever, self.llm if self.rewrite else None, TripleSelector(self.embedder), NLIVerifier(self.judge)
            )
        if mode == "free":
            return FreeGenerator(self.retriever, self.llm, NLIVerifier(self.judge), constrained=self.constrained)
        raise ValueError(f"unknown mode {mode!r}; choose grounded or free")
