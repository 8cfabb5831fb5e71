"""Scorers of relation chains against a question, behind :class:`~kgcite.retrieve.paths.PathScorer`.

- :class:`ZeroShotPathScorer` needs no training on any graph: it counts which relations the
  question names (word forms of the relations' own names, as ToG-E's hybrid scorer does) and
  compares that bag with the chain's (F1), plus MiniLM cosine for questions that name a relation
  in other words. Cheap: every chain text's vector is cached, the question is embedded once.
- :class:`CrossEncoderPathScorer` is a trained pair classifier (``kgcite train paths``) that
  reads ``question [SEP] chain`` and gives P(this chain answers the question).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from kgcite.evaluate.lexicon import LEXICON, property_label
from kgcite.models.rerank import CachedReranker
from kgcite.retrieve.paths import Chain, chain_text
from kgcite.retrieve.scoring import TextScorer, _same, content_stems, words

#: Words saying that the answer shares a value with the topic ("films that share directors
#: with X"): the named relation is walked there and back.
SHARING = frozenset(["share", "shares", "shared", "same", "also", "other", "co", "common", "together"])


def relation_words(relation: str) -> tuple[str, ...]:
    """Stems that name a relation: the words of its name plus the shipped one-word paraphrases."""
    extra = (w for p in LEXICON.get(property_label(relation), ()) if " " not in p for w in content_stems(p))
    return tuple(dict.fromkeys([*content_stems(property_label(relation)), *extra]))


def question_tokens(question: str) -> list[str]:
    """One token a word: its content stem, ``<share>``-style markers for sharing words (stop
    words otherwise), ``<topic>`` for the masked topic ``X``, ``""`` for any other stop word (kept,
    so that adjacency is the text's)."""
    out: list[str] = []
    for w in words(question):
        stem_ = content_stems(w)
        if w in SHARING:
            out.append(f"<{w}>")
        elif w == "x":
            out.append("<topic>")
        else:
            out.append(stem_[0] if stem_ else "")
    return out


def relation_mentions(question: str, relations: Sequence[str]) -> Counter[str]:
    """How many times the question names each relation. Adjacent words ("imdb rating") are one
    mention, and so are words naming different parts of one name ("released … years"); the
    same part twice ("written by the writer of") is two. A sharing word ("same director")
    doubles the mention nearest after it, if single: that relation is walked there and back."""
    tokens = question_tokens(question)
    out: Counter[str] = Counter()
    runs: list[tuple[int, str]] = []  # (position, relation) of each counted mention
    for r in relations:
        own = relation_words(r)
        seen: set[str] = set()
        last = -2
        for i, q in enumerate(tokens):
            matched = {w for w in own if q and not q.startswith("<") and _same(q, w)}
            if not matched:
                continue
            if i != last + 1 and (not seen or matched & seen):
                out[r] += 1
                runs.append((i, r))
            seen |= matched
            last = i
    for at in (i for i, t in enumerate(tokens) if t.startswith("<") and t != "<topic>"):
        after = sorted((p, r) for p, r in runs if p > at) or sorted(runs, reverse=True)
        if after and out[after[0][1]] == 1:
            out[after[0][1]] += 1
    return +out


def mention_order(question: str, relations: Sequence[str]) -> list[str]:
    """The relations named, nearest to the topic mention first: English names a chain's first
    hop next to its topic ("directors of films written by the writer of X": written, written,
    directed). Empty when the question has no masked topic."""
    tokens = question_tokens(question)
    if "<topic>" not in tokens:
        return []
    at = tokens.index("<topic>")
    named = []
    for r in relations:
        own = relation_words(r)
        named += [(abs(i - at), r) for i, q in enumerate(tokens) if q and not q.startswith("<") and any(_same(q, w) for w in own)]
    out: list[str] = []
    for _, r in sorted(named):
        if not out or out[-1] != r or True:
            out.append(r)
    return list(dict.fromkeys(out))


def order_agreement(chain: Chain, order: Sequence[str]) -> float:
    """1 when the chain's first hop is the relation named nearest the topic and its distinct
    relations follow in the named order, 0.5 for the first hop alone, else 0."""
    if not order or not chain:
        return 0.0
    distinct = list(dict.fromkeys(s.relation for s in chain))
    if chain[0].relation != order[0]:
        return 0.0
    return 1.0 if distinct == [r for r in order if r in distinct] else 0.5


def mention_f1(chain: Chain, asked: Counter[str]) -> float:
    """F1 of the chain's relations (a bag) against the relations the question names."""
    have = Counter(s.relation for s in chain)
    overlap = sum((have & asked).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / len(chain), overlap / sum(asked.values())
    return 2 * precision * recall / (precision + recall)


class ZeroShotPathScorer:
    """``F1(named relations, chain relations) + weight × cosine(question, chain) - length_cost × hops``.

    ``relations`` is the graph's whole relation vocabulary, so what the question names does not
    depend on which chains happen to be scored together (scores compare across depths).
    """

    def __init__(
        self,
        relations: Sequence[str],
        embedding: TextScorer | None = None,
        *,
        weight: float = 0.3,
        order_weight: float = 0.1,
        length_cost: float = 0.02,
        threshold: float = 0.05,
    ) -> None:
        self.relations = tuple(relations)
        self.embedding, self.weight, self.length_cost, self._threshold = embedding, weight, length_cost, threshold
        self.order_weight = order_weight

    @property
    def name(self) -> str:
        return f"zero-shot(mentions+{self.weight}*{self.embedding.name})" if self.embedding else "zero-shot(mentions)"

    @property
    def threshold(self) -> float:
        return self._threshold

    def scores(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        if not chains:
            return np.zeros(0, dtype=np.float32)
        vocabulary = list(dict.fromkeys([*self.relations, *(s.relation for c in chains for s in c)]))
        asked = relation_mentions(question, vocabulary)
        order = mention_order(question, list(asked))
        out = np.array(
            [mention_f1(c, asked) + self.order_weight * order_agreement(c, order) - self.length_cost * len(c) for c in chains],
            dtype=np.float32,
        )
        if self.embedding is not None and self.weight:
            out += self.weight * self.embedding.scores(question, [chain_text(c) for c in chains])
        return out


class CrossEncoderPathScorer:
    """P(relevant) of ``(question, chain text)`` from a trained cross-encoder (cached by pair)."""

    def __init__(self, model: CachedReranker, *, threshold: float = 0.5) -> None:
        self.model, self._threshold = model, threshold

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def threshold(self) -> float:
        return self._threshold

    def scores(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        return np.array(self.model.score(question, [chain_text(c) for c in chains]), dtype=np.float32)
