"""Scorers of relation chains against a question, behind :class:`~kgcite.retrieve.paths.PathScorer`.

- :class:`ZeroShotPathScorer` needs no training on any graph: it counts which relations the
  question names (word forms of the relations' own names, as ToG-E's hybrid scorer does) and
  compares that bag with the chain's (F1), plus MiniLM cosine for questions that name a relation
  in other words. Cheap: every chain text's vector is cached, the question is embedded once.
- :class:`GroundingPathScorer` is a trained bi-encoder (``kgcite train paths``): cosine between
  the masked question and the chain's description, learned across graphs; chain vectors are
  cached, so a question costs one encoding.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from kgcite.kg.keys import property_key
from kgcite.kg.store import KGStore
from kgcite.retrieve.paths import Chain, Step, chain_text
from kgcite.retrieve.scoring import EmbeddingScorer, TextScorer, _same, content_stems, words
from kgcite.text import places, tutelage
from kgcite.text.lexicon import (
    COUNTING,
    FRAMING,
    GENERIC,
    KIND_WORDS,
    LOCATING,
    PEER_SHARES,
    PLACEHOLDERS,
    SHARING,
    kind_positions,
    modifiers,
    opening_kind,
    property_label,
    question_phrases,
    role_said,
    stem,
    teacher_end,
)


@functools.cache
def relation_words(relation: str) -> tuple[str, ...]:
    """Stems that name a relation in a question: the words of its name plus the question
    phrases (:func:`~kgcite.text.lexicon.question_phrases`) that carry one content word
    ("worked for" → work; "passed away" has two and is left out)."""
    label = property_label(relation)
    extra = (s[0] for p in question_phrases(label) if len(s := content_stems(p)) == 1)
    return tuple(dict.fromkeys([*content_stems(label), *extra]))


def kind_words(question: str) -> frozenset[int]:
    """Where the question says its answer's kind (:func:`~kgcite.text.lexicon.kind_positions`)."""
    return kind_positions(words(question))


def question_tokens(question: str) -> list[str]:
    """One token a word: its content stem, ``<share>``-style markers for sharing words (stop
    words otherwise), ``<topic>`` for the masked topic ``X``, ``""`` for any other stop word (kept,
    so that adjacency is the text's)."""
    out: list[str] = []
    for w in words(question):
        stem_ = content_stems(w)
        if w in SHARING:
            out.append(f"<{w}>")
        elif w == "x":
            out.append("<topic>")
        elif w in FRAMING:
            out.append("")
        else:
            out.append(stem_[0] if stem_ else "")
    return out


@dataclass(frozen=True, slots=True)
class Mention:
    """Words of the question that name a relation: where, and which relations they may mean
    ("founded" may be ``founder``, ``founded`` or ``inception``; one hop covers it)."""

    at: int
    relations: frozenset[str]
    optional: bool = False  # may be just another word of an earlier mention's name: need not be walked
    kind: bool = False  # says the answer's kind by what a compound name starts from, or reaches (:func:`kind_mentions`)
    thing: bool = False  # says what a compound name starts from, a thing on the way ("the *hospital* where X works")
    words: frozenset[int] = frozenset()  # every position read into it ("founding date": both words), ``at`` among them
    reached: bool = False  # with ``kind``: says what the name reaches ("Which *works* …": ``suppliesWorks``'s values)


def relation_mentions(question: str, relations: Sequence[str]) -> list[Mention]:
    """The relation mentions of a question. Adjacent words are one mention ("imdb rating": the
    relations both fit); words naming different parts of one name are one ("released … years");
    the same part twice is two ("written by the writer of"). A sharing word ("same director")
    doubles the mention nearest after it, unless its relations are named twice already: that
    relation is walked there and back."""
    tokens = question_tokens(question)
    said = words(question)
    own = {r: relation_words(r) for r in relations}
    names = {r: content_stems(property_label(r)) for r in relations}
    found: list[tuple[int, dict[str, set[str]]]] = []  # (position, relation → the parts of its name it matched)
    read: dict[int, set[int]] = {}  # a mention's last position → every position read into it
    optional: set[int] = set()  # positions of mentions that may be part of an earlier one
    for i, q in enumerate(tokens):
        if not q or q.startswith("<"):
            continue
        # which part of each relation's own name the word is ("~": a paraphrase, no part)
        hit = {
            r: {w for w in names[r] if _same(q, w)} or {"~"} for r, ws in own.items() if any(_same(q, w) for w in ws)
        }
        if any(teacher_end(r) and "~" not in m for r, m in hit.items()):  # "mentor": `mentored_by`, not `trainedBy`
            hit = {r: m for r, m in hit.items() if not (teacher_end(r) and "~" in m)}
        if not hit and said[i] in PEER_SHARES:  # "X's classmates": what they share names the relation
            shared = {stem(w) for w in PEER_SHARES[said[i]]}
            hit = {r: {"~"} for r, ws in own.items() if any(_same(s, w) for s in shared for w in ws)}
        if not hit:
            continue
        if found and found[-1][0] == i - 1:  # adjacent: one mention, the relations both words fit
            last = found[-1][1]
            both = {r: last[r] | m for r, m in hit.items() if r in last}
            read[i] = read.pop(found[-1][0], {found[-1][0]}) | {i}
            found[-1] = (i, both or {**last, **hit})
            continue
        other_part = next(
            (k for k, (_, m) in enumerate(found) if set(hit) <= set(m) and all(not (hit[r] & m[r]) for r in hit)),
            None,
        )
        if other_part is not None:
            _, m = found[other_part]
            found[other_part] = (found[other_part][0], {r: m[r] | hit.get(r, set()) for r in m})
            read.setdefault(found[other_part][0], {found[other_part][0]}).add(i)
            continue
        if any(r in m and not (hit[r] & m[r]) for _, m in found for r in hit):
            optional.add(i)  # "team … plays": another word of "member of sports team", or "position played"
        found.append((i, hit))
    # the answer's kind naming only what a compound name starts from ("What *label* …": label headquarters)
    kind = kind_words(question)
    mentions = []
    for at, m in found:
        thing = all(p <= modifiers(r) for r, p in m.items()) and not any(role_said(r, said, at) for r in m)
        # "Which *works* does X draw on?": the kind asked is what ``suppliesWorks`` reaches; a chain
        # ending on such things need not walk that hop (:meth:`ZeroShotPathScorer._reading`)
        taken = frozenset(read.get(at, {at}))
        head = at == opening_kind(said) and len(taken) == 1 and not thing
        head = head and all(len(names[r]) > 1 and p == {names[r][-1]} for r, p in m.items())
        unwalked = at in optional or thing
        says_kind = head or (unwalked and at in kind and all(modifiers(r) for r in m))
        mentions.append(
            Mention(at, frozenset(m), unwalked, says_kind, thing and not says_kind, words=taken, reached=head)
        )
    for share in (i for i, t in enumerate(tokens) if t.startswith("<") and t != "<topic>"):
        after = sorted((m for m in mentions if m.at > share), key=lambda m: m.at)
        target = after[0] if after else max(mentions, key=lambda m: m.at, default=None)
        if target is not None and sum(bool(m.relations & target.relations) for m in mentions) == 1:
            mentions.append(target)
    return mentions


def soft_mentions(
    question: str,
    relations: Sequence[str],
    taken: Sequence[Mention],
    embedding: EmbeddingScorer,
    *,
    min_similarity: float = 0.5,
    min_margin: float = 0.08,
) -> list[Mention]:
    """Mentions in words no relation's name or lexicon phrase holds ("town" for ``home city``,
    "firm" for ``employer``): a content word whose MiniLM vector is near one relation name,
    clearly nearer than to any other (the question reader's rule for a whole part, applied per
    word). ``taken``: mentions already read; their positions and relations are not read again
    (a relation named twice must be walked twice)."""
    labels: dict[str, set[str]] = {}
    for r in relations:
        labels.setdefault(property_label(r), set()).add(r)
    if len(labels) < 2:
        return []
    names = list(labels)
    at = {i for m in taken for i in m.words | {m.at}}  # "founding" in "founding date" is read already
    named = {r for m in taken for r in m.relations}
    free = [
        (i, w)
        for i, (w, token) in enumerate(zip(words(question), question_tokens(question), strict=True))
        if i not in at and token and not token.startswith("<") and len(w) >= 3
    ]
    if not free:
        return []
    vectors = embedding.vectors([w for _, w in free] + names)  # one batch; names and words are cached
    kind = kind_words(question)
    found: list[Mention] = []
    for k, (i, _) in enumerate(free):
        sims = vectors[len(free) :] @ vectors[k]
        first, second = np.argsort(-sims)[:2]
        rels = labels[names[int(first)]]
        if sims[first] >= min_similarity and sims[first] - sims[second] >= min_margin and not rels & named:
            # "What record *company* …" is like label headquarters: the kind may be its subject's
            says_kind = i in kind and all(modifiers(r) for r in rels)
            found.append(Mention(i, frozenset(rels), says_kind, says_kind, words=frozenset({i})))
            named |= rels
    return found


@functools.cache
def asks_where(question: str) -> bool:
    """Whether the question asks where a thing is: it says "in" or "where" (read once a question)."""
    return bool(set(words(question)) & {"in", "where"})


def placed_within(question: str, chain: Chain, asked: Sequence[Mention]) -> bool:
    """Whether "Which county is X in?" (or "Where is X?", "In which region is the workshop that
    made X?") walks to the named place through the places X is in: the last hop is named, and
    each hop before it is named too or goes forward along a relation that places a thing in a
    larger place (:data:`~kgcite.text.lexicon.LOCATING`: X's town is in the county asked). Where
    a rank of place is asked (:mod:`~kgcite.text.places`), a hop before may also reach the first
    place by its name ("Which region is X from?" over ``grown at`` to the farm's ``region``), and
    the last may climb to a rank no relation names ("Which county is X in?" over ``LOCATED_IN``)."""
    said = words(question)
    rank = places.asked_rank(said)
    if not chain or not (asks_where(question) or (rank is not None and "from" in said)):
        return False
    named = {r for m in asked for r in m.relations}
    *way, last = chain
    if last.inverse or not way or all(s.relation in named for s in chain):
        return False
    if rank is None:
        reached = last.relation in named
    else:
        reached = last.relation in named or places.climbs(last.relation) or places.rank_reached(last.relation) == rank
    return reached and all(
        s.relation in named
        or (not s.inverse and set(property_key(s.relation).split()) <= LOCATING)
        or (rank is not None and not s.inverse and places.reaches_place(s.relation))
        for s in way
    )


def rank_mentions(question: str, mentions: list[Mention]) -> list[Mention]:
    """The rank a question asks ("Which *town* …") says the answer's kind: it names a relation
    that must be walked only where that relation reaches the rank by its name (``county``,
    ``part of region``), not one its word merely ends (``HOMETOWN`` for "which town": the town
    a workshop is ``based_in`` is no one's home town)."""
    said = words(question)
    at, rank = places.rank_at(said), places.asked_rank(said)
    return [
        replace(m, optional=True) if m.at == at and not any(places.rank_reached(r) == rank for r in m.relations) else m
        for m in mentions
    ]


def unnamed_hops(chain: Chain, asked: Sequence[Mention]) -> int:
    """Hops no mention names: a mention names one hop of its relation ("Tobias's *mentor*" is not
    his mentor's mentor), and walking back along a hop already named is named too ("films
    starred by X actors")."""
    budget = Counter(r for m in asked for r in m.relations)
    walked: set[tuple[str, bool]] = set()
    unnamed = 0
    for s in chain:
        if budget[s.relation] > 0:
            budget[s.relation] -= 1
            walked.add((s.relation, s.inverse))
        elif (s.relation, not s.inverse) not in walked:
            unnamed += 1
    return unnamed


def spare_words(question: str, asked: Sequence[Mention]) -> int:
    """:func:`unexplained_words` that stand apart from every mention ("tongue" in "mother
    tongue" is the mention's own phrase, not a word for another hop), and the answer's kind
    named by what a compound name starts from: "Which *label* is X's band on?" leaves "label"
    for the hop to the band's label (``signed to``); one named by what a name reaches ("Which
    *works* …") leaves nothing: the chain ends on works, or walks ``suppliesWorks``."""
    return unexplained_words(question, asked, apart=True) + sum((m.kind and not m.reached) or m.thing for m in asked)


def kind_mentions(asked: Sequence[Mention]) -> list[Mention]:
    """The mentions that say the answer's kind by what a compound relation name starts from
    ("What *label* …" for ``labelHeadquarters``; optional, not walked: :func:`relation_mentions`)."""
    return [m for m in asked if m.kind]


def unexplained_words(question: str, asked: Sequence[Mention], *, apart: bool = False) -> int:
    """Content words of the question that are part of no mention: neither a mention's own word
    nor a word of a mentioned relation's name ("place" in "In which place did X die"), nor a
    word that says nothing of a relation (``GENERIC``: "value"; ``PLACEHOLDERS``: "whatever")."""
    at = {m.at for m in asked}
    names = [w for r in {r for m in asked for r in m.relations} for w in relation_words(r)]
    said, tokens = words(question), question_tokens(question)
    counted = set()  # "how many member theatres": the words naming what is counted, not a hop
    for i, word in enumerate(said):
        if word in COUNTING:
            counted |= {i, *itertools.takewhile(lambda k: bool(tokens[k]), range(i + 1, len(said)))}
    return sum(
        1
        for i, (word, token) in enumerate(zip(said, tokens, strict=True))
        if token
        and not token.startswith("<")
        and i not in at
        and i not in counted
        and not (apart and (i - 1 in at or i + 1 in at))
        and word not in GENERIC | PLACEHOLDERS
        and not any(_same(token, w) for w in names)
    )


def mention_order(question: str, mentions: Sequence[Mention]) -> list[frozenset[str]]:
    """The mentions' relations, nearest to the topic mention first: English names a chain's
    first hop next to its topic ("directors of films written by the writer of X": written,
    written, directed). Empty when the question has no masked topic."""
    tokens = question_tokens(question)
    if "<topic>" not in tokens:
        return []
    at = tokens.index("<topic>")
    return list(dict.fromkeys(m.relations for m in sorted(mentions, key=lambda m: abs(m.at - at))))


def order_agreement(chain: Chain, order: Sequence[frozenset[str]]) -> float:
    """1 when the chain's first hop is named nearest the topic and its distinct relations are
    named in walking order, 0.5 for the first hop alone, else 0."""
    if not order or not chain or chain[0].relation not in order[0]:
        return 0.0
    distinct = list(dict.fromkeys(s.relation for s in chain))
    rank = {r: min((k for k, rs in enumerate(order) if r in rs), default=len(order)) for r in distinct}
    return 1.0 if [rank[r] for r in distinct] == sorted(rank[r] for r in distinct) else 0.5


def matched_hops(chain: Chain, mentions: Sequence[Mention]) -> int:
    """The size of a matching between the chain's hops and the question's mentions: a hop covers
    one mention whose relations include its own (mentions with fewer readings matched first)."""
    free = [s.relation for s in chain]
    matched = 0
    for m in sorted(mentions, key=lambda m: len(m.relations)):
        k = next((k for k, r in enumerate(free) if r in m.relations), None)
        if k is not None:
            free.pop(k)
            matched += 1
    return matched


def mention_f1(chain: Chain, mentions: Sequence[Mention], left: int = 0) -> float:
    """F1 of the hops matched to mentions (:func:`matched_hops`); recall counts the mentions
    that must be walked, precision every hop a mention explains, and up to ``left`` unnamed
    hops a question word no relation's name explains is left for (:func:`unexplained_words`:
    "hometown" in "the hometown of X's CEO" is left for the hop *person born in*)."""
    matched = matched_hops(chain, mentions)
    required = [m for m in mentions if not m.optional]
    if not matched or not required:
        return 0.0 if not matched else matched / len(chain)
    explained = min(len(chain), matched + min(left, unnamed_hops(chain, mentions)))
    precision, recall = explained / len(chain), min(1.0, matched_hops(chain, required) / len(required))
    return 2 * precision * recall / (precision + recall) if recall else 0.0


def graph_examples(store: KGStore, n: int = 3) -> Callable[[Step], Sequence[str]]:
    """A few distinct values a step reaches in the graph (objects forwards, subjects backwards),
    looked up once per step: what the path scorers show the bi-encoder. The most common ones
    (``has genre`` → Drama, Comedy, Horror), ties by IRI: the rows a store happens to return first
    made one question's chain differ between the embedded store and Virtuoso."""

    @functools.cache
    def examples(step: Step) -> tuple[str, ...]:
        values = [v for v, _ in store.common_values(step.relation, inverse=step.inverse, limit=4 * n)]
        return tuple(dict.fromkeys(v for v in values if len(v) <= 40))[:n]

    return examples


def graph_kinds(store: KGStore, n: int = 200) -> Callable[[Step, Step], bool]:
    """Whether a step reaches things another step reaches too (some of the first ``n`` far ends of
    each): ``Step(r, True)`` reaches the things that have ``r``, ``Step(r, False)`` its values.
    "What *label* …" asks for a thing that has a ``labelHeadquarters``, "Which *works* …" for a
    value of ``suppliesWorks``; a chain ending on bands or reservoirs is no answer to them."""

    @functools.cache
    def ends(step: Step) -> frozenset[str]:
        triples = store.match(relation=step.relation, limit=n)
        far = (t.subject_id if step.inverse else t.object_id for t in triples)
        return frozenset(e for e in far if e is not None)

    def reaches(step: Step, kind: Step) -> bool:
        return bool(ends(step) & ends(kind))

    return reaches


def graph_end_words(store: KGStore, n: int = 200, share: float = 0.34) -> Callable[[Step], frozenset[str]]:
    """What the things a step reaches are called, as stems: the role or first word of each
    compound relation name they have (``hospital in``, ``labelHeadquarters``: hospitals,
    labels), and the words at least ``share`` of their labels hold ("Riverside *Clinic*", "Carrow
    *University*"). "At what *clinic* …" asks for one of them; looked up once per step."""

    @functools.cache
    def starts() -> dict[str, frozenset[str]]:  # on first use: a question with no kind asks nothing of the store
        return {
            r: frozenset(t.subject_id for t in store.match(relation=r, limit=n))
            for r in store.relations()
            if modifiers(r)
        }

    @functools.cache
    def words_of(step: Step) -> frozenset[str]:
        triples = store.match(relation=step.relation, limit=n)
        ends = {(t.subject_id, t.subject_label) if step.inverse else (t.object_id, t.object_value) for t in triples}
        ids = {e for e, _ in ends if e is not None}
        out = {m for r, subjects in starts().items() if ids & subjects for m in modifiers(r)}
        labels = [frozenset(content_stems(label)) for e, label in ends if e is not None and label]
        counts: dict[str, int] = {}
        for stems_ in labels:
            for w in stems_:
                counts[w] = counts.get(w, 0) + 1
        out |= {w for w, c in counts.items() if c >= max(1.0, share * len(labels))}
        return frozenset(out)

    return words_of


def chain_description(chain: Chain, examples: Callable[[Step], Sequence[str]] | None = None) -> str:
    """A chain as a text model reads it: its steps' names and directions, with a few values its
    last hop reaches when ``examples`` gives them ("has genre (e.g. Drama, Comedy)" is nearer
    to "what kind of film is X" than the bare name)."""
    shown = examples(chain[-1]) if examples is not None and chain else ()
    return chain_text(chain) + (f" (e.g. {', '.join(shown)})" if shown else "")


_TIME = re.compile(r"^\d{3,4}(?:-\d\d(?:-\d\d)?)?(?:T.*)?$")


#: Words after "what"/"which" that ask for a time ("what year", "which date").
_TIME_NOUNS = frozenset(["year", "years", "date", "dates", "day", "decade", "century", "month"])
#: … and words that ask for a place, a person or a thing: anything but a time ("which county").
_THING_NOUNS = frozenset(["county", "country", "city", "town", "place", "person", "people", "company", "team"])


def asks_time(question: str) -> bool | None:
    """True for "when …" and "what/which year|date …", False for "where"/"who" and "which
    county|city|person …" questions, None otherwise: what kind of value the answer is, whatever
    relation names the question uses."""
    ws = words(question)
    for i, w in enumerate(ws):
        if w in ("when", "where", "who", "whom", "whose"):
            return w == "when"
        if w in ("what", "which", "in") and i + 1 < len(ws):
            if ws[i + 1] in _TIME_NOUNS:
                return True
            if ws[i + 1] in _THING_NOUNS:
                return False
    return None


def asks_person(question: str) -> bool:
    """Whether the question's first question word is "who", "whom" or "whose": its answer is
    someone (a person or a body), never a place."""
    for w in words(question):
        if w in ("what", "which", "when", "where", "how", "who", "whom", "whose"):
            return w in ("who", "whom", "whose")
    return False


def place_named(step: Step) -> bool:
    """Whether a step reaches what its relation's own name calls a place (``city``,
    ``farmRegion``), walked forwards: backwards along ``home city`` are the clubs, not places."""
    return not step.inverse and bool(set(property_label(step.relation).lower().split()) & KIND_WORDS["place"])


def time_valued(values: Sequence[str]) -> bool:
    """Most example values are years or ISO dates."""
    return bool(values) and sum(bool(_TIME.match(v.strip())) for v in values) * 2 > len(values)


#: Words after "which"/"what" that say no kind a label or a role could share.
_NO_KIND = frozenset(["person", "peopl", "one", "thing", "kind", "type", "sort", "name", "year", "date", "day"])


class ZeroShotPathScorer:
    """``F1(named relations, chain relations) + weight × cosine(question, chain) - length_cost × hops``.

    ``relations`` is the graph's whole relation vocabulary, so what the question names does not
    depend on which chains happen to be scored together (scores compare across depths).
    """

    def __init__(
        self,
        relations: Sequence[str],
        embedding: TextScorer | None = None,
        *,
        weight: float = 0.3,
        order_weight: float = 0.1,
        length_cost: float = 0.02,
        threshold: float = 0.05,
        examples: Callable[[Step], Sequence[str]] | None = None,
        type_cost: float = 0.15,
        unnamed_cost: float = 1.0,
        soft: bool = True,
        kinds: Callable[[Step, Step], bool] | None = None,
        kind_cost: float = 0.3,  # what ending on the kind a question names is worth
        end_words: Callable[[Step], frozenset[str]] | None = None,
    ) -> None:
        self.relations = tuple(relations)
        self._known = frozenset(self.relations)
        self.examples, self.type_cost, self.unnamed_cost = examples, type_cost, unnamed_cost
        self.embedding, self.weight, self.length_cost, self._threshold = embedding, weight, length_cost, threshold
        self.order_weight, self.soft = order_weight, soft
        self.kinds, self.kind_cost, self.end_words = kinds, kind_cost, end_words
        self._read: dict[
            tuple[str, frozenset[str]], tuple[list[Mention], list[frozenset[str]]]
        ] = {}  # the beam asks 3 times

    def read(self, question: str, extra: frozenset[str] = frozenset()) -> tuple[list[Mention], list[frozenset[str]]]:
        """The question's relation mentions and their order, over the vocabulary (plus ``extra``
        relations a chain uses that the vocabulary lacks); kept for the question's next depth."""
        key = (question, extra)
        if key not in self._read:
            if len(self._read) > 10_000:
                self._read.clear()
            vocabulary = [*self.relations, *sorted(extra)]
            mentions = relation_mentions(question, vocabulary)
            if self.soft and isinstance(self.embedding, EmbeddingScorer):
                mentions += soft_mentions(question, vocabulary, mentions, self.embedding)
            mentions = rank_mentions(question, mentions)
            self._read[key] = mentions, mention_order(question, mentions)
        return self._read[key]

    @property
    def name(self) -> str:
        return f"zero-shot(mentions+{self.weight}*{self.embedding.name})" if self.embedding else "zero-shot(mentions)"

    @property
    def threshold(self) -> float:
        return self._threshold

    def scores(
        self,
        question: str,
        chains: Sequence[Chain],
        near: AbstractSet[str] | None = None,
        *,
        forgive: bool = False,
    ) -> np.ndarray:
        """:meth:`lexical` plus ``weight ×`` MiniLM's likeness of question and chain text."""
        out = self.lexical(question, chains, near, forgive=forgive)
        if chains and self.embedding is not None and self.weight:
            out += self.weight * self.embedding.scores(question, [self.text(c) for c in chains])
        return out

    def lexical(
        self,
        question: str,
        chains: Sequence[Chain],
        near: AbstractSet[str] | None = None,
        *,
        forgive: bool = False,
    ) -> np.ndarray:
        """What the question's words say of each chain: the relations they name (:meth:`_reading`),
        the kind of answer asked (:meth:`type_penalty`, :meth:`kind_bonus`). ``near``: the
        relations the search met around the topic. A mention of relations that occur nowhere near
        it is a word that happens to name some relation of a large graph ("value", "common"): it
        need not be walked. ``forgive``: unnamed hops may take the question words no relation's
        name explains, for a trained model's likeness to judge; not by default: this reading
        alone has no such likeness to trust."""
        if not chains:
            return np.zeros(0, dtype=np.float32)
        asked, order = self.read(
            question, frozenset(s.relation for c in chains for s in c if s.relation not in self._known)
        )
        if near is not None:
            asked = [m if m.relations & near else replace(m, optional=True) for m in asked]
        left = spare_words(question, asked) if forgive else 0
        # "Which country is X in?": the hops through the places X is in are said by "in"
        out = np.array(
            [self._reading(c, asked, order, len(c) if placed_within(question, c, asked) else left) for c in chains],
            dtype=np.float32,
        )
        out += self.type_penalty(question, chains) + self.kind_bonus(question, chains)
        return out

    def type_penalty(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        """``-type_cost`` for each chain whose last hop's values are the wrong kind: "when" and
        "what year" want dates, "where", "who" and "which county" do not (one word settles
        born in / date of birth); "who" wants no place its relation's name says (``city``); a
        teaching bond is walked towards the end asked for ("Whom did X train?" reaches X's
        pupils over ``mentored_by``, not X's mentor: :mod:`~kgcite.text.tutelage`); and, added
        to those, :meth:`shortfall`."""
        out = np.zeros(len(chains), dtype=np.float32)
        if asks_person(question):  # "Who is in charge of the venue X opened at?" is no city
            out -= self.type_cost * np.array([bool(c) and place_named(c[-1]) for c in chains], dtype=np.float32)
        role = tutelage.asked_role(words(question))
        if role is not None:
            wrong_way = [tutelage.wrong_way(c, role) for c in chains]
            out = np.minimum(out, -self.type_cost * np.array(wrong_way, dtype=np.float32))
        wants_time = asks_time(question)
        if wants_time is not None and self.examples is not None:
            examples = self.examples
            wrong = [bool(c) and time_valued(examples(c[-1])) != wants_time for c in chains]
            out = np.minimum(out, -self.type_cost * np.array(wrong, dtype=np.float32))
        both: np.ndarray = out + self.shortfall(question, chains)
        return both

    def shortfall(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        """``-type_cost`` for each chain that stops short of the rank of place asked: "Which
        county …" is not answered by a town, nor by a town's birthplace
        (:func:`~kgcite.text.places.short_of`). The search keeps such chains to walk on."""
        rank = places.asked_rank(words(question))
        if rank is None:
            return np.zeros(len(chains), dtype=np.float32)
        short = [
            bool(c) and places.short_of(c[-1], rank, larger=self._lies_in(c[-1]), within=self._within(c[-1], rank))
            for c in chains
        ]
        return -self.type_cost * np.array(short, dtype=np.float32)

    def stops_short(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        """Which chains stop short (:meth:`shortfall`) of a rank asked strictly
        (:func:`~kgcite.text.places.strict`): those answer nothing."""
        rank = places.asked_rank(words(question))
        if rank is None or not places.strict(rank):
            return np.zeros(len(chains), dtype=bool)
        out: np.ndarray = self.shortfall(question, chains) != 0
        return out

    def _lies_in(self, step: Step) -> bool:
        """Whether what a step reaches lies in a place: places that hold a relation placing them
        in a larger one (``LOCATED_IN``, ``county``), or things that are no place by the step's
        name and hold one reaching a place (a teacher's ``HOMETOWN``); unknown without the graph
        (``kinds``)."""
        if self.kinds is None:
            return False
        kinds, placing = self.kinds, self._placing
        if step.inverse or not places.reaches_place(step.relation):
            placing += self._reaching
        return any(kinds(step, Step(r, True)) for r in placing)

    def _within(self, step: Step, rank: str) -> bool:
        """Whether what a step reaches lies in places of ``rank`` or smaller (the graph's
        relations that reach such a rank by name, among those its ends hold): then it is
        smaller than ``rank`` (:func:`~kgcite.text.places.no_larger`)."""
        if self.kinds is None:
            return False
        kinds, smaller = self.kinds, places.no_larger(rank)
        return any(places.rank_reached(r) in smaller and kinds(step, Step(r, True)) for r in self._placing)

    @functools.cached_property
    def _placing(self) -> tuple[str, ...]:
        """The graph's relations that place a thing in a place of some rank, or in a larger one."""
        return tuple(r for r in self.relations if places.climbs(r) or places.rank_reached(r) is not None)

    @functools.cached_property
    def _reaching(self) -> tuple[str, ...]:
        """The graph's other relations whose names say they reach a place (``HOMETOWN``, ``grown at``)."""
        return tuple(r for r in self.relations if places.reaches_place(r) and r not in self._placing)

    def kind_bonus(self, question: str, chains: Sequence[Chain], *, reached: bool = True) -> np.ndarray:
        """``kind_cost`` for each chain that ends on things of the kind the question asks for,
        where it names that kind by what a compound relation name starts from ("What *label* …":
        things with a ``labelHeadquarters``), or by what ``end_words`` says the ends are called
        ("At what *clinic* …": Riverside Clinic): the word names the last hop's end, as a
        relation word names a hop (:func:`kind_mentions`). ``reached``: also a kind said by what a
        name reaches ("Which *works* …": ``suppliesWorks``), a word that names no other hop."""
        out = np.zeros(len(chains), dtype=np.float32)
        if not chains:
            return out
        said_kinds = [m for m in kind_mentions(self.read(question)[0]) if reached or not m.reached]
        starts = [Step(r, True) for m in said_kinds if not m.reached for r in m.relations]
        if said_kinds and self.kinds is not None:
            kinds = self.kinds
            # a chain walking ``suppliesWorks`` last has the word's credit as a hop already
            ends_on = [
                any(kinds(c[-1], k) for k in starts) or any(self._ends_on_value(c[-1], m) for m in said_kinds)
                for c in chains
            ]
            out += self.kind_cost * np.array(ends_on, dtype=np.float32)
        said = words(question)
        asked = {stem(said[i]) for i in kind_words(question)} - _NO_KIND
        if asked and self.end_words is not None:
            # "At what *clinic* …", "Which *observatory* …": the ends' labels or roles say the kind
            ends = self.end_words
            out = np.maximum(out, [self.kind_cost if c and asked & ends(c[-1]) else 0.0 for c in chains])
        return out

    def names(self, question: str, chain: Chain, *, every: bool = False) -> bool:
        """Whether a word of the question names a relation the chain walks (not only its
        likeness); ``every``: one of its hops is named and each other is left to a word of the
        question that names no relation ("the *author* of X": a hop the lexicon does not know by
        that name). A hop no word is left for is a guess: "What is the birthplace of X?" is not
        answered by the birthplace of X's father."""
        asked, _ = self.read(question, frozenset(s.relation for s in chain if s.relation not in self._known))
        kind = int(bool(chain) and bool(self.kind_bonus(question, [chain], reached=False).any()))
        if every:
            named = matched_hops(chain, asked) + kind
            things = sum(m.thing for m in asked)  # "the *hospital* where X works" names the hop to it
            if named > 0 and unnamed_hops(chain, asked) - kind <= unexplained_words(question, asked) + things:
                return True
            return placed_within(question, chain, asked)
        # "Which county is X in?" names the climb to it, where no relation is called a county
        return matched_hops(chain, asked) + kind > 0 or placed_within(question, chain, asked)

    def _reading(self, chain: Chain, asked: Sequence[Mention], order: Sequence[frozenset[str]], left: int = 0) -> float:
        """The lexical part of a chain's score. A question that names relations of the graph
        must have every one of them walked: a chain that leaves one out is no answer (it scores
        below any threshold: "the mayor of the city where X was born" is not answered by X's
        birthplace, nor through the city it is twinned with), and a hop whose relation nobody
        named costs ``unnamed_cost`` (a relation walked there and back is named once: "films
        starred by X actors"), unless one of the ``left`` question words no relation's name
        explains is left for it: then the model's likeness decides that hop, as :meth:`names`
        already lets it ("What nation is X's home city in?": *nation* for ``country``)."""
        if self.kinds is not None and chain:  # "Which *works* …" is answered by works, however reached
            asked = [replace(m, optional=True) if self._ends_on_value(chain[-1], m) else m for m in asked]
        required = [m for m in asked if not m.optional]
        walks_all = matched_hops(chain, required) >= len(required)
        left = left if walks_all else 0  # a chain that leaves a named relation out is no answer anyway
        score = (
            mention_f1(chain, asked, left)
            + self.order_weight * order_agreement(chain, order)
            - self.length_cost * len(chain)
        )
        if asked:
            score -= self.unnamed_cost * max(0, unnamed_hops(chain, asked) - left)
            score -= 0.0 if walks_all else 1.0
        return score

    def _ends_on_value(self, step: Step, mention: Mention) -> bool:
        """Whether a step, not itself the relation, ends on the kind a mention says by what its
        relation reaches (``Mention.reached``): "Which *works* …", where ``drawsFrom`` ends on works."""
        if not mention.reached or self.kinds is None:
            return False
        kinds = self.kinds
        return any(step != Step(r) and kinds(step, Step(r)) for r in mention.relations)

    def rescore(self, question: str, chains: Sequence[Chain], near: AbstractSet[str]) -> np.ndarray:
        """:meth:`scores` knowing the relations met around the topic."""
        return self.scores(question, chains, near)

    def complete(self, question: str, chain: Chain) -> bool:
        """Every mention is covered by a hop and every hop by a mention: a longer chain only
        loses precision, so the search need not walk deeper."""
        asked, _ = self.read(question, frozenset(s.relation for s in chain if s.relation not in self._known))
        return bool(asked) and mention_f1(chain, asked) == 1.0

    def text(self, chain: Chain) -> str:
        """The chain as the bi-encoder reads it (:func:`chain_description`)."""
        return chain_description(chain, self.examples)


class GroundingPathScorer:
    """``cosine(question, chain description) - length_cost × hops`` from a trained bi-encoder,
    plus, with a ``reader`` (the zero-shot scorer), its answer-kind penalty and
    ``lexical_weight ×`` its score: the learned likeness and the words that name relations,
    mixed with a weight chosen on dev questions.

    ``threshold``: below it, ``[NA]``. ``named_threshold`` (the same unless set): what a chain
    no question word names must clear to replace a one-hop ``[NA]`` (:meth:`names`)."""

    def __init__(
        self,
        embedding: EmbeddingScorer,
        examples: Callable[[Step], Sequence[str]] | None = None,
        *,
        threshold: float = 0.5,
        length_cost: float = 0.0,
        reader: ZeroShotPathScorer | None = None,
        adapter: np.ndarray | None = None,
        named_threshold: float | None = None,
        lexical_weight: float = 0.0,
    ) -> None:
        self.embedding, self.examples, self.reader = embedding, examples, reader
        self.lexical_weight = lexical_weight
        self.named_threshold = threshold if named_threshold is None else named_threshold
        self._threshold, self.length_cost, self.adapter = threshold, length_cost, adapter

    @property
    def name(self) -> str:
        return f"grounding({self.embedding.name})"

    @property
    def threshold(self) -> float:
        return self._threshold

    def cosines(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        """The model's cosine between the question (moved by the adapter, if any) and each chain's description."""
        texts = [chain_description(c, self.examples) for c in chains]
        q = self.embedding.vectors([question])[0]
        if self.adapter is not None:  # a user's graph's few examples moved the questions
            q = q @ self.adapter
            q = q / max(float(np.linalg.norm(q)), 1e-12)
        cosines: np.ndarray = (self.embedding.vectors(texts) @ q).astype(np.float32)
        return cosines

    def prepare(self, chains: Sequence[Chain], progress: Callable[[int, int], None] | None = None) -> int:
        """Encode the chains' descriptions now (batches of 256), so a question encodes only itself."""
        texts = list(dict.fromkeys(chain_description(c, self.examples) for c in chains))
        before = self.embedding.encoded
        for i in range(0, len(texts), 256):
            self.embedding.vectors(texts[i : i + 256])
            if progress is not None:
                progress(min(i + 256, len(texts)), len(texts))
        return self.embedding.encoded - before

    def scores(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        if not chains:
            return np.zeros(0, dtype=np.float32)
        hops = np.array([len(c) for c in chains], dtype=np.float32)
        out: np.ndarray = self.cosines(question, chains) - self.length_cost * hops
        if self.reader is None:
            return out
        # the answer's kind ("when", "which county") read as zero-shot reads it, and the
        # relations the question's own words name, as evidence next to the model's
        out += self.reader.type_penalty(question, chains) + self.reader.kind_bonus(question, chains)
        if self.lexical_weight:
            # a hop no relation's name explains is the model's to judge (``forgive``)
            # the words' part only: the model is the likeness (MiniLM's again cost half the time)
            out = out + self.lexical_weight * self.reader.lexical(question, chains, forgive=True)
        return out

    def shortfall(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        """The part of :meth:`scores` that says a chain stops short of the rank of place asked
        (the reader's :meth:`~ZeroShotPathScorer.shortfall`, in its penalty and its lexical part)."""
        if self.reader is None:
            return np.zeros(len(chains), dtype=np.float32)
        out: np.ndarray = (1.0 + self.lexical_weight) * self.reader.shortfall(question, chains)
        return out

    def stops_short(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        """The reader's :meth:`~ZeroShotPathScorer.stops_short`: chains that answer nothing."""
        if self.reader is None:
            return np.zeros(len(chains), dtype=bool)
        return self.reader.stops_short(question, chains)

    def names(self, question: str, chain: Chain, *, every: bool = False) -> bool:
        """A question word names a relation of the chain (the zero-shot reading), or the model
        grounds it with confidence (its score clears ``named_threshold``): "what kind of film"
        names ``has genre`` in no word of its name. ``every``: words name each hop (the
        reading's alone: a likeness does not name the hop it adds)."""
        if self.reader is not None and self.reader.names(question, chain, every=every):
            return True
        return not every and bool(self.scores(question, [chain])[0] >= self.named_threshold)


def shipped_grounding() -> Path:
    """The grounding model kgcite ships (``kgcite train paths``'s recipe, int8 ONNX)."""
    from importlib import resources

    return Path(str(resources.files("kgcite") / "models" / "data" / "grounding"))


#: The settings file of a ``kgcite train paths`` bi-encoder export (threshold, length cost).
GROUNDING_FILE = "grounding.json"


def grounding_scorer(
    folder: Path, store: KGStore, reader: ZeroShotPathScorer | None = None, *, vectors: Path | None = None
) -> GroundingPathScorer:
    """The bi-encoder exported to ``folder`` (``model.onnx``, ``grounding.json``), over ``store``;
    ``vectors``: a SQLite file keeping its vectors for later processes (none: this one only)."""
    from kgcite.models.embed import CachedEmbedder, OnnxMiniLM
    from kgcite.models.vectors import DiskVectors

    settings = json.loads((folder / GROUNDING_FILE).read_text(encoding="utf-8"))
    max_length = int(settings.get("max_length", 48))
    encoder = OnnxMiniLM(folder / "model.onnx", max_length=max_length, label=folder.name)
    disk = None
    if vectors is not None:
        disk = DiskVectors.of_model(vectors, folder / "model.onnx", max_length=max_length)
    adapter = settings.get("adapter")
    return GroundingPathScorer(
        EmbeddingScorer(CachedEmbedder(encoder, disk=disk)),
        graph_examples(store),
        threshold=float(settings.get("threshold", 0.5)),
        length_cost=float(settings.get("length_cost", 0.0)),
        reader=reader,
        adapter=np.load(folder / adapter) if adapter else None,
        named_threshold=settings.get("named_threshold"),
        lexical_weight=float(settings.get("lexical_weight", 0.0)) if reader is not None else 0.0,
    )
