"""What a grounded answer states: the evidence retrieval chose, one sentence per item.

Generation chooses nothing here: a :class:`~kgcite.retrieve.evidence.Lookup` or
:class:`~kgcite.retrieve.evidence.Derivation` lists its items (a relation's facts, a gap, a
conclusion) and each becomes one sentence: facts in the relation's template, citing exactly their
triples ("Jaws was directed by Steven Spielberg [1]"); a gap named in the relation's own words
("The graph does not say who Stephen Crane's spouse was [NA]"); a conclusion citing every fact it
rests on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgcite.generate.citations import NACitation, Sentence, cite_triples
from kgcite.generate.verbalize import pattern, state
from kgcite.judge.derived import common_sentence, count_sentence, order_sentence
from kgcite.kg.model import Triple
from kgcite.retrieve.evidence import (
    Absent,
    Counted,
    Derivation,
    Facts,
    Gap,
    Item,
    Lacking,
    Lookup,
    More,
    NoMeasure,
    NoneShared,
    Ordered,
    Shared,
    Unasked,
    grouped,
)
from kgcite.text.lexicon import PAST_OF, participle, property_label
from kgcite.text.values import join


@dataclass(frozen=True)
class Statements:
    sentences: tuple[Sentence, ...]
    triples: tuple[Triple, ...]  # every cited triple, in order
    absent: tuple[Absent, ...]
    notes: tuple[str, ...] = ()  # what was left unstated, for the answer's repairs
    steps: tuple[Triple, ...] = ()  # hops walked on the way ("X's author" in "where was X's author born"): no answers


_TRAILING = ("in", "at", "on", "the", "of", "from", "to")


def gap_sentence(subject: str, relation: str, wh: str | None) -> str:
    """A sentence that names the gap in the relation's own template: "The graph does not say who
    Stephen Crane's spouse was.", "… where Stephen Crane was born.", "… what Marla Quenby founded."."""
    word = {"whom": "who", "which": "what"}.get(wh or "", wh or "")
    word = word if word in ("who", "when", "where", "what") else "what"
    text, _ = pattern(relation)
    head = text.split("{o}")[0].strip()
    if head.startswith("{s}'s "):
        noun = head.removeprefix("{s}'s ").rsplit(" ", 1)[0]  # "{s}'s spouse is" → "spouse"
        if head.endswith(" include"):
            return f"The graph does not give {subject}'s {noun}."
        return f"The graph does not say {word} {subject}'s {noun} was."
    words = head.format(s=subject).split()
    trailing = _TRAILING if word in ("where", "when") else ("the",)
    while words and words[-1] in trailing:
        words.pop()  # "where X was born in" → "where X was born"; "what X received the" → "what X received"
    return f"The graph does not say {word} {' '.join(words)}."


def state_facts(triples: Sequence[Triple]) -> list[tuple[Sentence, list[Triple]]]:
    """One cited sentence per (subject, relation) of the triples, in their order."""
    return [(say(f), list(f.triples)) for f in grouped(triples)]


def _lower_first(text: str) -> str:
    return text if text[:2].isupper() else text[:1].lower() + text[1:]  # "NASA" stays


_WH = frozenset(["who", "whom", "whose", "what", "which", "when", "where", "why", "how"])
#: Control and bidirectional-override characters: a question's are never copied into an answer.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_BE = frozenset(["is", "was", "are", "were"])
_DO = frozenset(["do", "does", "did"])
_HAVE = frozenset(["has", "have", "had"])


def _as_stated(verb: str, aux: str) -> str:
    """The verb a question's "do"/"does"/"did" carries, said in a statement ("does … earn" →
    "earns", "did … study" → "studied"; "do … have" stays)."""
    v = verb.lower()
    if aux == "did":
        if v in PAST_OF:
            return PAST_OF[v]
        if v.endswith("e"):
            return verb + "d"
        return verb[:-1] + "ied" if v.endswith("y") and v[-2:-1] not in "aeiou" else verb + "ed"
    if aux == "does":
        if v == "have":
            return "has"
        if v.endswith(("s", "sh", "ch", "x", "z", "o")):
            return verb + "es"
        return verb[:-1] + "ies" if v.endswith("y") and v[-2:-1] not in "aeiou" else verb + "s"
    return verb


#: Prepositions a question may end on after its participle ("Whom is X married *to*?").
_HANGING = frozenset(["to", "in", "at", "by", "for", "with", "from", "on", "of"])


def unanswered_sentence(asked: str, subject: str | None = None) -> str:
    """The ``[NA]`` sentence for a part no relation of the graph names, without copying a request
    into it: "… does not say where Stephen Crane lived", "… whether Stephen Crane was married",
    "… how tall Marla Quenby is", "… how much Marla Quenby earns"; a request ("can you provide a
    biography of X") is "this part of the question". Control characters of the question are not
    copied into the answer."""
    text = " ".join(_CONTROLS.sub(" ", asked).split()).rstrip("?.! ")
    words = text.split()
    wh = words[0].lower() if words and words[0].lower() in _WH else None
    # the question's phrase up to its verb: "how tall", "which prize", "how many children"
    k = next((i for i in range(1, min(4, len(words))) if words[i].lower() in _BE | _DO | _HAVE), 1) if wh else 0
    verb, *rest_words = words[k:] or [""]
    rest = " ".join(rest_words)
    lead = " ".join([wh, *words[1:k]]) if wh else "whether"
    if subject and verb.lower() in _BE:
        if rest.lower().startswith(subject.lower() + " "):  # "was X born" → "X was born"
            return f"The graph does not say {lead} {subject} {verb.lower()} {rest[len(subject) + 1 :]}."
        # the participle the question ends on, before any preposition it leaves hanging ("married to")
        k = len(rest_words)
        while k > 1 and rest_words[k - 1].lower() in _HANGING:
            k -= 1
        thing, last = rest_words[: k - 1], " ".join(rest_words[k - 1 :])
        # after "what is", a last participle may be a relative clause's ("the garden that X founded")
        relative = wh in ("what", "which", "who", "whom") and bool(
            {w.lower() for w in thing} & {"that", "which", "who", "whom", "where"}
        )
        ends = participle(rest_words[k - 1].lower()) if rest_words else False
        if wh and thing and not relative and ends and subject.lower() in " ".join(thing).lower():
            # "where was the mentor of X born" → "where the mentor of X was born"
            return f"The graph does not say {lead} {' '.join(thing)} {verb.lower()} {last}."
        if wh and (rest.lower() == subject.lower() or rest.lower().startswith(subject.lower() + "'s ")):
            return f"The graph does not say {lead} {rest} {verb.lower()}."  # "who is X's spouse" → "who X's spouse is"
        # "who is the mayor of X" → "who the mayor of X is"; "… of the garden that X belongs to is"
        if wh and rest_words and rest_words[0].lower() in ("the", "a", "an") and subject.lower() in rest.lower():
            return f"The graph does not say {lead} {rest} {verb.lower()}."
    after = rest[len(subject or "") + 1 :].split() if subject else []
    if wh and subject and verb.lower() in _DO | _HAVE and rest.lower().startswith(subject.lower() + " ") and after:
        # "does X earn" → "X earns"; "has X won" → "X has won"
        said = [verb.lower(), *after] if verb.lower() in _HAVE else [_as_stated(after[0], verb.lower()), *after[1:]]
        return f"The graph does not say {lead} {subject} {' '.join(said)}."
    if wh:
        return f"The graph does not say {_lower_first(text)}."
    return "The graph does not answer this part of the question."


def none_shared_sentence(anchors: list[str], relations: list[list[str]]) -> str:
    """ "The graph names nothing linked both to A by designed by and to B by based in.": by
    which relations, since another may link both."""
    if len(relations) != len(anchors) or not all(relations):
        return f"The graph names nothing that is linked to both {join(anchors)}."
    each = [f"to {a} by {' or '.join(property_label(r) for r in rs)}" for a, rs in zip(anchors, relations, strict=True)]
    return f"The graph names nothing linked both {join(each)}."


def say(item: Item) -> Sentence:
    """The one sentence an item of evidence becomes."""
    match item:
        case Facts(subject, relation, triples):
            values = list(dict.fromkeys(t.object_value for t in triples))
            return Sentence(state(subject, relation, values), cite_triples(t.key for t in triples))
        case Gap(_, subject, relation, wh):
            return Sentence(gap_sentence(subject, relation, wh), (NACitation(),))
        case Unasked(text, subject):
            return Sentence(unanswered_sentence(text, subject), (NACitation(),))
        case More(n):
            return Sentence(f"… and {n} more.")  # cites nothing: the conclusion cites every member
        case Counted(n, noun, triples):
            return Sentence(count_sentence(n, noun), cite_triples(t.key for t in triples))
        case Ordered(winners, order, superlative, polar, partial, triples):
            text = order_sentence(list(winners), order, superlative, polar=polar)
            if partial:
                text = text.replace("So ", "So, of those the graph gives a value, ", 1)
            return Sentence(text, cite_triples(t.key for t in triples))
        case Shared(members, anchors, triples):
            return Sentence(common_sentence(list(members), list(anchors)), cite_triples(t.key for t in triples))
        case NoMeasure(kind, members):
            what = "date" if kind == "date" else "number"
            return Sentence(f"The graph gives no {what} to compare {join(list(members))} by.", (NACitation(),))
        case NoneShared(anchors, relations):
            return Sentence(none_shared_sentence(list(anchors), [list(r) for r in relations]), (NACitation(),))
    raise TypeError(f"not an evidence item: {item!r}")


def state_lookup(lookup: Lookup) -> Statements:
    """A lookup's sentences, in its items' order."""
    return Statements(tuple(say(i) for i in lookup.items), lookup.triples, lookup.absent, lookup.notes, lookup.steps)


def state_derivation(derivation: Derivation) -> Statements:
    """A derivation's facts and conclusion; a yes/no says its verdict before the first fact."""
    sentences = [say(i) for i in derivation.items]
    if derivation.verdict is not None and sentences:
        lead = "Yes: " if derivation.verdict == "yes" else "No: "
        sentences[0] = Sentence(lead + sentences[0].text, sentences[0].citations)
    return Statements(tuple(sentences), derivation.triples, derivation.absent)


NO_ENTITY = Sentence("No entity of the question was found in the knowledge graph.", (NACitation(),))


def lacking_sentence(lacking: Lacking) -> Sentence:
    """The one ``[NA]`` sentence of an answer the graph does not give."""
    if not lacking.linked:
        return NO_ENTITY
    names = " and ".join(lacking.linked)
    return Sentence(f"The knowledge graph holds no fact about {names} that answers this question.", (NACitation(),))
