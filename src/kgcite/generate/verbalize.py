"""The template verbaliser: one plain sentence per triple, the value verbatim.

It is the floor of grounded generation (DESIGN.md §8): whatever an LLM makes of the facts, this
text is always available and always states exactly what it cites.
"""

from __future__ import annotations

from kgcite.kg.model import Triple

#: Relation → sentence pattern; ``{s}`` subject label, ``{o}`` value. Others: "{s}'s {r} is {o}."
TEMPLATES: dict[str, str] = {
    "place of birth": "{s} was born in {o}.",
    "place of death": "{s} died in {o}.",
    "date of birth": "{s} was born on {o}.",
    "date of death": "{s} died on {o}.",
    "place of burial": "{s} was buried at {o}.",
    "cause of death": "{s}'s cause of death was {o}.",
    "manner of death": "{s}'s manner of death was {o}.",
    "occupation": "{s} worked as a {o}.",
    "country of citizenship": "{s} was a citizen of {o}.",
    "alma mater": "{s} studied at {o}.",
    "educated at": "{s} studied at {o}.",
    "award received": "{s} received the {o}.",
    "member of": "{s} was a member of {o}.",
    "member of political party": "{s} was a member of the {o}.",
    "member of sports team": "{s} played for {o}.",
    "employer": "{s} worked for {o}.",
    "notable works": "{s}'s notable works include {o}.",
    "languages spoken": "{s} spoke {o}.",
    "native language": "{s}'s native language was {o}.",
    "participated in": "{s} participated in {o}.",
    "position held": "{s} held the position of {o}.",
    "noble family": "{s} belonged to the {o}.",
    "religion": "{s}'s religion was {o}.",
    "residence": "{s} lived in {o}.",
    "work location": "{s} worked in {o}.",
    "student of": "{s} was a student of {o}.",
    "influenced by": "{s} was influenced by {o}.",
    "instance of": "{s} is an instance of {o}.",
    "sex or gender": "{s}'s sex or gender is {o}.",
    "succeeded by": "{s} was succeeded by {o}.",
    "succeeds": "{s} succeeded {o}.",
    "conflict": "{s} took part in the {o}.",
    "nominated for": "{s} was nominated for the {o}.",
}


def verbalize(triple: Triple) -> str:
    """One sentence stating the triple, with the subject label and the value verbatim."""
    pattern = TEMPLATES.get(triple.relation)
    rel = triple.relation.replace("_", " ")
    if pattern is None:
        pattern = "{s}'s {r} is {o}." if not rel.endswith(("_by", " by", " of", " in", " at")) else "{s} {r} {o}."
    return pattern.format(s=triple.subject_label, r=rel, o=triple.object_value)
