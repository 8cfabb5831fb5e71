"""One type for what an answer cost: seconds per named stage, and the LLM calls it made.

Every result kgcite returns (a retrieval, a path search, a document retrieval, an answer) carries
a :class:`Timings`. It is the dict of stages the JSON formats write (``{"link": 0.001, …}``),
with ``llm_calls`` beside it, so a reader of a result never rebuilds the count from other fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class Timings(dict[str, float]):
    """Seconds by stage name (``link``, ``select``, ``generate``, ``docs_rank``…), in the order the
    stages ran, and ``llm_calls``: the model calls behind the result (0 for template answers)."""

    def __init__(self, stages: Mapping[str, float] | Iterable[tuple[str, float]] = (), *, llm_calls: int = 0):
        super().__init__(stages)
        self.llm_calls = llm_calls

    def merged(self, *others: Mapping[str, float], prefix: str = "") -> Timings:
        """These stages then each of ``others``' (their names prefixed), LLM calls added up."""
        out = Timings(self, llm_calls=self.llm_calls)
        for other in others:
            out.update({f"{prefix}{k}": v for k, v in other.items()})
            out.llm_calls += getattr(other, "llm_calls", 0)
        return out

    def rounded(self, digits: int = 4) -> dict[str, float]:
        """The stages as a JSON record writes them."""
        return {k: round(v, digits) for k, v in self.items()}

    def __repr__(self) -> str:
        return f"Timings({dict.__repr__(self)}, llm_calls={self.llm_calls})"
