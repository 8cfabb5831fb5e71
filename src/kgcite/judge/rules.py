"""The judge's rules: does a sentence state subject, relation and value of a triple? (docs/concepts.md)

Rules decide what they can read off the words and leave the rest to the NLI model:

1. a date or number stated with the relation but different from the value, or no number at all
   for a date or number → no; nothing of the claim (subject, value, relation) in the sentence → no;
2. the subject not stated (its label, its last name, or a pronoun with the subject in the
   preceding text) → no;
3. the value stated with a cue of the relation next to it (same clause, no other relation's cue
   between) → yes; or stated as the only relation the graph holds that value under for this
   subject ("a male writer", "atheistic views") → yes;
4. the value stated right after another relation's cue (and not next to its own) → no;
5. the relation stated but the value nowhere (it is stated with another value) → no;
6. anything else: undecided (``None``).

The value alone never decides: "X was directed by Y" does not state ``written by: Y``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from kgcite.kg.keys import property_key
from kgcite.kg.model import Triple
from kgcite.text.lexicon import PRONOUNS, STOP, Lexicon, cue_positions, occurrences, stem
from kgcite.text.values import is_quantity, normalize, quantities, value_forms

#: How far (in words) a relation cue may stand from the value it states.
WINDOW = 10
#: Clause breaks: a cue across one of these does not state the value.
_CLAUSE = frozenset([";"])
_BREAK = re.compile(
    r""";|(?<=[a-z0-9)"'])(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bJr)(?<!\bSr)[.!?]\s+(?=[A-Z"'])"""
)


@dataclass(frozen=True, slots=True)
class Claim:
    """One (sentence, citation triple) pair as the judge reads it.

    ``subject`` is the cited entity's label (None: unknown, not checked); ``context`` the answer's
    text before the sentence (antecedents for pronouns); ``value_relations`` the relations under
    which the graph holds this value for this subject (None: unknown)."""

    sentence: str
    subject: str | None
    relation: str
    value: str
    context: str = ""
    value_relations: frozenset[str] | None = None
    together: tuple[tuple[str, str, str], ...] = ()  # every (subject, relation, value) the sentence cites

    @classmethod
    def of(
        cls,
        sentence: str,
        triple: Triple,
        context: str = "",
        held: Mapping[tuple[str, str], frozenset[str]] | None = None,
        together: tuple[tuple[str, str, str], ...] = (),
    ) -> Claim:
        """The claim that ``sentence`` states ``triple``; ``held``: the graph's relations by
        (subject id, value), from :func:`~kgcite.judge.support.value_relations`; ``together``:
        :func:`facts` of every triple the sentence cites (what a derived conclusion is recomputed
        from), made once per sentence and shared by its claims."""
        value_relations = held.get((triple.subject_id, triple.object_value.strip())) if held is not None else None
        return cls(
            sentence, triple.subject_label, triple.relation, triple.object_value, context, value_relations, together
        )


def facts(triples: Sequence[Triple]) -> tuple[tuple[str, str, str], ...]:
    """``(subject, relation, value)`` of each triple: a claim's ``together``."""
    return tuple((t.subject_label, t.relation, t.object_value) for t in triples)


def value_spans(words: list[str], word_stems: list[str], value: str) -> list[tuple[int, int]]:
    """Where the value is stated: any of its spellings word for word, or (words, not numbers) stem for stem."""
    spans = [(i, i + len(f.split())) for f in value_forms(value) for i in occurrences(words, f.split())]
    if not spans and not is_quantity(value):
        vs = [stem(w) for w in normalize(value).split()]
        spans = [(i, i + len(vs)) for i in occurrences(word_stems, vs)]
    return spans


def subject_stated(words: list[str], subject: str, context: str, sentence: str | None = None) -> bool:
    """The label, a person's last name (not as another person's: "Rowan Quenby" is not Marla
    Quenby), or a pronoun whose antecedent (in the context) is the subject."""
    label = normalize(subject).split()
    if not label or occurrences(words, label):
        return True
    last = label[-1]
    surname = 2 <= len(label) <= 4 and last not in STOP and len(last) > 2 and not last.isdigit() and last in words
    if surname and (sentence is None or _alone(sentence, last, set(label))):
        return True
    if PRONOUNS & set(words):
        before = normalize(context).split()
        return bool(occurrences(before, label)) or (len(label) >= 2 and last in before)
    return False


@dataclass(frozen=True, slots=True)
class Reading:
    """A sentence as the rules read it for one subject, made once however many values it lists:
    a list of 1,000 values is 1,000 claims on one sentence, and reading it per claim was quadratic."""

    words: list[str]
    word_stems: list[str]
    masked: frozenset[int]  # the subject's words: no cue may use them
    breaks: frozenset[int]
    pronoun: bool
    cues: dict[str, tuple[tuple[int, int], ...]]  # relation → its cues' spans clear of the subject

    @classmethod
    def of(cls, sentence: str, subject: str | None, lexicon: Lexicon) -> Reading:
        words = tokens(sentence, subject)
        word_stems = [stem(w) for w in words]
        subject_words = normalize(subject).split() if subject else []
        masked = frozenset(j for i in occurrences(words, subject_words) for j in range(i, i + len(subject_words)))
        at: dict[str, list[int]] = {}
        for i, w in enumerate(word_stems):
            at.setdefault(w, []).append(i)
        cues: dict[str, tuple[tuple[int, int], ...]] = {}
        for relation, phrases in lexicon.cues.items():
            spans = tuple(
                (i, i + len(cue))
                for cue in phrases
                for i in at.get(cue[0], ())
                if cue
                if tuple(word_stems[i : i + len(cue)]) == cue and masked.isdisjoint(range(i, i + len(cue)))
            )
            if spans:
                cues[relation] = spans
        return cls(words, word_stems, masked, frozenset(_clauses(words)), bool(PRONOUNS & set(words)), cues)

    def positions(self, relation: str, lexicon: Lexicon, clear_of: AbstractSet[int] = frozenset()) -> set[int]:
        """The words a relation's cues cover, leaving out cues that touch ``clear_of``."""
        key = property_key(relation)
        if key not in lexicon.cues:  # a relation the lexicon was not extended with: read it now
            return set(cue_positions(self.word_stems, lexicon.cues_of(relation), self.masked | clear_of))
        return {j for a, b in self.cues.get(key, ()) if clear_of.isdisjoint(range(a, b)) for j in range(a, b)}


def verdict(claim: Claim, lexicon: Lexicon, reading: Reading | None = None) -> bool | None:
    """True/False where the rules decide; None where the NLI model has to. ``reading``: the
    claim's sentence read for its subject, shared by every claim on that sentence."""
    r = reading or Reading.of(claim.sentence, claim.subject, lexicon)
    words, masked = r.words, r.masked
    spans = [(a, b) for a, b in value_spans(words, r.word_stems, claim.value) if masked.isdisjoint(range(a, b))]
    in_value = {j for a, b in spans for j in range(a, b)}
    key = property_key(claim.relation)
    own = r.positions(claim.relation, lexicon)
    others: set[int] = set()
    for relation in r.cues:
        if relation != key:
            others |= r.positions(relation, lexicon, in_value)
    others -= own
    if (
        not spans
        and is_quantity(claim.value)
        and (own and quantities(words) or not any(w[:1].isdigit() for w in words))
    ):
        return False  # rule 1: the relation stated with another date or number, or no number stated at all
    if not spans and not own and not masked and not r.pronoun and not _shares(r.word_stems, claim.value):
        return False  # nothing of the claim is in the sentence ("word word word …")
    if claim.subject is not None and not subject_stated(words, claim.subject, claim.context, claim.sentence):
        return False  # rule 2
    for a, b in spans:
        for c in own:
            if abs(c - a) > WINDOW:
                continue
            between = set(range(c + 1, a) if c < a else range(b, c))
            if not r.breaks & between and not (others & between and _content(words, between - others - own)):
                return True  # rule 3 ("directed and written by Y" states both; "born in X and died in Y" does not)
    held = {property_key(v) for v in claim.value_relations} if claim.value_relations is not None else None
    after_other = [_right_after(others, a, words) for a, _ in spans]
    if spans and held == {key} and not any(after_other):
        return True  # rule 3, the graph's reading of the value
    if spans and all(after_other):
        return False  # rule 4
    if spans and held and key not in held:
        return False  # rule 4, the graph's reading: it holds this value for the subject under other relations only
    if not spans and own and not _partly_stated(words, claim.value):
        return False  # rule 5
    return None


def tokens(sentence: str, keep: str | None = None) -> list[str]:
    """Normalised words, with ``;`` marking clause and sentence breaks (none inside ``keep``, a name)."""
    protected = [(m.start(), m.end()) for m in re.finditer(re.escape(keep), sentence, re.IGNORECASE)] if keep else []
    parts, start = [], 0
    for m in _BREAK.finditer(sentence):
        if not any(a <= m.start() < b for a, b in protected):
            parts.append(sentence[start : m.start()])
            start = m.end()
    parts.append(sentence[start:])
    return [w for part in parts for w in (*normalize(part).split(), ";")][:-1]


def _clauses(words: list[str]) -> set[int]:
    return {i for i, w in enumerate(words) if w in _CLAUSE}


def _alone(sentence: str, last: str, own: set[str]) -> bool:
    """Some occurrence of a last name is not preceded by another capitalised given name."""
    for m in re.finditer(rf"(\S+)?\s*\b{re.escape(last)}\b", sentence, re.IGNORECASE):
        before = (m.group(1) or "").strip("\"'“”‘’,.;:()")
        if not before or not before[:1].isupper() or normalize(before) in own or normalize(before) in STOP:
            return True
    return False


def _shares(word_stems: list[str], value: str) -> bool:
    """Any content word of the value in the sentence (stemmed)."""
    return bool({stem(w) for w in normalize(value).split() if w not in STOP} & set(word_stems))


def _content(words: list[str], positions: set[int]) -> bool:
    return any(words[i] not in STOP for i in positions)


def _right_after(cues: set[int], start: int, words: list[str]) -> bool:
    """Whether a cue stands right before ``start``, with only function words between."""
    i = start - 1
    while i >= 0 and words[i] in STOP and i not in cues:
        i -= 1
    return i in cues


def _partly_stated(words: list[str], value: str) -> bool:
    """The value's last content word and half or more of the others occur (a shortened name)."""
    content = [w for w in normalize(value).split() if w not in STOP]
    if not content or is_quantity(value) or content[-1] not in words:
        return False
    return sum(w in words for w in content) * 2 >= len(content)
