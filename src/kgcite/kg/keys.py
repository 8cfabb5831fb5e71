"""The one form in which property names are compared, on every side that compares.

Graphs, models and people spell one property several ways: BioKaLMA itself has ``place of birth``
next to ``date_of_birth``, a model writes ``Date of Birth``, MetaQA writes ``directed_by``. The
metrics, the citation parser, the builders and the ablations all compare through
:func:`property_key`, so no spelling decides whether a citation counts. Display keeps the
spelling it was given; values compare exactly after trimming, as in the KaLMA paper.
"""

from __future__ import annotations

from collections.abc import Iterable

#: A triple reduced to what a KaLMA citation can name: (entity id, relation label, value).
TripleKey = tuple[str, str, str]

#: The property under which BioKaLMA JSON gives an entity's label; the label is citable knowledge.
LABEL_PROPERTY = "name"


def property_key(name: str) -> str:
    """``Date_of  Birth `` → ``date of birth``: case-folded, ``_`` and whitespace runs to one space, trimmed."""
    return " ".join(name.replace("_", " ").split()).casefold()


def canonical_key(key: TripleKey) -> TripleKey:
    """The comparable form of a triple: id and value trimmed, the property canonical."""
    entity_id, prop, value = key
    return (entity_id.strip(), property_key(prop), value.strip())


def canonical_keys(keys: Iterable[TripleKey]) -> frozenset[TripleKey]:
    return frozenset(canonical_key(k) for k in keys)
