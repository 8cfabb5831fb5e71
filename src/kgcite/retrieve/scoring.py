"""Scores of short texts (relation names, entity labels, relation chains) against a question.

Graph search prunes with these instead of LLM calls (EWEK-QA §3.1.2): a bi-encoder's cosine
similarity, with every text's vector cached because the same relation and entity names come
back question after question, or BM25 when no embedding model is wanted.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from kgcite.models.embed import CachedEmbedder, Embedder
from kgcite.text.lexicon import QUESTION_WORDS, STOP, stem

_WORD = re.compile(r"[a-z0-9]+")


@runtime_checkable
class TextScorer(Protocol):
    """Relevance of each text to a question; higher is more relevant."""

    @property
    def name(self) -> str: ...

    def scores(self, question: str, texts: Sequence[str]) -> np.ndarray: ...


class EmbeddingScorer:
    """Cosine similarity of unit vectors from an :class:`Embedder`, vectors cached (LRU) by text."""

    def __init__(self, embedder: Embedder, *, cache_size: int = 200_000) -> None:
        self.cached = (
            embedder if isinstance(embedder, CachedEmbedder) else CachedEmbedder(embedder, cache_size=cache_size)
        )

    @property
    def name(self) -> str:
        return f"cosine({self.cached.name})"

    @property
    def encoded(self) -> int:
        """Texts actually sent to the model, for benchmarks."""
        return self.cached.encoded

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        return self.cached.encode(texts)

    def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0, dtype=np.float32)
        q = self.vectors([question])[0]
        cosines: np.ndarray = self.vectors(texts) @ q
        return cosines


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("_", " "))


class BM25Scorer:
    """Okapi BM25 of the question's words in each text, the texts themselves as the corpus."""

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b

    @property
    def name(self) -> str:
        return "bm25"

    def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
        docs = [words(t) for t in texts]
        if not docs:
            return np.zeros(0, dtype=np.float32)
        n = len(docs)
        avg = sum(map(len, docs)) / n or 1.0
        df = Counter(w for d in docs for w in set(d))
        query = set(words(question))
        out = np.zeros(n, dtype=np.float32)
        for i, d in enumerate(docs):
            tf = Counter(d)
            for w in query & tf.keys():
                idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                out[i] += idf * tf[w] * (self.k1 + 1) / (tf[w] + self.k1 * (1 - self.b + self.b * len(d) / avg))
        return out


# -- lexical overlap (word forms, not embeddings) -------------------------------------------

#: Words that name no relation: the lexicon's function words, question words, pronouns, and the
#: sharing words (``path_scorers.SHARING`` reads those as markers before this list is applied).
STOP_WORDS = STOP | QUESTION_WORDS | frozenset(["same", "share", "shared", "together", "they", "he", "she"])


@functools.lru_cache(maxsize=65_536)
def content_stems(text: str) -> tuple[str, ...]:
    """Stems of the words that carry meaning; cached: relation names recur at every step."""
    return tuple(stem(w) for w in words(text) if w not in STOP_WORDS)


#: What may follow a short stem (up to ``_SHORT`` letters) that begins a longer one, for both to
#: be one word: an ending the stemmer left ("baker" / "bakery", "gradu" / "graduat"), not another
#: word ("law" is no "lawyer", "count" no "county", "run" no "runtime", "air" no "airport"); a
#: stem of four letters or more may begin a compound ("brew" / "brewmaster").
_ENDINGS = frozenset(["s", "e", "d", "t", "es", "ed", "at", "an", "est", "ent", "eri", "ion", "tion", "iti", "ship"])
_SHORT = 5
#: Heads of compounds that name a place, not what their first word names: a *workshop* is no
#: ``works_at``, a *boatyard* no ``boat``.
_PLACE_HEADS = frozenset(["shop", "yard"])
#: Prefixes that make another word of a word ending in a stem: *per*formed is not *form*ed, *de*part
#: not *part* of; the end of a compound still matches (*screen*writer, *co*founded).
_PREFIXES = frozenset(["per", "in", "con", "de", "dis", "un", "trans", "pro", "sub"])


def _same(a: str, b: str) -> bool:
    """Stems match when equal, one begins the other (a short one only with an ending after it:
    :data:`_ENDINGS`), or one ends a compound (``screenwrit``)."""
    short, long = sorted((a, b), key=len)
    if short == long:
        return True
    if len(short) >= 3 and long.startswith(short):
        rest = long[len(short) :]
        # a compound of two words ("brew|master", "head|office" as "head|quarters") still matches
        if rest in _PLACE_HEADS:
            return False
        return len(short) > _SHORT or rest in _ENDINGS or (len(short) >= 4 and len(rest) >= 4)
    return len(short) >= 4 and long.endswith(short) and long[: len(long) - len(short)] not in _PREFIXES


def coverage(text: str, question_stems: Sequence[str]) -> float:
    """Share of the text's content words that the question uses (in some form)."""
    own = content_stems(text)
    if not own:
        return 0.0
    return sum(any(_same(s, q) for q in question_stems) for s in own) / len(own)


def distinctive_overlap(question: str, texts: Sequence[str]) -> list[float]:
    """For each text, the share of the question's content words it holds that not every text
    holds: among sentences that all name Stephen Crane, "father" tells which answers "Who was
    Stephen Crane's father?", where a small bi-encoder ranks "Stephen Crane's surname is Crane"
    first. Names (words capitalised after the first) are left out: in a passage that says "he"
    after its first sentence, the name would pick that sentence whatever was asked."""
    first, *rest = question.split() or [""]
    asked = set(content_stems(" ".join([first, *(w for w in rest if not w[:1].isupper())])))
    held = [{q for q in asked if any(_same(s, q) for s in content_stems(t))} for t in texts]
    everywhere = set.intersection(*held) if held else set()
    return [len(h - everywhere) / len(asked) if asked else 0.0 for h in held]


class HybridScorer:
    """Embedding cosine plus ``weight`` × lexical coverage: a small bi-encoder alone ranks
    ``starred actors`` above ``in language`` for "…were in which languages"; the word forms settle it."""

    def __init__(self, embedding: TextScorer, weight: float = 0.5) -> None:
        self.embedding, self.weight = embedding, weight

    @property
    def name(self) -> str:
        return f"{self.embedding.name}+{self.weight}*coverage"

    def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
        q = content_stems(question)
        lexical = np.array([coverage(t, q) for t in texts], dtype=np.float32)
        scores: np.ndarray = self.embedding.scores(question, texts) + self.weight * lexical
        return scores
