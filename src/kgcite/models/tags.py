"""Parts of speech of relation labels, which the template verbaliser reads ("directed by" is a
participle and a preposition), without loading spaCy on every run.

spaCy's tagger takes over a second to import and load; a graph has a few hundred relation labels
at most. So tags are remembered: the labels of the shipped graphs come with the package
(``data/label_tags.json``, rebuilt by :func:`shipped_tags` and held equal to spaCy by a test), and
labels met later are kept in the user's cache (``$KGCITE_CACHE_DIR/label_tags.json``), which
``kgcite kg load`` fills for the graph it loads. spaCy loads only for a label met nowhere.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from kgcite.models.cache import cache_root
from kgcite.models.ner import SPACY_MODEL, load_spacy

log = logging.getLogger(__name__)

#: (text, fine tag, coarse part of speech) of one word: ``("directed", "VBN", "VERB")``.
Tag = tuple[str, str, str]
SHIPPED_TAGS = Path(__file__).resolve().parent / "data" / "label_tags.json"


class Tagger(Protocol):
    def __call__(self, labels: Sequence[str]) -> list[list[Tag]]:
        """The tags of each label, batched."""
        ...


@lru_cache(maxsize=2)
def tagging_pipeline(model: str = SPACY_MODEL) -> Any:
    """spaCy's tagger alone (no parser, NER or lemmatizer), loaded once per process."""
    return load_spacy(model, exclude=["ner", "parser", "lemmatizer"])


class SpacyTagger:
    """:func:`tagging_pipeline` over labels, loaded on first use."""

    def __init__(self, model: str = SPACY_MODEL) -> None:
        self.model = model

    def __call__(self, labels: Sequence[str]) -> list[list[Tag]]:
        return [[(t.text, t.tag_, t.pos_) for t in doc] for doc in tagging_pipeline(self.model).pipe(list(labels))]


class LabelTags:
    """Tags by label: the shipped table, then the user's cache file, then ``tagger`` (whose
    answers join the cache file). A cache file that cannot be read or written costs only time."""

    def __init__(self, tagger: Tagger | None = None, *, cache: Path | None = None, shipped: Path = SHIPPED_TAGS):
        self.tagger = tagger or SpacyTagger()
        self.cache = cache
        self._known = _read(shipped)
        self._cache_read = False  # the cache file is read at the first label the table lacks

    def tags(self, label: str) -> list[Tag]:
        return self.many([label])[0]

    def many(self, labels: Iterable[str]) -> list[list[Tag]]:
        """Tags of each label; the unknown ones tagged in one batch and remembered."""
        labels = list(labels)
        missing = [lab for lab in dict.fromkeys(labels) if lab not in self._known]
        if missing and not self._cache_read and self.cache is not None:
            self._cache_read = True
            self._known = {**_read(self.cache), **self._known}
            missing = [lab for lab in missing if lab not in self._known]
        if missing:
            new = dict(zip(missing, self.tagger(missing), strict=True))
            self._known.update(new)
            self._remember(new)
        return [self._known[lab] for lab in labels]

    def _remember(self, new: dict[str, list[Tag]]) -> None:
        if self.cache is None:
            return
        merged = {**_read(self.cache), **new}
        try:
            self.cache.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=self.cache.parent, delete=False, encoding="utf-8") as f:
                json.dump(merged, f, ensure_ascii=False, sort_keys=True)
            os.replace(f.name, self.cache)
        except OSError as exc:
            log.info("%s: label tags not cached (%s)", self.cache, exc)


def _read(path: Path) -> dict[str, list[Tag]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): [(str(a), str(b), str(c)) for a, b, c in v] for k, v in data.items() if isinstance(v, list)}


@lru_cache(maxsize=1)
def label_tags() -> LabelTags:
    """The process's tag book: shipped table, user cache, spaCy last."""
    return LabelTags(cache=cache_root() / "label_tags.json")


def shipped_tags(labels: Iterable[str], tagger: Tagger | None = None) -> dict[str, list[Tag]]:
    """The table ``data/label_tags.json`` holds: spaCy's tags of ``labels``, sorted by label."""
    ordered = sorted(set(labels))
    return dict(zip(ordered, (tagger or SpacyTagger())(ordered), strict=True))


def shipped_labels() -> set[str]:
    """The relation labels of the graphs in the package (BioKaLMA, MetaQA's movie graph)."""
    from kgcite.kg.embedded import EmbeddedStore
    from kgcite.kg.loaders import shipped_biokalma, shipped_data
    from kgcite.text.lexicon import property_label

    store = EmbeddedStore()
    for path in [*shipped_biokalma(), shipped_data("metaqa", "kb.txt")]:
        store.load(path)
    return {property_label(r).strip() for r in store.relations()} - {""}


if __name__ == "__main__":  # rebuild data/label_tags.json: python -m kgcite.models.tags
    SHIPPED_TAGS.write_text(json.dumps(shipped_tags(shipped_labels()), ensure_ascii=False, indent=0) + "\n")
