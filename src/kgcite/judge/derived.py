"""Conclusions derived from cited facts — which is older, how many, what both share — and
their check: a conclusion is supported only if recomputing it from its cited triples gives the
same result (docs/concepts.md).

One module writes the conclusion sentences and reads them back, so the pipeline, the judge and
the alignment metric agree on what a conclusion claims:

- order: "So Vellmoor Central is older." / "So yes: X is the oldest." — among the cited triples
  whose values are dates (or numbers), grouped by subject, the extreme the ordering word asks
  for is the one subject the sentence names (ties: every tied subject, and no other);
- count: "So that makes 3 stations." — the number of distinct entities the cited triples link
  to the one entity they all share;
- common: "So Samuel Pike is common to Vellmoor Central and Ashby Halt." — every member named
  before "common to" is linked by a cited triple to every anchor named after it (two or more);
  "So nothing is common to A and B." — no cited entity is linked to every anchor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgcite.text.forms import Order, Quantity, as_kind, comparable, find_order, sort_key
from kgcite.text.lexicon import occurrences
from kgcite.text.values import join, normalize

#: (subject label, relation, value) of one cited triple.
Fact = tuple[str, str, str]

_COUNT = re.compile(r"so that makes ([0-9]{1,18})(?: \w+)?")
_ORDER_END = re.compile(r" (?:is|are|has|have) (?:equally )?(?:the )?((?:(?:more|most|less|least|fewer|fewest) )?\w+)$")
_COMMON = re.compile(r"\b(?:is|are) common to\b")
_SO = re.compile(r"^so\b")


@dataclass(frozen=True, slots=True)
class Ranked:
    """The subjects of typed facts in order, best first, with ties grouped."""

    winners: tuple[str, ...]
    values: dict[str, Quantity]


# -- writing -------------------------------------------------------------------------------------


def order_phrase(order: Order, superlative: bool) -> tuple[str, str]:
    """(verb, phrase) that says who wins: ("is", "older"), ("is", "the oldest"), ("has", "more
    platforms"). Words that are not adjectives (first, before, recent) are said as earlier/later."""
    word = order.word
    if word.split()[0] in ("more", "most", "less", "least", "fewer", "fewest") and order.dimension == (
        word.split()[-1],
    ):
        noun = word.split()[-1]
        head = {"more": "most", "less": "least", "fewer": "fewest"}.get(word.split()[0], word.split()[0])
        return "has", f"the {head} {noun}" if superlative else f"{word.split()[0]} {noun}"
    if order.kind == "date" and word in ("first", "last", "before", "after", "recent", "earlier", "later"):
        word = "earlier" if not order.greatest else "later"
    if superlative:
        if word.endswith("er") and not word.startswith(("more ", "less ")):
            word = _superlative(word)
        elif word.startswith(("more ", "less ")):
            word = ("most " if word.startswith("more") else "least ") + word.split(" ", 1)[1]
        return "is", f"the {word}"
    if word.endswith("est"):
        word = word[:-3] + "er"
    elif word.startswith(("most ", "least ")):
        word = ("more " if word.startswith("most") else "less ") + word.split(" ", 1)[1]
    return "is", word


def _superlative(word: str) -> str:
    """older → oldest, larger → largest, bigger → biggest, earlier → earliest."""
    stem = word[:-2]
    if word.endswith("ier"):
        return word[:-3] + "iest"
    return stem + "est"


def order_sentence(winners: Sequence[str], order: Order, superlative: bool, *, polar: bool | None = None) -> str:
    """ "So Vellmoor Central is older." / "So yes: X is the oldest." (``polar``: the question asked
    yes or no). Ties: "So A and B are equally the oldest"."""
    verb, phrase = order_phrase(order, superlative)
    if len(winners) > 1:
        verb = "are" if verb == "is" else "have"
        phrase = f"equally {phrase}"
    lead = "So " if polar is None else ("So yes: " if polar else "So no: ")
    return f"{lead}{join(list(winners))} {verb} {phrase}."


def count_sentence(n: int, noun: str | None) -> str:
    """ "So that makes 3 stations." (the noun as the question said it)."""
    return f"So that makes {n} {noun}." if noun and n != 1 else f"So that makes {n}."


def common_sentence(members: Sequence[str], anchors: Sequence[str]) -> str:
    """ "So Samuel Pike is common to Vellmoor Central and Ashby Halt." / "So nothing is common to
    A and B." (the anchors are named: the check reads them back)."""
    if not members:
        return f"So nothing is common to {join(list(anchors))}."
    return f"So {join(list(members))} {'is' if len(members) == 1 else 'are'} common to {join(list(anchors))}."


# -- reading and recomputing ---------------------------------------------------------------------


def _order_claim(text: str) -> Order | None:
    """The ordering word of a normalised "so … is older" / "so … has more platforms" sentence:
    only at the end, in the shape :func:`order_sentence` writes ("So Big was released in 1932"
    is a film's fact, not a conclusion)."""
    m = _ORDER_END.search(text)
    return find_order(m.group(1).split()) if m else None


def is_conclusion(sentence: str) -> bool:
    """A sentence this module wrote: "So …" ending in an order, a count, or "common to"."""
    text = normalize(sentence)
    if not _SO.match(text):
        return False
    return bool(_COUNT.fullmatch(text) or _COMMON.search(text) or _order_claim(text) is not None)


def holds(sentence: str, facts: Sequence[Fact]) -> bool | None:
    """Recompute a conclusion from its cited facts: True/False, or None when the sentence is no
    conclusion (the ordinary judge decides it)."""
    if not is_conclusion(sentence):
        return None
    text = normalize(sentence)
    if m := _COUNT.fullmatch(text):
        return count_of(facts) == int(m[1])
    if _COMMON.search(text):
        return _common_holds(text, facts)
    order = _order_claim(text)
    ranked = rank(facts, order) if order is not None else None
    if ranked is None:
        return False
    named = stated_labels(text, list(ranked.values))
    return bool(named) and set(named) == set(ranked.winners)


def rank(facts: Sequence[Fact], order: Order) -> Ranked | None:
    """Each subject's best value of the order's kind (its earliest date where the earliest wins),
    and the winners; None when fewer than one subject has such a value or they are not of one
    measure."""
    best: dict[str, Quantity] = {}
    for subject, _, value in facts:
        q = as_kind(value, order.kind)
        if q is None:
            continue
        old = best.get(subject)
        if old is None or (sort_key(q) > sort_key(old)) == order.greatest and sort_key(q) != sort_key(old):
            best[subject] = q
    if not best or not comparable(list(best.values())):
        return None
    top = (max if order.greatest else min)(sort_key(q) for q in best.values())
    return Ranked(tuple(s for s, q in best.items() if sort_key(q) == top), best)


def stated_labels(text: str, labels: Sequence[str]) -> list[str]:
    """The labels a normalised text states as whole words; an occurrence inside a longer stated
    label does not count ("Vellmoor" in "Vellmoor Central"), one of its own does ("The Olsen
    Gang and The Olsen Gang on the Track" states both)."""
    words = text.split()
    spans = {
        label: [(i, i + len(key)) for i in occurrences(words, key)]
        for label in dict.fromkeys(labels)
        if (key := normalize(label).split())
    }
    longest = sorted(spans, key=lambda label: -len(normalize(label).split()))
    covered: set[int] = set()
    found: set[str] = set()
    for label in longest:
        free = [(a, b) for a, b in spans[label] if not set(range(a, b)) <= covered]
        if free:
            found.add(label)
            covered |= {i for a, b in free for i in range(a, b)}
    return [label for label in spans if label in found]


def shared_end(facts: Sequence[Fact]) -> str | None:
    """The one name every fact has at one of its ends (the subject or the value), if any."""
    ends = [{normalize(s), normalize(v)} for s, _, v in facts]
    common = set.intersection(*ends) if ends else set()
    return next(iter(common)) if len(common) == 1 else None


def count_of(facts: Sequence[Fact]) -> int | None:
    """How many distinct entities the facts link to the one end they all share."""
    if len({(normalize(s), normalize(v)) for s, _, v in facts}) == 1:
        return 1  # one fact: either end may be the hub, and either way it is one member
    hub = shared_end(facts)
    if hub is None:
        return None
    return len({normalize(v) if normalize(s) == hub else normalize(s) for s, _, v in facts})


def _common_holds(text: str, facts: Sequence[Fact]) -> bool:
    pairs = {frozenset((normalize(s), normalize(v))) for s, _, v in facts}
    ends = list(dict.fromkeys(e for s, _, v in facts for e in (s, v)))
    head, _, tail = text.partition(" common to ")
    anchors = {normalize(a) for a in stated_labels(tail, ends)}
    if len(anchors) < 2:
        return False
    linked = {normalize(e): {a for a in anchors if frozenset((normalize(e), a)) in pairs} for e in ends}
    members = {normalize(m) for m in stated_labels(head, ends)} - anchors
    if head.startswith("so nothing"):
        return not members and not any(v == anchors for k, v in linked.items() if k not in anchors)
    return bool(members) and all(linked[m] == anchors for m in members)
