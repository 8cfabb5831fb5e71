"""What a question asks, read once: its parts, the relations each names, the kind of answer
wanted, its form. Every later stage reads this, and none reads the question again for it."""

from __future__ import annotations

from dataclasses import dataclass, field

from kgcite.kg.keys import property_key, relation_words
from kgcite.text.forms import Form
from kgcite.text.lexicon import AnswerKind, stem
from kgcite.text.values import normalize


@dataclass(frozen=True, slots=True)
class AskedPart:
    """One part of a question: its text, what it asks for, its wh-word.

    ``groups``: one group per thing asked, each the relations (graph spelling) the same question
    words can mean ("languages" → *in language*, *languages spoken*): an answer states those the
    entity has, and flags the first when it has none."""

    text: str
    groups: tuple[tuple[str, ...], ...]
    wh: str | None = None
    open: bool = False  # asks something no relation of the graph names ("Who produced X?")
    kind: AnswerKind = "any"  # the kind of value wanted: a "when" is answered by a date or not at all
    rest: tuple[str, ...] = ()  # content words no relation explains ("types", "co"): a longer chain may
    # per group, in walking order: asked of the topic (True), or of what the group before reached
    # ("the phone number of the founder of X": the founder, then her phone number); empty: unread
    from_topic: tuple[bool, ...] = ()
    # the relation is MiniLM's guess at words no relation's name or paraphrase says: the graph
    # search, which weighs every chain with a model trained for it, is not held to it
    guessed: bool = False

    @property
    def relations(self) -> tuple[str, ...]:
        return tuple(r for g in self.groups for r in g)


@dataclass(frozen=True, slots=True)
class Reading:
    """The one reading of a question, made once (:class:`~kgcite.retrieve.question.QuestionAnalyzer`)
    and used by every stage after it: linking ranks namesakes by its relations, the plan decides
    the evidence from it, and a derivation counts or compares its :attr:`asked` relations."""

    question: str
    parts: tuple[AskedPart, ...]
    summary: bool
    form: Form = field(
        default_factory=Form
    )  # lookup, or what is derived from the facts: yes/no, a count, an order, what is common

    @property
    def relations(self) -> tuple[str, ...]:
        """Every asked relation, in question order, once."""
        return tuple(dict.fromkeys(r for p in self.parts for r in p.relations))

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        return tuple(dict.fromkeys(g for p in self.parts for g in p.groups))

    @property
    def asked(self) -> frozenset[str]:
        """The asked relations (keys) a derivation counts, compares or checks: each group narrowed
        to those whose name's words the question says most fully ("How many stations does R
        operate?" asks ``operates``, not ``operated_by``: its "by" is not said); both stay where
        the question says both."""
        said = {stem(w) for w in normalize(self.question).split()}
        out: set[str] = set()
        for group in self.groups:
            unsaid = {r: sum(stem(w) not in said for w in normalize(relation_words(r)).split()) for r in group}
            fewest = min(unsaid.values())
            out |= {property_key(r) for r, n in unsaid.items() if n == fewest}
        return frozenset(out)

    def to_dict(self) -> dict[str, object]:
        return {
            "form": self.form.kind,
            "summary": self.summary,
            "parts": [
                {"text": p.text, "relations": [list(g) for g in p.groups], "open": p.open, "kind": p.kind}
                for p in self.parts
            ],
        }
