"""The optional LLM verbaliser of CAQA samples (paper Appendix A, Tables 9–11 prompts).

A rewrite is kept only if it still names every entity of what it rewrites (citations: the
subgraph's entities; questions: the query's constants; statements: the answers); otherwise the
template text stands, so a weak model can only make samples more fluent, never wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kgcite.bench.caqa import CaqaSample
from kgcite.bench.caqa_query import TripleIndex, is_var
from kgcite.models.llm import LLM, ChatRequest, ChatResult

CITATION = (
    "Instruction: Your task is to convert a specific subgraph from the knowledge graph into one or more coherent "
    "sentences that summarize the information encapsulated within the subgraph.\n\nSubgraph: {subgraph}\n\nSentences:"
)
QUESTION = (
    "Instruction: Given knowledge graph triples, your task is to generate a question using all the triples. "
    "The generated questions should contain all the relationships.\n\nTriples: {triples}\n\nQuestion:"
)
STATEMENT = (
    "Instruction: Your task is to convert a question along with its concise answer into a comprehensive answer "
    "statement.\n\nQuestion: {question}\n\nAnswer: {answer}\n\nAnswer statement:"
)


def _names_all(text: str, names: Sequence[str]) -> bool:
    low = text.lower()
    return bool(text.strip()) and all(n.lower() in low for n in names)


class LLMVerbaliser:
    def __init__(self, llm: LLM, index: TripleIndex, *, max_tokens: int = 120) -> None:
        self.llm, self.index, self.max_tokens = llm, index, max_tokens
        self.kept = self.rejected = 0

    def _ask(self, prompts: list[str]) -> list[str]:
        replies = self.llm.chat_many([ChatRequest.of(p, max_tokens=self.max_tokens) for p in prompts])
        return [r.text.strip().split("\n\n")[0].strip() if isinstance(r, ChatResult) else "" for r in replies]

    def _keep(self, text: str, names: Sequence[str], fallback: str) -> str:
        if _names_all(text, names):
            self.kept += 1
            return text
        self.rejected += 1
        return fallback

    def rewrite(self, samples: Sequence[CaqaSample]) -> list[CaqaSample]:
        """Citations per sample; question and statement once per source question."""
        label = self.index.label
        subgraphs = [str([tuple(label(x) if i != 1 else x for i, x in enumerate(f)) for f in s.facts]) for s in samples]
        citations = self._ask([CITATION.format(subgraph=g) for g in subgraphs])
        firsts = list({s.source: s for s in samples}.values())
        questions = self._ask([QUESTION.format(triples=str([tuple(p) for p in s.query.patterns])) for s in firsts])
        statements = self._ask([STATEMENT.format(question=s.question, answer=", ".join(s.answers)) for s in firsts])
        by_source = {}
        for s, q, a in zip(firsts, questions, statements, strict=True):
            constants = [label(c) for c in sorted(s.query.constants()) if not is_var(c)]
            by_source[s.source] = (
                self._keep(q, constants, s.question),
                self._keep(a, list(s.answers), s.answer_statement),
            )
        out = []
        for s, c in zip(samples, citations, strict=True):
            names = sorted({label(e) for f in s.facts for e in (f[0], f[2])})
            text = self._keep(c, names, "")
            q, a = by_source[s.source]
            out.append(replace(s, question=q, answer_statement=a, citations=(text,) if text else s.citations))
        return out
