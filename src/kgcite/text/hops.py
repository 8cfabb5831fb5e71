"""What the text rules read of a chain's step: its relation and its direction (the retrieval
stage's ``Step``, which this bottom layer cannot import)."""

from __future__ import annotations

from typing import Protocol


class Hop(Protocol):
    """A relation walked forwards or, ``inverse``, backwards (a chain's step)."""

    @property
    def relation(self) -> str: ...

    @property
    def inverse(self) -> bool: ...
