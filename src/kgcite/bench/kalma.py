"""BioKaLMA-style evolutionary question generation (KaLMA §3, Appendix A.3, Tables 9–12).

Per seed (one entity or a pair): the knowledge pool is the seeds' one-hop subgraph. Round 1
annotates the seed paragraph with pool knowledge (LLM, Table 9), or, with no seed text, states
the best-scoring fact with the template verbaliser. Rounds 2..R score every unused fact by
``α·log(2N/Count_r) + (1−α)·softmax(1/perp_r)`` — Count_r: entries whose pool has relation r,
N: entries; perp_r: the LLM's perplexity of the paragraph followed by the fact in a simple
sentence (three templates by the relation's part of speech) — and extend the paragraph with the
best one (LLM, Table 10). Last, a general and a specific question (Tables 11–12).

docs/concepts.md holds here too: a new sentence from the LLM is kept only if it states the fact's
value; otherwise the template sentence is used, and every selected fact is in the minimum set
whatever the LLM wrote. Perplexity needs token log-probabilities (llama.cpp gives them); without
them coherence is left out (α = 1) and the entry says so.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kgcite.generate.citations import cite_triples, format_citation, parse_answer
from kgcite.generate.pipeline import rewrite_problem
from kgcite.generate.prompts import format_knowledge
from kgcite.generate.verbalize import verbalize
from kgcite.kg.loaders import subgraph_to_biokalma
from kgcite.kg.model import Subgraph, Triple, TripleKey
from kgcite.models.llm import LLM, ChatRequest, ChatResult, continuation_perplexity
from kgcite.text.lexicon import PREPOSITIONS
from kgcite.text.values import states_value

ANNOTATE = (
    "Instruction: Your objective is to select relevant knowledge to label the sentence and generate a question\n"
    "sentence: {paragraph}\nknowledge: {knowledge}\nGenerated Answer:"
)
EXTEND = (
    "Instruction: Your objective is to extend the original paragraph by adding one sentence that includes the given knowledge\n"
    "answer: {paragraph}\nknowledge: {knowledge}\nGenerated Answer:"
)
GENERAL = (
    "Instruction: Your objective is to ask a question whose answer is the given paragraph. There should be only one "
    "question when possible, if not, make sure the question is as concise as possible.\nParagraph: {paragraph}\nGenerated Question:"
)
SPECIFIC = (
    "Instruction: Your objective is to ask a question whose answer is the given paragraph. The question should not be "
    "too tedious.\nParagraph: {paragraph}\nGenerated Question:"
)
_VERB = re.compile(r"^(\w+ed|\w+s)\b")


def simple_sentence(t: Triple) -> str:
    """The paper's three templates by the relation's part of speech: "X is member of Y" (ends with
    a preposition), "X participated in Y" (starts with a verb), "X's place of birth is Y" (a noun)."""
    r = t.relation.replace("_", " ")
    words = r.split()
    if words and words[-1] in PREPOSITIONS:
        if _VERB.match(r) and words[0] not in ("is", "was"):
            return f"{t.subject_label} {r} {t.object_value}."
        return f"{t.subject_label} is {r} {t.object_value}."
    return f"{t.subject_label}'s {r} is {t.object_value}."


@dataclass(frozen=True)
class Seed:
    id: str
    entities: tuple[str, ...]
    paragraph: str = ""


@dataclass
class KalmaEntry:
    id: str
    seed: Seed
    pool: Subgraph
    rounds: list[dict[str, Any]] = field(default_factory=list)
    knowledge: list[TripleKey] = field(default_factory=list)
    paragraph: str = ""  # plain text
    annotated: str = ""  # with KaLMA citations
    general_question: str = ""
    specific_question: str = ""
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A dataset line for ``kgcite run --dataset FILE`` (``question`` is the specific one)."""
        return {
            "id": self.id,
            "question": self.specific_question,
            "general_question": self.general_question,
            "specific_question": self.specific_question,
            "minimum_knowledge": [list(k) for k in self.knowledge],
            "kg": subgraph_to_biokalma(self.pool),
            "paragraph": self.paragraph,
            "annotated_paragraph": self.annotated,
            "rounds": self.rounds,
            "seed_entities": list(self.seed.entities),
            "notes": self.notes,
        }


def relation_counts(pools: Sequence[Subgraph]) -> Counter[str]:
    """Count_r: in how many entries' pools relation r occurs."""
    return Counter(r for pool in pools for r in {t.relation for t in pool.triples})


class EvolutionaryBuilder:
    def __init__(
        self, llm: LLM | None, counts: Counter[str], n: int, *, rounds: int = 5, alpha: float = 0.5, shortlist: int = 8
    ) -> None:
        self.llm, self.counts, self.n = llm, counts, max(1, n)
        self.rounds, self.alpha, self.shortlist = rounds, alpha, shortlist

    def specificity(self, relation: str) -> float:
        return math.log(2 * self.n / max(1, self.counts[relation]))

    def scores(self, paragraph: str, candidates: Sequence[Triple]) -> tuple[list[float], list[float | None]]:
        """Specificity for all; coherence (softmax of 1/perplexity) for the ``shortlist`` most specific."""
        spec = [self.specificity(t.relation) for t in candidates]
        order = sorted(range(len(candidates)), key=lambda i: -spec[i])[: self.shortlist]
        perp: list[float | None] = [None] * len(candidates)
        if self.llm is not None and order and self.alpha < 1:
            context = f"Continue this paragraph.\n\n{paragraph}" if paragraph else "Write a short biography."
            for i, p in zip(
                order,
                continuation_perplexity(
                    self.llm, [context] * len(order), [" " + simple_sentence(candidates[i]) for i in order]
                ),
                strict=True,
            ):
                perp[i] = p
        inv = [1 / p if p else None for p in perp]
        known = [x for x in inv if x is not None]
        total = sum(math.exp(x - max(known)) for x in known) if known else 0.0
        coherence = [math.exp(x - max(known)) / total if x is not None and known else 0.0 for x in inv]
        alpha = self.alpha if known else 1.0
        out = [
            alpha * s + (1 - alpha) * c if (perp[i] is not None or not known) else float("-inf")
            for i, (s, c) in enumerate(zip(spec, coherence, strict=True))
        ]
        return out, perp

    def _ask(self, prompt: str, max_tokens: int = 160) -> str:
        if self.llm is None:
            return ""
        res = self.llm.chat_many([ChatRequest.of(prompt, max_tokens=max_tokens, stop=("\nInstruction:",))])[0]
        return res.text.strip() if isinstance(res, ChatResult) else ""

    def _sentence(self, t: Triple, written: str, before: Sequence[str]) -> tuple[str, bool]:
        """The LLM's new sentence if it states the value and is new, else the template's; and whether it was kept."""
        parsed = parse_answer(written).sentences if written.strip() else ()
        new = parsed[-1].text if parsed else ""
        leaked = rewrite_problem(written, " ".join([*before, verbalize(t)]))  # "Generated Answer:", praise
        if new and not leaked and states_value(new, t.object_value) and len(new) < 400 and new not in before:
            return new, True
        return verbalize(t), False

    def build(self, entry_id: str, seed: Seed, pool: Subgraph) -> KalmaEntry:
        e = KalmaEntry(entry_id, seed, pool)
        triples = [t for t in pool.triples if not t.is_label]  # "X's name is X" is no knowledge to ask for
        if not triples:
            e.notes.append("empty knowledge pool")
            return e
        sentences: list[tuple[str, tuple[TripleKey, ...]]] = []
        if seed.paragraph:  # round 1: annotate the seed text
            written = self._ask(ANNOTATE.format(paragraph=seed.paragraph, knowledge=format_knowledge(pool)), 300)
            cited = [
                k for t in parse_answer(written, pool).cited_triples() if t.key and (k := pool.find(t.key)) is not None
            ]
            cited = [k for k in dict.fromkeys(cited) if states_value(seed.paragraph, k[2])]
            sentences.append((seed.paragraph, tuple(cited)))
            e.knowledge += cited
            e.rounds.append(
                {"round": 1, "knowledge": [list(k) for k in cited], "source": "seed paragraph annotated by the LLM"}
            )
        if not e.knowledge:  # round 1 without usable seed text: the best fact, stated by template
            scores, _ = self.scores("", triples)
            best = triples[max(range(len(triples)), key=lambda i: scores[i])]
            sentences = [(seed.paragraph, ())] if seed.paragraph else []
            sentences.append((verbalize(best), (best.key,)))
            e.knowledge.append(best.key)
            e.rounds.append({"round": 1, "knowledge": [list(best.key)], "source": "template"})
        for r in range(2, self.rounds + 1):
            used = set(e.knowledge)
            candidates = [t for t in triples if t.key not in used]
            if not candidates:
                e.notes.append(f"pool exhausted after round {r - 1}")
                break
            paragraph = " ".join(s for s, _ in sentences)
            scores, perp = self.scores(paragraph, candidates)
            i = max(range(len(candidates)), key=lambda j: scores[j])
            t = candidates[i]
            written = self._ask(
                EXTEND.format(paragraph=_annotated(sentences), knowledge=format_knowledge(Subgraph((), (t,)))), 320
            )
            if written.startswith(paragraph[:40]) and len(written) > len(paragraph):
                written = written[len(paragraph) :]
            text, kept = self._sentence(t, written, [x for x, _ in sentences])
            sentences.append((text, (t.key,)))
            e.knowledge.append(t.key)
            e.rounds.append(
                {
                    "round": r,
                    "knowledge": [list(t.key)],
                    "score": round(scores[i], 4),
                    "specificity": round(self.specificity(t.relation), 4),
                    "perplexity": None if (pp := perp[i]) is None else round(pp, 2),
                    "sentence": "llm" if kept else "template",
                }
            )
        e.paragraph = " ".join(s for s, _ in sentences)
        e.annotated = _annotated(sentences)
        e.general_question = self._question(GENERAL, e, general=True)
        e.specific_question = self._question(SPECIFIC, e, general=False)
        return e

    def _question(self, prompt: str, e: KalmaEntry, *, general: bool) -> str:
        written = self._ask(prompt.format(paragraph=e.paragraph), 80).split("\n")[0].strip()
        names = sorted({(ent.label if (ent := e.pool.entity(k[0])) else k[0]) for k in e.knowledge})
        if written.endswith("?") and any(n.lower() in written.lower() for n in names) and len(written) < 300:
            return written
        who = " and ".join(names)
        if general:
            return f"Who {'were' if len(names) > 1 else 'was'} {who}?"
        props = list(dict.fromkeys(k[1] for k in e.knowledge))
        listed = ", ".join(props[:-1]) + f" and {props[-1]}" if len(props) > 1 else props[0]
        return f"What do we know about the {listed} of {who}?"


def _annotated(sentences: Sequence[tuple[str, tuple[TripleKey, ...]]]) -> str:
    out = []
    for text, keys in sentences:
        marks = "".join(format_citation(c) for c in cite_triples(keys))
        out.append(f"{text.rstrip('.')} {marks}." if marks else text)
    return " ".join(out)
