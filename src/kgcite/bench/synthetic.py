"""Random graphs with plausible labels and relation names, for training graph-agnostic models.

An evaluator trained on one graph learns that graph's relations ("directed by", "starred
actors") instead of reading its citations. Each synthetic graph draws its own relation names
(real-sounding ones and invented words in the grammatical forms graphs use: nouns, "noun of",
"participle by", verbs), its own entity names (invented syllables), and its own spelling style
(``home town`` or ``home_town``; ``Vask Orly`` or ``vask_orly``). Deterministic for a seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kgcite.kg.model import Triple

KINDS = ("person", "place", "organisation", "work", "concept")
_ONSETS = [
    "b",
    "br",
    "c",
    "ch",
    "d",
    "dr",
    "f",
    "g",
    "gr",
    "h",
    "j",
    "k",
    "kl",
    "l",
    "m",
    "n",
    "p",
    "pr",
    "r",
    "s",
    "sh",
    "st",
    "t",
    "th",
    "tr",
    "v",
    "w",
    "z",
]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "ou", "ie", "y"]
_CODAS = ["", "", "n", "r", "l", "s", "th", "nd", "rk", "m", "x", "ck", "ll"]
_PLACE_TAILS = ["", "", " Hill", " Ford", "mouth", "ton", " Harbour", "wick", " Cross", "dale"]
_ORG_TAILS = [" Company", " Institute", " Guild", " Press", " Bank", " Works", " Society", " Trust", " Records"]
_ADJECTIVES = [
    "Silent",
    "Grey",
    "Last",
    "Hollow",
    "Bright",
    "Distant",
    "Iron",
    "Northern",
    "Quiet",
    "Burning",
    "Salt",
    "Paper",
    "Winter",
]
_NOUNS = [
    "Harbour",
    "Lantern",
    "Orchard",
    "River",
    "Crown",
    "Letter",
    "Garden",
    "Tide",
    "Mirror",
    "Bridge",
    "Ember",
    "Voyage",
    "Signal",
]
_CONCEPTS = [
    "folk",
    "baroque",
    "maritime",
    "satire",
    "pastoral",
    "lattice",
    "minimal",
    "gothic",
    "civic",
    "rural",
    "tidal",
    "lunar",
    "agrarian",
    "modular",
    "coastal",
    "nocturnal",
]

#: Relation names by (subject kind, object kind): real-sounding ones in each grammatical form.
_RELATIONS: dict[tuple[str, str], list[str]] = {
    ("person", "person"): ["mentor", "rival", "patron", "guardian", "partner", "heir", "mentor of", "rival of"],
    ("person", "place"): ["home town", "birthplace", "residence", "place of rest", "born in", "lives in"],
    ("person", "organisation"): ["employer", "affiliation", "club", "works for", "founded", "joined"],
    ("person", "concept"): ["field", "school of thought", "speciality"],
    ("organisation", "place"): ["headquarters", "seat", "home port", "located in", "based in"],
    ("organisation", "person"): ["founder", "chair", "treasurer", "led by", "funded by"],
    ("work", "person"): ["author", "composer", "illustrator", "illustrated by", "edited by", "narrated by"],
    ("work", "concept"): ["theme", "genre", "style", "motif"],
    ("work", "organisation"): ["publisher", "published by", "commissioned by"],
    ("place", "place"): ["twin town", "capital", "region", "neighbour of"],
    ("person", "work"): ["wrote", "composed", "painted", "notable works"],
}
_DATES = {"person": "date of birth", "organisation": "founding date", "work": "release date", "place": "charter date"}
_NONCE_FORMS = ["{w}", "{w} of", "{w}ed by", "{w}s"]


def _word(rng: random.Random, syllables: int) -> str:
    return "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables))


def _name(rng: random.Random, kind: str) -> str:
    base = _word(rng, rng.choice((1, 2, 2, 3))).capitalize()
    if kind == "person":
        return f"{base} {_word(rng, rng.choice((2, 2, 3))).capitalize()}"
    if kind == "place":
        return base + rng.choice(_PLACE_TAILS)
    if kind == "organisation":
        return base + rng.choice(_ORG_TAILS)
    if kind == "work":
        return rng.choice([f"The {rng.choice(_ADJECTIVES)} {rng.choice(_NOUNS)}", f"{base} {rng.choice(_NOUNS)}"])
    return rng.choice(_CONCEPTS) if rng.random() < 0.5 else _word(rng, 2)


@dataclass(frozen=True)
class SyntheticConfig:
    entities: int = 600
    relations: int = 18
    nonce_share: float = 0.3  # relations named by invented words
    density: float = 0.6  # chance that an entity of a relation's subject kind has it


def synthetic_graph(seed: int, config: SyntheticConfig = SyntheticConfig()) -> list[Triple]:
    """A random graph: entities of five kinds, relations drawn for this graph, one or two values each."""
    rng = random.Random(f"synthetic:{seed}")
    snake_relations, id_labels = rng.random() < 0.5, rng.random() < 0.3
    kinds = [rng.choice(KINDS) for _ in range(config.entities)]
    by_kind: dict[str, list[str]] = {k: [] for k in KINDS}
    labels: dict[str, str] = {}
    for i, kind in enumerate(kinds):
        eid = f"S{seed}E{i}"
        label = _name(rng, kind)
        labels[eid] = label.lower().replace(" ", "_") if id_labels and kind != "concept" else label
        by_kind[kind].append(eid)
    pairs = sorted(_RELATIONS)
    relations: list[tuple[str, str, str]] = []
    names: set[str] = set()
    while len(relations) < config.relations:
        dk, rk = rng.choice(pairs)
        if rng.random() < config.nonce_share:
            name = rng.choice(_NONCE_FORMS).format(w=_word(rng, 2))
        else:
            name = rng.choice(_RELATIONS[(dk, rk)])
        if name not in names:
            names.add(name)
            relations.append((name.replace(" ", "_") if snake_relations else name, dk, rk))
    triples: list[Triple] = []
    for name, dk, rk in relations:
        for s in by_kind[dk]:
            if rng.random() >= config.density or not by_kind[rk]:
                continue
            for o in rng.sample(by_kind[rk], min(len(by_kind[rk]), rng.choice((1, 1, 1, 2)))):
                if o != s:
                    triples.append(Triple(s, labels[s], name, labels[o], o))
    for kind, relation in _DATES.items():
        for s in by_kind[kind]:
            if rng.random() < 0.5:
                date = f"{rng.randint(1650, 2020)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                triples.append(Triple(s, labels[s], relation.replace(" ", "_") if snake_relations else relation, date))
    return triples
