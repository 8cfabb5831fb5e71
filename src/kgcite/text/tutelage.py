"""Teaching and learning: which end of a mentor relation a question asks for.

Graphs name one bond in many ways (``mentored_by``, ``TRAINED_UNDER``, ``apprenticed to``,
``coach``, ``students``, ``mentor of``) and people ask it in others ("Whom did X train?", "Who
were the pupils of X?", "Who learned the trade from X?"). Two facts settle every case: which end
of the relation is the teacher (:func:`~kgcite.text.lexicon.teacher_end`, from its name) and
which one the question asks for (:func:`asked_role`, from its words). A hop along such a
relation is walked towards the end asked for, at any depth: "Which expeditions did the *pupils*
of X lead?" walks from X to those who learned from X.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from kgcite.text.hops import Hop
from kgcite.text.lexicon import (
    ARTICLES,
    BE,
    DOER_AUXILIARIES,
    LEARNER_AFTER,
    LEARNERS,
    LEARNING,
    SHARING,
    TEACHERS,
    TEACHING,
    TUTELAGE,
    teacher_end,
)

Role = Literal["teacher", "learner"]


#: Words before a noun that is also a verb ("the *mentor*", "X's *coach*", "as *mentor*").
_NOUN_BEFORE = frozenset(["the", "a", "an", "s", "own", "whose", "his", "her", "their", "its", "as"])
#: Words that stand between a teaching word and whom it is said of ("the pupils *of* X", "X*'s*
#: mentor", "*did* X train", "trained *under* X").
_BETWEEN = ARTICLES | DOER_AUXILIARIES | BE | LEARNER_AFTER | {"of", "s", "own"}
#: Nouns of the learning itself, done by a verb's subject ("served an *apprenticeship* with X").
_DONE = frozenset(["apprenticeship", "training"])
#: Words that stand for what the question asks, as a verb's subject ("*who* trained", "the vet *who* mentored").
_ASKING = frozenset(["who", "which", "what", "that", "whose"])


def _noun(said: list[str], i: int) -> bool:
    """Whether a word that is a noun and a verb ("mentor", "coach") is the noun here."""
    before = said[i - 1] if i else ""
    after = said[i + 1] if i + 1 < len(said) else ""
    return before in _NOUN_BEFORE or after in ("of", "s") or said[i] not in TEACHING


def _asker_does(said: list[str], i: int) -> bool | None:
    """Whether the verb at ``i`` is done by what the question asks for ("*Who* trained X?",
    "the vet *who* mentored X": True), by something else ("Whom *did* X train?": False), or the
    words do not say (None)."""
    for k in range(i - 1, max(-1, i - 6), -1):
        if said[k] in DOER_AUXILIARIES:
            return False
        if said[k] in _ASKING:
            # "the archaeologists *that* Hedda trained": a subject between, the relative is its object
            between = [w for w in said[k + 1 : i] if w not in BE | SHARING]
            done = said[i] in _DONE  # "Who served an apprenticeship": the asker's own
            return done or not (said[k] in ("who", "that") and between)
    return None


def _place_verb(said: list[str], i: int) -> bool:
    """Whether the teaching verb at ``i`` asks where ("Where does X *teach*?", "At which school
    does X *teach*?", "Which hall does X *train* at?"): it has no object, and the question asks a place."""
    bare = i + 1 == len(said) or said[i + 1] in ("at", "in")
    return bare and ("where" in said or said[0] in ("at", "in") or said[-1] in ("at", "in"))


def asks_place(said: list[str]) -> bool:
    """Whether a teaching verb of the question asks a place, not a person (:func:`_place_verb`)."""
    return any(_place_verb(said, i) for i, w in enumerate(said) if w in TEACHING or w in LEARNING)


def asked_role(said: list[str]) -> Role | None:
    """Which end of a teaching bond the question's words (normalised) ask for: the teacher
    ("X's mentor", "Who trained X?", "Who did X learn from?") or the learner ("X's pupils",
    "Whom did X train?", "Who trained under X?"); None where the words say neither or both, or
    ask for X's peers ("Who *else* trained under X's teacher?": there and back)."""
    if SHARING & set(said):
        return None
    votes: set[Role] = set()
    for i, w in enumerate(said):
        after = said[i + 1] if i + 1 < len(said) else ""
        # "X's *adviser*" says which end, though it names only `doctoral advisor`; "studied *under* X"
        if w not in TUTELAGE and w not in TEACHERS and not (w == "studied" and after in LEARNER_AFTER):
            continue
        if (w in TEACHERS or w in LEARNERS) and _noun(said, i):
            role: Role = "teacher" if w in TEACHERS else "learner"
            # "with X as mentor": X is the teacher given; "*Whose* mentor is X?": the learner asked;
            # "Who was X a student *of*?": the "of" asks the other end
            given = (i and said[i - 1] in ("as", "whose")) or (after == "of" and i + 2 == len(said))
            votes.add(_other(role) if given else role)
            continue
        if after == "by" and i + 2 == len(said):  # "Who was X trained by?": the one asked did it
            votes.add("teacher")
            continue
        if _place_verb(said, i):
            continue  # "Where does X teach?": no one is asked by the verb
        learns = w in LEARNING or w == "studied" or after in LEARNER_AFTER or (i > 0 and said[i - 1] in BE)
        asker = _asker_does(said, i)
        if asker is None:
            continue
        doer: Role = "learner" if learns else "teacher"
        votes.add(doer if asker else _other(doer))
    return next(iter(votes)) if len(votes) == 1 else None


def said_of(said: list[str], start: int, stop: int) -> bool:
    """Whether a word of teaching is said of the words ``said[start:stop]`` (an entity's name):
    next to it ("X's *mentor*", "*pupils* of X", "did X *train*", "*trained* X") or across a
    preposition of learning ("*learned* the trade *from* X", "an *apprenticeship* with X"); not
    across another thing ("Who *coaches* the owner of X?")."""
    before = [w for w in said[max(0, start - 4) : start] if w not in _BETWEEN]
    after = [w for w in said[stop : stop + 3] if w not in _BETWEEN]
    near = (before[-1:] if before else []) + (after[:1] if after else [])
    if any(w in TUTELAGE for w in near):
        return True
    # "learned the trade from X": a learning word, one noun, then a preposition of learning
    window = said[max(0, start - 4) : start]
    return len(window) >= 2 and window[-1] in LEARNER_AFTER and any(w in TUTELAGE for w in window[:-1])


def _other(role: Role) -> Role:
    return "learner" if role == "teacher" else "teacher"


def walks_toward(relation: str, inverse: bool, role: Role) -> bool | None:
    """Whether a step along ``relation`` (backwards when ``inverse``) reaches the ``role`` end;
    None for a relation that is no teaching bond."""
    end = teacher_end(relation)
    if end is None:
        return None
    reaches_teacher = end == ("subject" if inverse else "object")
    return reaches_teacher == (role == "teacher")


def wrong_way(chain: Sequence[Hop], role: Role) -> bool:
    """Whether a chain walks a teaching bond away from the ``role`` asked for."""
    return any(walks_toward(s.relation, s.inverse, role) is False for s in chain)
