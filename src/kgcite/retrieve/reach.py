"""How far from the topic a question's answer lies: where the topic sits inside a description of
something else the question goes on to ask about, the answer is at least two hops away.

"Who trains *the team X plays for*?" describes a team by X and asks who trains it: X's club is
the description, not the answer, however much alike a one-hop chain through ``plays for`` looks
to the model. So do "Name the musicians of *the band that recorded X*", "Which firm do *the
parents of X* work at?" and "What nation is *X's home city* in?". The reading is kept to word
patterns that say it plainly; anything else is ``"any"`` and a one-hop chain may answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Literal

from kgcite.text.lexicon import (
    ARTICLES,
    BE,
    DOER_AUXILIARIES,
    FRAMING,
    PEERS,
    PREPOSITIONS,
    QUESTION_WORDS,
    SHARE_VERBS,
    SHARING,
    STOP,
    opening_kind,
    participle,
    said_once,
)

if TYPE_CHECKING:
    from kgcite.retrieve.paths import Chain, Step

#: How far the answer lies: past a description the topic is part of, back from what the topic
#: shares with it, or anywhere.
Reach = Literal["beyond", "back", "any"]

#: Words that begin a relative clause after the noun it describes ("the town *where* X stands").
RELATIVE = frozenset(["that", "which", "where", "who", "whom", "whose"])
#: Nouns whose "of" names the thing itself, not something of it ("the *name* of the team X plays for").
SAME_THING = frozenset(["name", "names", "title", "titles", "kind", "type", "sort", "one", "ones", "list"])
#: Words a question may end on, left hanging by a description ("What town is the hub of X *near*?").
HANGING = PREPOSITIONS | frozenset(["near", "inside", "behind", "beside", "within", "across", "over"])
#: Imperatives that open a question ("*Name* the band that recorded X"): they govern nothing.
OPENERS = FRAMING | frozenset(["name", "list", "identify"])
#: Nouns for a part or an event of the topic itself ("Where was X's *body* buried?").
OWN_PARTS = frozenset(["body", "remains", "ashes", "funeral", "career", "life", "grave", "birth", "death"])
#: Words that say no relation nor anything asked ("*how* tall *is*", "*did* … *to* cook").
_FUNCTION = STOP | QUESTION_WORDS | PREPOSITIONS | BE | DOER_AUXILIARIES | OPENERS


def answer_reach(text: str, mention: str) -> Reach:
    """Whether the answer lies beyond a description holding the topic (``mention``, said once in
    ``text``):

    - the description is the object of a verb or a preposition of the question: "Who *trains*
      the team X plays for?", "Who plays *in* the group that made X?", "the musicians *of* the
      band that recorded X", "Who is the principal *of* X's school?";
    - or it is the subject of a question with "do" and a verb after it: "Which firm *do* the
      parents of X *work at*?", "What *does* X's farm *produce*?";
    - or the question ends in a preposition the description leaves hanging: "What nation is X's
      home city *in*?", "What town is the hub of X *near*?".

    "the film X" (X named by its kind), "What is the team X plays for?" (the description is the
    answer) and "the name of X's club" stay ``"any"``. "X's team-mates", "X's colleagues" are
    ``"back"`` (:func:`_peers`): the people reached out along a relation of X's and back along it.
    """
    found = said_once(text, mention)
    if found is None:
        return "any"
    words, start, end = found
    if _peers(words, start, end):
        return "back"
    span = _description(words, start, end)
    if span is None:
        return "any"
    if "else" in words[:start]:
        return "back"  # "What else did the writer of X write?": the writer's other works, not X
    first, last = span
    before = words[first - 1] if first > 0 else ""
    after = words[last:]
    owned = words[end : end + 1] == ["s"]
    # "X's doctorate" after a verb is often an event of X's own ("Who supervised X's doctorate?")
    if first >= 2 and _governs(words, first - 1) and (not owned or before in PREPOSITIONS):
        return "beyond"
    # "What does X's farm produce?": the verb after the owned noun ends the run of words
    if before in DOER_AUXILIARIES and (after or (owned and last - end > 2)):
        return "beyond"
    if len(after) == 1 and after[0] in HANGING:
        return "beyond"
    # "Where was the mentor of X born?", "When was X's school founded?": the description is the
    # subject of the participle the question ends on (an owned noun runs up to it)
    ending = after if after else words[last - 1 : last] if owned and last - end > 2 else []
    noun = words[end + 1 : last - (not after)] if owned else words[first + 1 : start - 1]
    if (
        before in BE
        and ending
        and participle(ending[0])
        and all(w in HANGING for w in ending[1:])
        and not set(noun) & OWN_PARTS
    ):
        return "beyond"
    return "any"


def _peers(words: Sequence[str], start: int, end: int) -> bool:
    """Whether the question asks for what shares a value with the topic (X at ``start:end``):
    "X's classmates", "the same school as X", "share a department with X"."""
    before = words[start - 1] if start >= 1 else ""
    return (
        any(w in PEERS for w in words[end:])
        or (before == "as" and "same" in words[: start - 1])
        or (before == "with" and any(w in SHARE_VERBS for w in words[: start - 1]))
    )


def asked_of_described(text: str, rest: Sequence[str], mention: str) -> str | None:
    """The question said of the thing it describes by the topic, that thing said "X" ("How tall
    is the founder of Quenby Bakery?" → "how tall is X"), where words no relation names
    (``rest``) ask something of it: the relations found then reach the thing, not the answer.
    None where the question describes nothing, or its unnamed words are all inside the
    description ("What is the motto of X?", "the *team* X plays for").

    The description is the one holding the topic ("the founder of X", "X's founder", "the garden
    where X is held", "the band that recorded X"), widened by each "the … of" before it whose
    words the relations name ("the head teacher of the school of X"), never over an unnamed word
    ("the *phone number* of the head teacher of X" asks the phone number of the head teacher)."""
    found = said_once(text, mention)
    unnamed = set(rest) - SAME_THING
    if found is None or not unnamed:
        return None
    words, start, end = found
    if start > 0 and words[start - 1] in ARTICLES:  # "the chair of *the* X Fellowship"
        start -= 1
        if end == len(words) - 1 and words[end] in unnamed and not set(words) & DOER_AUXILIARIES:
            end += 1  # "the release date of the X *film*": X named by its kind (not "… did the X marry")
    span = _description(words, start, end) or _noun_of(words, start, end)
    if span is None:
        return None
    first, last = span
    while (wider := _noun_of(words, first, last)) is not None and not unnamed & set(words[wider[0] : first]):
        first = wider[0]
    if (
        words[last : last + 1]
        and words[last] in BE
        and words[last + 1 : last + 2]
        and words[last + 1] in QUESTION_WORDS
    ):
        return None  # "the director of X was who …": the description is what is asked
    # the kind a question asks ("*Which university* did the founder of X attend?") is asked of it too
    kind = opening_kind(words)
    outside = [w for i, w in enumerate(words) if not first <= i < last and i != kind and w not in _FUNCTION]
    # every other word past the description unnamed: a relation named there ("which person
    # *wrote* the movies directed by the director of X") asks past it in the graph's terms; so do
    # siblings ("films that *share* the director of X")
    if not outside or not set(outside) <= unnamed or set(words) & (SHARING | PEERS):
        return None
    return " ".join([*words[:first], "X", *words[last:]])


def asks_a_noun(asked: str) -> bool:
    """Whether a question said of a thing (:func:`asked_of_described`) asks for it by a noun:
    "what is the phone number of X", as opposed to a verb ("who is in charge of X", "where did X
    learn to cook")."""
    words = asked.split()
    return (
        len(words) >= 5
        and words[0] in ("what", "which")
        and words[1] in BE
        and words[2] in ARTICLES
        and words[-2:] == ["of", "X"]
    )


def _noun_of(words: list[str], start: int, end: int) -> tuple[int, int] | None:
    """The span of "the <one to three nouns> of" and ``words[start:end]`` ("the head teacher of
    X"), or None."""
    if start < 3 or words[start - 1] != "of":
        return None
    first = start - 2
    while first > start - 5 and _noun(words, first) and words[first] not in ARTICLES:
        first -= 1
    if first == start - 2 or first < 0 or words[first] not in ARTICLES:
        return None
    return first, end


def with_described(text: str, mention: str, stand_in: str) -> str | None:
    """The question with the description holding the topic said as ``stand_in`` ("Who taught
    the conductor of X?" → "Who taught Y?"), or None where no description holds it: how the
    question speaks of what the description reaches, for the next relation walked from it."""
    found = said_once(text, mention)
    span = None if found is None else _description(*found)
    if found is None or span is None:
        return None
    words, _, end = found
    first, last = span
    if words[end : end + 1] == ["s"] and last == len(words) and last - end > 2:
        last = end + 2  # "Where was X's mentor born?": the owned noun, then the question's verb
    return " ".join([*words[:first], stand_in.lower(), *words[last:]])


def _description(words: list[str], start: int, end: int) -> tuple[int, int] | None:
    """The span ``[first, last)`` of a noun phrase that describes another thing by the topic
    (``words[start:end]``), or None:

    - "X's home city": the topic owns a noun (up to the next function word);
    - "the parents of X": a noun of the topic;
    - "the team X plays for", "the town where X stands": a noun, then a clause whose subject is X
      (a word that is no function word after X: "the film X" alone names X by its kind);
    - "the band that recorded X", "the farm run by X", "the films acted by X": a noun, then a
      clause whose object is X.
    """
    if words[end : end + 1] == ["s"] and end + 1 < len(words) and words[end + 1] not in STOP | QUESTION_WORDS:
        last = end + 1
        while last < len(words) and words[last] not in STOP | QUESTION_WORDS | HANGING:
            last += 1
        return start - (start > 0 and words[start - 1] in ARTICLES), last
    if start >= 3 and words[start - 1] == "of" and _noun(words, start - 2) and words[start - 3] in ARTICLES:
        return start - 3, end
    relative = start >= 1 and words[start - 1] in RELATIVE - {"whose"}
    head = start - 1 - relative
    after = words[end : end + 1]
    clause = bool(after) and (relative or after[0] not in STOP)  # "where X was first performed"
    if head >= 1 and _noun(words, head) and words[head - 1] in ARTICLES and clause:
        return head - 1, len(words)  # "the team X plays for": the clause runs to the question's end
    # "the band that recorded X", "the farm run by X", "the films acted by X"
    by = start >= 1 and words[start - 1] == "by"
    verb = start - 1 - by
    relative = verb >= 1 and words[verb - 1] in RELATIVE - {"whose", "where"}
    noun = verb - 1 - relative
    # a verb it plainly is: after "that", before "by", or "-ing"/"-ed" ("the search dog X" is X)
    plain = by or relative or (verb >= 0 and words[verb].endswith(("ing", "ed")))
    if plain and words[verb] not in STOP and noun >= 1 and _noun(words, noun) and words[noun - 1] in ARTICLES:
        return noun - 1, end
    return None


def _noun(words: list[str], i: int) -> bool:
    """A word that may name a thing (no function, question or framing word)."""
    return 0 <= i < len(words) and words[i] not in STOP | QUESTION_WORDS | PREPOSITIONS | BE | DOER_AUXILIARIES


def _governs(words: list[str], i: int) -> bool:
    """Whether ``words[i]``, right before a description, makes it the object of a verb or a
    preposition of the question: a preposition (but not the "of" of "the name of"), or a word
    that is neither a function word nor a question's opening ("Who *trains* the team …", not
    "What *is* the team …", "*Name* the band …")."""
    w = words[i]
    if w in PREPOSITIONS:
        return w != "of" or (i >= 1 and words[i - 1] not in SAME_THING)
    return i >= 1 and w not in STOP | QUESTION_WORDS | BE | DOER_AUXILIARIES | OPENERS | RELATIVE


def reaches(chain: Chain, reach: Reach) -> bool:
    """Whether a chain can answer a question read as ``reach``: two hops or more past a
    description, out and back along one relation for a peer, anything otherwise."""
    if reach == "beyond":
        return len(chain) >= 2
    if reach == "back":
        return any(walks_back(a, b) for a, b in pairwise(chain))
    return True


def walks_back(a: Step, b: Step) -> bool:
    """Whether step ``b`` walks ``a``'s relation back (X → school, school → its other pupils)."""
    return a.relation == b.relation and a.inverse != b.inverse
