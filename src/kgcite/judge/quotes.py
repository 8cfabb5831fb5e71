"""Does a quote support a sentence? Verbatim containment first, NLI entailment for the rest.

Used twice: the quote composer drops citations this refuses, and the quote metrics count them.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgcite.models.nli import NLIModel
from kgcite.text.values import normalize


class NLIQuoteVerifier:
    """(sentence, quote sentence) → supported: verbatim containment first, NLI entailment for the rest."""

    def __init__(self, nli: NLIModel | None) -> None:
        self.nli = nli

    def supported(self, pairs: Sequence[tuple[str, str]]) -> list[bool]:
        out = [bool(normalize(s)) and normalize(s) in normalize(q) for s, q in pairs]
        todo = [i for i, ok in enumerate(out) if not ok and pairs[i][0].strip()]
        if todo and self.nli is not None:
            for i, r in zip(
                todo, self.nli.predict([pairs[i][1] for i in todo], [pairs[i][0] for i in todo]), strict=True
            ):
                out[i] = r.label == "entailment"
        return out
