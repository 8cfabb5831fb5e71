"""Property names with their words inflected otherwise ("starred actors" → "stars actors").

Graphs name properties with participles and plurals ("starred actors", "award received"), while
sentences state the same facts with finite verbs ("X stars Y"). A model trained only on names
whose words also occur in the premise learns to match surface tokens; showing it names in other
inflections of the same lemmas teaches it to match the lemma. Only regular inflections are made,
and only for words whose own form is a regular inflection of their lemma, so "born" (bear) and
"spoken" (speak) are left alone rather than turned into "beared" or "speaked".
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from kgcite.models.ner import SPACY_MODEL, load_spacy
from kgcite.text.inflect import gerund, past, plural

#: Nouns whose plural is not regular, and "alma" of the Latin "alma mater".
_IRREGULAR_NOUNS = frozenset({"child", "man", "woman", "person", "thesis", "alma", "foot", "tooth"})


def word_forms(text: str, lemma: str, pos: str) -> frozenset[str]:
    """The regular forms of a word's lemma: a verb only where the word is visibly inflected
    (a tagger reads bare labels like "genre" as verbs), a noun unless its plural is irregular."""
    text, lemma = text.lower(), lemma.lower()
    if pos in ("VERB", "AUX") and text != lemma:
        forms = frozenset({lemma, plural(lemma), past(lemma), gerund(lemma)})
    elif pos == "NOUN" and lemma not in _IRREGULAR_NOUNS:
        forms = frozenset({lemma, plural(lemma)})
    else:
        return frozenset()
    return forms if text in forms else frozenset()  # irregular ("born" of bear): leave it


def label_variants(tokens: Iterable[tuple[str, str, str, str]]) -> list[str]:
    """Every label made by changing one word of ``(text, whitespace, lemma, pos)`` tokens to
    another regular form of its lemma."""
    toks = list(tokens)
    out: list[str] = []
    for i, (text, _, lemma, pos) in enumerate(toks):
        for form in sorted(word_forms(text, lemma, pos) - {text.lower()}):
            out.append("".join((form if j == i else t) + ws for j, (t, ws, _, _) in enumerate(toks)))
    return out


class Inflector:
    """Label variants through spaCy's tagger and lemmatizer, loaded once, cached per label."""

    def __init__(self, model: str = SPACY_MODEL) -> None:
        self.model = model
        self._nlp: Any = None

    def variants(self, label: str) -> list[str]:
        return list(self._variants(label))

    @lru_cache(maxsize=4096)  # noqa: B019 - one Inflector per training run; labels are few
    def _variants(self, label: str) -> tuple[str, ...]:
        if self._nlp is None:
            self._nlp = load_spacy(self.model, exclude=["parser", "ner"])
        doc = self._nlp(label)
        return tuple(label_variants((t.text, t.whitespace_, t.lemma_, t.pos_) for t in doc))
