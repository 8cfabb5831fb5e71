"""Does a sentence state a fact? One judge for alignment, ``[NA]`` scoring and verification.

docs/concepts.md: the rules (:mod:`kgcite.judge.rules`) decide what the words settle — subject,
relation and value stated, or a stated date that differs — and the NLI model's binary entailment
decides the rest, all undecided pairs of a call in one batch. Without a model the undecided
pairs count as unsupported: the judge never trusts a value alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kgcite.judge.derived import holds, is_conclusion
from kgcite.judge.rules import Claim, Reading, verdict
from kgcite.kg.keys import property_key
from kgcite.kg.model import Triple
from kgcite.models.nli import NLIModel
from kgcite.text.lexicon import Lexicon, property_label


def hypothesis(relation: str, value: str, subject: str | None = None) -> str:
    """What a citation triple claims, as NLI reads it (docs/concepts.md): ``[subject] property: value``."""
    claim = f"{property_label(relation)}: {value}"
    return f"{subject} {claim}" if subject else claim


def value_relations(triples: Iterable[Triple]) -> dict[tuple[str, str], frozenset[str]]:
    """(subject id, value) → the properties (canonical) the graph holds that value under for that subject."""
    out: dict[tuple[str, str], set[str]] = {}
    for t in triples:
        if not t.is_label:
            out.setdefault((t.subject_id, t.object_value.strip()), set()).add(property_key(t.relation))
    return {k: frozenset(v) for k, v in out.items()}


class SupportJudge:
    """Rules first, the NLI model for what they leave undecided.

    ``rules=False`` sends every pair to the model (what the paper did with TRUE); ``nli=None``
    is the rules alone. ``subject_in_hypothesis`` names the subject in the NLI hypothesis."""

    def __init__(
        self,
        nli: NLIModel | None = None,
        *,
        rules: bool = True,
        lexicon: Lexicon | None = None,
        subject_in_hypothesis: bool = False,
    ) -> None:
        if nli is None and not rules:
            raise ValueError("a judge needs the rules, an NLI model, or both")
        self.nli, self.rules = nli, rules
        self.lexicon = lexicon or Lexicon.default()
        self.subject_in_hypothesis = subject_in_hypothesis
        self._extended: dict[frozenset[str], Lexicon] = {}

    @property
    def name(self) -> str:
        if self.nli is None:
            return "rules"
        return f"rules+nli:{self.nli.name}" if self.rules else f"nli:{self.nli.name}"

    def decide(self, claims: Sequence[Claim]) -> list[bool | None]:
        """The rules' verdicts alone (None: undecided)."""
        lexicon = self._with({c.relation for c in claims})
        readings: dict[tuple[str, str | None], Reading] = {}
        out: list[bool | None] = []
        for c in claims:
            if not c.sentence.strip():
                out.append(False)
                continue
            if (c.sentence, c.subject) not in readings:
                readings[(c.sentence, c.subject)] = Reading.of(c.sentence, c.subject, lexicon)
            out.append(verdict(c, lexicon, readings[(c.sentence, c.subject)]))
        return out

    def _with(self, relations: set[str]) -> Lexicon:
        """The lexicon with these relations' own words: built once per new set of relations, not
        on every call (verification judges each answer's sentences separately)."""
        new = frozenset(r for r in relations if property_key(r) not in self.lexicon.cues)
        if not new:
            return self.lexicon
        if new not in self._extended:
            self._extended[new] = self.lexicon.extended(new)
        return self._extended[new]

    def judge(self, claims: Sequence[Claim]) -> list[bool]:
        """For each claim: does its sentence state subject, relation and value? A derived
        conclusion ("So X is older.") is supported iff recomputing it from all the triples its
        sentence cites gives the same result (:mod:`kgcite.judge.derived`); no model is asked."""
        decided = self.decide(claims) if self.rules else [None if c.sentence.strip() else False for c in claims]
        conclusions = {s: is_conclusion(s) for s in {c.sentence for c in claims}}  # once per sentence
        for i, c in enumerate(claims):
            if conclusions[c.sentence]:
                decided[i] = bool(holds(c.sentence, c.together or ((c.subject or "", c.relation, c.value),)))
        out = [bool(d) for d in decided]
        todo = [i for i, d in enumerate(decided) if d is None]
        if todo and self.nli is not None:
            subject = self.subject_in_hypothesis
            results = self.nli.predict(
                [claims[i].sentence for i in todo],
                [hypothesis(claims[i].relation, claims[i].value, claims[i].subject if subject else None) for i in todo],
            )
            for i, r in zip(todo, results, strict=True):
                out[i] = r.label == "entailment"
        return out


class JudgeVerifier:
    """The grounded pipeline's :class:`~kgcite.generate.verify.Verifier` backed by the judge."""

    def __init__(self, judge: SupportJudge) -> None:
        self.judge = judge

    def supported(self, claims: Sequence[Claim]) -> list[bool]:
        return self.judge.judge(claims)
