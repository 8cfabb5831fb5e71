"""Places inside places: which rank of place a question asks for, and which hops climb to it.

"Which *county* is X in?" asks for a rank of place. Graphs say ranks in their relations' names
(``county``, ``town.region``, ``IN_COUNTRY``) or not at all (``LOCATED_IN``, ``part of``), and
reach the first place from things that are not places (``grown at``, ``born in``, ``hall.town``).
Three facts settle a chain: the rank asked (:func:`asked_rank`), the rank a relation reaches by
its name (:func:`rank_reached`), and whether a hop reaches a place at all (:func:`reaches_place`)
or only climbs from one place to a larger one (:func:`climbs`).
"""

from __future__ import annotations

from functools import cache

from kgcite.kg.keys import property_key
from kgcite.text.hops import Hop
from kgcite.text.lexicon import LOCATING, PLACE_RANKS, PLACING, RANK_ORDER, SAME_RANK, SETTLEMENTS, TOP_RANKS


def rank_at(said: list[str]) -> int | None:
    """Where the question says the rank of place it asks for: the rank word right after its
    first "which" or "what" ("*Which county* is X in?", "In *what region* …"), else None."""
    for i, w in enumerate(said[:-1]):
        if w in ("which", "what"):
            return i + 1 if said[i + 1] in PLACE_RANKS else None
    return None


def asked_rank(said: list[str]) -> str | None:
    """The rank of place the question asks for (:func:`rank_at`), one word a rank
    (:data:`~kgcite.text.lexicon.SAME_RANK`: a nation is a country)."""
    at = rank_at(said)
    return None if at is None else SAME_RANK.get(said[at], said[at])


@cache
def rank_reached(relation: str) -> str | None:
    """The rank of place a relation's name says it reaches: its last rank word, or a home or
    birth one (``town.region`` reaches a region, ``hall.town`` and ``HOMETOWN`` a town,
    ``IN_COUNTRY`` a country; ``arena.capacity`` no city), else None."""
    ranks = [r for w in property_key(relation).split() for r in PLACE_RANKS if w == r or w in (f"home{r}", f"birth{r}")]
    return SAME_RANK.get(ranks[-1], ranks[-1]) if ranks else None


@cache
def climbs(relation: str) -> bool:
    """Whether the relation places a place in a larger one and names no rank (``LOCATED_IN``,
    ``part of``, ``situated in``): its end is whatever rank the question asks."""
    key = set(property_key(relation).split())
    return bool(key) and key <= LOCATING and not key & PLACE_RANKS


@cache
def reaches_place(relation: str) -> bool:
    """Whether a relation's name says that it reaches a place (``grown at``, ``birthplace``,
    ``launched from``, ``home city``): what is asked "Which region is X from?" lies there."""
    key = property_key(relation).split()
    return bool(key) and (key[-1] in ("at", "in", "from") or bool(set(key) & PLACING))


def short_of(hop: Hop, rank: str, *, larger: bool, within: bool = False) -> bool:
    """Whether a chain that ends on ``hop`` stops short of the ``rank`` asked: its name says
    another rank (``town`` for a county), or says none while the places it reaches lie in
    ``larger`` ones (``born in`` for "Which country …"), or lie ``within`` places of the rank
    asked or smaller (``based in`` reaches towns that have a county: no region). A rank nothing
    is inside of (:data:`~kgcite.text.lexicon.TOP_RANKS`) is reached only where the climb ends.
    Walked backwards, a relation whose name says nothing of place reaches no place at all
    ("reverse of sister station" is a station)."""
    if hop.inverse:
        return not names_place(hop.relation)
    reached = rank_reached(hop.relation)
    if reached is not None:
        return reached != rank
    return within or (larger and (not climbs(hop.relation) or rank in TOP_RANKS))


def names_place(relation: str) -> bool:
    """Whether a relation's name says anything of place: a rank, a climb or a place reached."""
    return rank_reached(relation) is not None or climbs(relation) or reaches_place(relation)


def no_larger(rank: str) -> frozenset[str]:
    """The ranks a place of ``rank`` never lies in: itself and those smaller (a county lies in
    no town and in no other county)."""
    size = RANK_ORDER.get(rank)
    return frozenset(r for r, s in RANK_ORDER.items() if size is not None and s <= size)


def strict(rank: str) -> bool:
    """Whether a chain that stops short of ``rank`` answers nothing, rather than ranking lower:
    a county, a region or a country is what a graph names as one ("In which county was X born?"
    is not answered by a village whose county the graph lacks), while a town is asked loosely
    (:data:`~kgcite.text.lexicon.SETTLEMENTS`)."""
    return rank not in SETTLEMENTS
