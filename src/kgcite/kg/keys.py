"""The one form in which property names are compared, on every side that compares.

Graphs, models and people spell one property several ways: BioKaLMA itself has ``place of birth``
next to ``date_of_birth``, a model writes ``Date of Birth``, MetaQA writes ``directed_by``. The
metrics, the citation parser, the builders and the ablations all compare through
:func:`property_key`, so no spelling decides whether a citation counts. Display keeps the
spelling it was given; values compare exactly after trimming, as in the KaLMA paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

#: A triple reduced to what a KaLMA citation can name: (entity id, relation label, value).
TripleKey = tuple[str, str, str]

#: The property under which BioKaLMA JSON gives an entity's label; the label is citable knowledge.
LABEL_PROPERTY = "name"


#: Where an identifier's words meet: ``birthDate``, ``cityOfHQ``, ``HQCity``.
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})")
#: A prefixed name (``schema:birthDate``), not a URI.
_PREFIXED = re.compile(r"[A-Za-z][\w-]*:[^/:]+")


#: Short forms people write in relation names, read as the words they stand for (``built_yr`` is
#: "built year", ``dob`` "date of birth"): only those a relation name rarely means otherwise.
ABBREVIATIONS: dict[str, str] = {
    "yr": "year",
    "yrs": "years",
    "est": "established",
    "estd": "established",
    "dob": "date of birth",
    "dod": "date of death",
    "pob": "place of birth",
    "bday": "birthday",
    "pos": "position",
    "qty": "quantity",
    "amt": "amount",
    "num": "number",
    "cnt": "count",
    "pct": "percentage",
    "pop": "population",
    "dept": "department",
    "org": "organisation",
    "mgr": "manager",
    "mgmt": "management",
    "admin": "administrator",
    "asst": "assistant",
    "capt": "captain",
    "pres": "president",
    "vp": "vice president",
    "addr": "address",
    "tel": "telephone",
    "lang": "language",
    "ctry": "country",
    "cntry": "country",
    "loc": "location",
    "elev": "elevation",
    "ht": "height",
    "wt": "weight",
    "len": "length",
    "dur": "duration",
    "cap": "capacity",
    "desc": "description",
    "univ": "university",
    "inst": "institution",
    "assoc": "association",
    "govt": "government",
    "mfr": "manufacturer",
    "obj": "object",
    "coll": "collection",
    "natl": "national",
    "intl": "international",
}
#: Last parts of a dotted name that say only what kind of value it holds (``org.founded.year``).
VALUE_PARTS = frozenset(["year", "date", "day", "time", "number", "count", "total", "value", "amount"])
#: Short forms that, first in a name, count what follows (``num_seats``: the number of seats).
COUNT_PREFIXES = frozenset(["num", "cnt"])


@cache
def relation_words(relation: str) -> str:
    """A relation's name as the words a person reads: the one reader of identifiers, on every
    side (judge, templates, scorers, linking of relation words, CAQA text, comparison keys).

    ``writtenBy`` → ``written by``, ``PublicationYear`` → ``publication year``, ``cityOfHQ`` →
    ``city of HQ``, ``MEMBER_OF`` → ``member of``, ``directed_by`` → ``directed by``,
    ``http://ex.org/bornIn`` and ``schema:birthDate`` by their local name, dotted and Freebase
    paths (``people.person.place_of_birth``, ``__people__person__place_of_birth``) by their last
    part, with the one before it where the last of three or more says only a kind of value
    (``org.founded.year``; ``rescue.year`` is a rescue's year). A name with spaces is a label
    already and keeps its words (``_`` read as a space).
    Acronyms inside a name keep their case; a name all in capitals is read in lower case (but
    one word of up to five letters, ``ISBN``, is an acronym); a short
    form a person writes (:data:`ABBREVIATIONS`: ``est_year``, ``dob``) is read as its words."""
    name = relation.strip()
    if " " not in name:
        if "://" in name or name.startswith("urn:"):
            name = re.split(r"[/#:]", name.rstrip("/#"))[-1] or name
        elif _PREFIXED.fullmatch(name):
            name = name.split(":", 1)[1]
        parts = [p for p in re.split(r"__|\.", name) if p]
        if len(parts) >= 2:
            # ``org.founded.year``: a last part that says only a kind of value keeps the part before
            # it, where that is no type the first part names (``rescue.year``: a rescue's year)
            kind_only = len(parts) >= 3 and parts[-1].casefold() in VALUE_PARTS
            name = f"{parts[-2]}_{parts[-1]}" if kind_only else parts[-1]
        words = [w for w in _CAMEL.sub(" ", name.replace("_", " ").replace("-", " ")).split() if w]
        # ``MEMBER_OF``, ``ACCOMPANIST``: a name in capitals (one short word, ``ISBN``, is an acronym)
        shouting = all(w.isupper() for w in words if w.isalpha()) and (len(words) > 1 or len(name) >= 6)
        name = " ".join(w.lower() if shouting or w[1:].islower() else w for w in words)
    said = name.replace("_", " ").split()
    if len(said) > 1 and said[0].casefold() in COUNT_PREFIXES:
        said[0] = "number of"
    return " ".join(ABBREVIATIONS.get(w.casefold(), w) for w in said) or relation


@cache
def property_key(name: str) -> str:
    """The comparable form of a property name: its words (:func:`relation_words`) case-folded, so
    ``Date_of  Birth ``, ``dateOfBirth`` and ``date of birth`` are one key."""
    return relation_words(name).casefold()


def canonical_key(key: TripleKey) -> TripleKey:
    """The comparable form of a triple: id and value trimmed, the property canonical."""
    entity_id, prop, value = key
    return (entity_id.strip(), property_key(prop), value.strip())


def canonical_keys(keys: Iterable[TripleKey]) -> frozenset[TripleKey]:
    return frozenset(canonical_key(k) for k in keys)
