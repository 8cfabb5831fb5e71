"""Which end of an asked relation the question's topic stands at.

"Who coaches Lucia Fenn?" asks for Lucia's coach: over ``coached_by`` she is the subject, and
"Ida Varga was coached by Lucia Fenn" answers another question ("Whom does Lucia Fenn coach?").
The one-hop lookup states a relation's facts either way round, which is right where the question
does not say ("What did Spielberg direct?" is read from the films directed by him); where its
words do say, the facts the other way round are no answer. The reading is kept to word patterns
that say it plainly; anything else is ``"either"`` and both ways stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from kgcite.kg.keys import relation_words
from kgcite.kg.model import Subgraph, Triple
from kgcite.text import tutelage
from kgcite.text.lexicon import (
    ARTICLES,
    BE,
    DOER_AUXILIARIES,
    IRREGULAR_PAST,
    PREPOSITIONS,
    QUESTION_WORDS,
    SHARING,
    STOP,
    SYMMETRIC,
    counterpart,
    question_phrases,
    said_once,
    stem,
    teacher_end,
)
from kgcite.text.values import normalize

#: Where the topic stands in the relation's triples: as subject, as object, or not said.
Side = Literal["subject", "object", "either"]


def topic_side(text: str, mention: str, relation: str) -> Side:
    """The side of ``relation`` the topic (``mention``, said once in ``text``) is on.

    - "member of X", "born in X", "coached by X", "reports to X": the relation's own words, then
      the topic: object; "Who is X coached by?", "Who does X report to?": subject.
    - A relation named by a noun, or in the passive (``coached_by``, ``ownedBy``: its subject
      undergoes the verb): "X's children", "the owner of X", "X's coach": subject; "X's
      trainees" over ``trainedBy``: object.
    - In the passive, besides: "Who coaches X?": subject; "Whom does X coach?", "What did X
      design?": X does it, object.
    - Where the topic names another thing's ("the films directed by X *writers*") or is no end
      of the relation ("the *co*-directors of X"): either.
    """
    found = said_once(text, mention)
    name = normalize(relation_words(relation)).split()
    if found is None or not name:
        return "either"
    taught = _taught_side(*found, relation)
    if taught is not None:
        return taught
    words, start, end = found
    before = start - 1 - (start > 0 and words[start - 1] in ARTICLES)  # the word before "the X"
    after = words[end:]
    by = name[-1] if len(name) > 1 and name[-1] in PREPOSITIONS else None
    head = stem(name[-2] if by else name[-1])

    forms = {stem(f) for f in question_phrases(relation) if " " not in f}  # "children": child; "author"

    def head_at(i: int) -> bool:
        w = words[i] if 0 <= i < len(words) else ""
        return bool(w) and (stem(w) in forms | {head} or (w.endswith("s") and stem(w[:-1]) == head))  # "owns"

    if after[:1] == ["s"]:  # "X's coach", "X's children"; "X's hull" says nothing of X's side
        return _owned(words[end + 1 : end + 2], by, acts(name)) if head_at(end + 1) else "either"
    doer_before = before >= 0 and words[before] in DOER_AUXILIARIES
    # "the people X trained"; not "the films directed by the X *director*" (X names a person)
    clause = head_at(end) and _inflected(after[0]) and not _agent(after[0]) and not after[1:2] and by == "by"
    verb_after = head_at(end) and (after[1:2] == [by] or doer_before) or clause
    if after and after[0] not in STOP | QUESTION_WORDS and not verb_after:
        return "either"  # "the films directed by X *writers*": X names something else's
    ahead = before - 1 - head_at(before - 1)  # the word before "directors of X", "actor of X"
    if before >= 1 and ahead >= 0 and words[ahead] in SHARING:
        return "either"  # "the co-directors of X", "the same actor of X": X is no end of it
    if by and before >= 1 and words[before] == by and head_at(before - 1):
        if counterpart(relation, words[before - 1]):
            return "subject"  # "the doctor of X": X is the ``patient of`` her
        return "object"  # "the members of X", "boats designed by X", "Who reports to X?"
    if by and len(after) >= 2 and head_at(end) and after[1] == by:
        return "subject"  # "Who is X coached by?", "Who does X report to?"
    if by not in (None, "by"):
        return "either"
    if before >= 1 and words[before] == "of" and head_at(before - 1):
        return _owned(words[before - 1 : before], by, acts(name))  # "the owner of X", "the children of X"
    if by is None:
        return _done_to(words, before, end, head_at) if acts(name) else "either"
    if doer_before and head_at(end):
        return "object"  # "Whom does X coach?"
    if clause:  # "Where was X trained?" undergoes it; "the people X trained" does it
        return "subject" if before >= 0 and words[before] in BE else "object"
    if head_at(before) and _inflected(words[before]) and (before == 0 or words[before - 1] not in ARTICLES):
        return "subject"  # "Who coaches X?", "Who designed the X?" (not "have become direct X")
    return "either"


def _taught_side(words: list[str], start: int, stop: int, relation: str) -> Side | None:
    """The topic's side of a teaching bond: the end the question does not ask for ("Whom did X
    train?" over ``mentored_by``: X is the mentor, the object); None for any other relation, or
    where the teaching is said of another thing ("Who coaches the *owner* of X?")."""
    end = teacher_end(relation)
    if end is None or not tutelage.said_of(words, start, stop):
        return None
    role = tutelage.asked_role(words)
    if role is None:
        return None
    return end if role == "learner" else ("subject" if end == "object" else "object")  # the end not asked


def acts(name: list[str]) -> bool:
    """Whether a relation's name is one verb its subject does to its object (``taught``,
    ``founded``), not a state both share (``married``)."""
    return len(name) == 1 and (name[0].endswith("ed") or name[0] in IRREGULAR_PAST) and name[0] not in SYMMETRIC


def _done_to(words: list[str], before: int, end: int, head_at: Callable[[int], bool]) -> Side:
    """The topic's side of a relation named by what its subject does (``taught``): "Who taught
    X?" asks who did it to X (object); "Whom did X teach?" and "Who was taught by X?" what X did
    (subject)."""
    if before >= 0 and words[before] in DOER_AUXILIARIES and head_at(end):
        return "subject"
    if before >= 1 and words[before] == "by" and head_at(before - 1):
        return "subject"
    if head_at(before):
        return "object"
    return "either"


def _owned(noun: list[str], by: str | None, done: bool = False) -> Side:
    """The topic's side where it owns the noun ("X's coach", "the trainees of X"): the subject,
    but the object where a ``… by`` relation's noun names who undergoes it ("X's *trainees*"
    over ``trainedBy`` are those X trained), or where a relation named by what its subject did
    (``done``) is said by its doer ("X's *teacher*" over ``taught`` taught X)."""
    if done:
        return "object" if noun and _agent(noun[0]) else "either"
    return "object" if by == "by" and noun and noun[0].endswith(("ee", "ees")) else "subject"


def _inflected(word: str) -> bool:
    """A verb's finite form ("coaches", "designed", "wrote"), not its bare one ("direct")."""
    return word.endswith(("s", "ed")) or stem(word) != word


def _agent(word: str) -> bool:
    """A noun for who does a verb ("director", "writers"), not the verb itself."""
    return word.endswith(("or", "er", "ors", "ers"))


def asked_side(text: str, mention: str, relation: str, *, own_facts: bool) -> Side:
    """:func:`topic_side`, for a topic that has facts of its own (``own_facts``). One that is
    only ever a value (a person in MetaQA's film graph) is asked about by what points at it,
    whatever the words seem to say ("Which film has written X": X wrote it)."""
    return topic_side(text, mention, relation) if own_facts else "either"


def goes_as_said(text: str, mention: str, relation: str, inverse: bool, *, own_facts: bool = True) -> bool:
    """Whether a step from the topic along ``relation`` (backwards when ``inverse``) goes the
    way the question says, or it does not say: "Who coaches X?" is not walked from X backwards
    along ``coached_by``."""
    side = asked_side(text, mention, relation, own_facts=own_facts)
    return side == "either" or (side == "object") == inverse


def has_own_facts(graph: Subgraph, entity_id: str) -> bool:
    """Whether the entity is the subject of a fact (not only ever a value): :func:`asked_side`."""
    return any(t.subject_id == entity_id and not t.is_label for t in graph.triples)


def as_asked(triple: Triple, entity_id: str, side: Side) -> bool:
    """Whether one of the topic's triples stands the way the question asks: the topic as its
    subject, as its object, or either."""
    return side == "either" or (side == "subject") == (triple.subject_id == entity_id)
