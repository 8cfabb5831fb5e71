"""Write the three held-out graphs of ``benchmarks/kgqa.py`` and their 2-hop questions.

Written after the shipped grounding model was frozen, to measure it on graphs it never saw:
each uses a relation-naming style of its own (Freebase-like ids, camelCase, snake_case) and the
questions ask in words that are not the relations' names ("team-mates", "record company",
"mom", "kid"). Entities and facts are invented here by hand; the questions come from
hand-written phrasings (several per relation chain) filled with every entity that has an answer,
and the answers are read off the graph along the chain each phrasing was written for.

    python benchmarks/data/kgqa/make_unseen.py   # rewrites the *_graph.tsv / *_questions.jsonl files
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent

Step = tuple[str, bool]  # relation, walked backwards

FOOTBALL = {
    "__sports__player__plays_for_club": [
        ("Arlo Venn", "Redmarsh United"),
        ("Bruno Kessel", "Redmarsh United"),
        ("Caio Marlet", "Redmarsh United"),
        ("Dario Flume", "Ostrava Rovers"),
        ("Emil Starck", "Ostrava Rovers"),
        ("Fabio Lenz", "Ostrava Rovers"),
        ("Gustav Orm", "Kelby Athletic"),
        ("Hugo Brant", "Kelby Athletic"),
        ("Ivo Pell", "Kelby Athletic"),
        ("Jonas Riet", "Saltmere City"),
        ("Karl Dunmore", "Saltmere City"),
        ("Luca Fenwick", "Saltmere City"),
    ],
    "__sports__club__home_city": [
        ("Redmarsh United", "Redmarsh"),
        ("Ostrava Rovers", "Ostrava Vale"),
        ("Kelby Athletic", "Kelby"),
        ("Saltmere City", "Saltmere"),
    ],
    "__sports__club__head_coach": [
        ("Redmarsh United", "Moritz Albers"),
        ("Ostrava Rovers", "Nils Caddock"),
        ("Kelby Athletic", "Oskar Lind"),
        ("Saltmere City", "Piet Vranken"),
    ],
    "__location__city__country": [
        ("Redmarsh", "Norland"),
        ("Ostrava Vale", "Carpathia"),
        ("Kelby", "Norland"),
        ("Saltmere", "Westmark"),
    ],
    "__people__person__nationality": [
        ("Moritz Albers", "Westmark"),
        ("Nils Caddock", "Norland"),
        ("Oskar Lind", "Carpathia"),
        ("Piet Vranken", "Norland"),
        ("Arlo Venn", "Norland"),
        ("Dario Flume", "Carpathia"),
        ("Gustav Orm", "Westmark"),
        ("Jonas Riet", "Westmark"),
    ],
}
FOOTBALL_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("__sports__player__plays_for_club", False), ("__sports__club__home_city", False)],
        ["In which city does {x}'s team play its home games?", "What town is the club of {x} from?"],
    ),
    (
        [("__sports__player__plays_for_club", False), ("__sports__club__head_coach", False)],
        ["Who is the manager of {x}'s side?", "Who trains the team {x} plays for?"],
    ),
    (
        [("__sports__player__plays_for_club", False), ("__sports__player__plays_for_club", True)],
        ["Who are {x}'s team-mates?", "Which players are in the same squad as {x}?"],
    ),
    (
        [("__sports__club__head_coach", False), ("__people__person__nationality", False)],
        ["What nationality is the coach of {x}?", "Which country does {x}'s manager come from?"],
    ),
    (
        [("__sports__club__home_city", False), ("__location__city__country", False)],
        ["In which country is {x} based?", "What nation is {x}'s home city in?"],
    ),
]

MUSIC = {
    "performedBy": [
        ("Glass Harbour", "The Lanterns"),
        ("Night Signals", "The Lanterns"),
        ("Copper Fields", "Mire Collective"),
        ("Low Tide Songs", "Mire Collective"),
        ("Parallel Rooms", "Ossa Quartet"),
        ("Winter Index", "Ossa Quartet"),
        ("Salt and Static", "Velvet Crane"),
        ("The Long Hallway", "Velvet Crane"),
    ],
    "memberOf": [
        ("Ada Morrow", "The Lanterns"),
        ("Ben Kestrel", "The Lanterns"),
        ("Cora Vaine", "Mire Collective"),
        ("Dev Amar", "Mire Collective"),
        ("Elin Sowe", "Ossa Quartet"),
        ("Finn Ludd", "Ossa Quartet"),
        ("Gia Tamsin", "Velvet Crane"),
        ("Hal Ortega", "Velvet Crane"),
    ],
    "signedTo": [
        ("The Lanterns", "Blackwater Records"),
        ("Mire Collective", "Fernhouse Music"),
        ("Ossa Quartet", "Blackwater Records"),
        ("Velvet Crane", "Lumen Sound"),
    ],
    "labelHeadquarters": [
        ("Blackwater Records", "Ashgrove"),
        ("Fernhouse Music", "Port Ellery"),
        ("Lumen Sound", "Ashgrove"),
    ],
    "producedBy": [
        ("Glass Harbour", "Iris Quell"),
        ("Night Signals", "Jon Pardee"),
        ("Copper Fields", "Iris Quell"),
        ("Low Tide Songs", "Kai Renner"),
        ("Parallel Rooms", "Jon Pardee"),
        ("Winter Index", "Kai Renner"),
        ("Salt and Static", "Iris Quell"),
        ("The Long Hallway", "Jon Pardee"),
    ],
}
MUSIC_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("performedBy", False), ("signedTo", False)],
        ["Which record company is the band behind {x} with?", "What label put out {x}'s artists?"],
    ),
    (
        [("performedBy", False), ("memberOf", True)],
        ["Who plays in the group that made {x}?", "Name the musicians of the band that recorded {x}."],
    ),
    (
        [("signedTo", False), ("labelHeadquarters", False)],
        ["Where is the record label of {x} based?", "In what city is {x}'s label headquartered?"],
    ),
    (
        [("memberOf", False), ("signedTo", False)],
        ["Which label is {x}'s band on?", "What record company does the group of {x} work with?"],
    ),
    (
        [("producedBy", True), ("performedBy", False)],
        ["Which bands has {x} made records for?", "Who are the artists whose albums {x} produced?"],
    ),
]

FAMILY = {
    "spouse": [
        ("Alma Reyes", "Bram Oduya"),
        ("Clara Whit", "Dmitri Sorn"),
        ("Esme Holt", "Farid Nabi"),
        ("Greta Lind", "Hamish Coyle"),
    ],
    "child": [
        ("Alma Reyes", "Iona Oduya"),
        ("Alma Reyes", "Jasper Oduya"),
        ("Clara Whit", "Kira Sorn"),
        ("Esme Holt", "Leon Nabi"),
        ("Greta Lind", "Mara Coyle"),
        ("Greta Lind", "Niko Coyle"),
        ("Bram Oduya", "Iona Oduya"),
        ("Bram Oduya", "Jasper Oduya"),
        ("Dmitri Sorn", "Kira Sorn"),
        ("Farid Nabi", "Leon Nabi"),
        ("Hamish Coyle", "Mara Coyle"),
        ("Hamish Coyle", "Niko Coyle"),
    ],
    "employer": [
        ("Alma Reyes", "Quarry Labs"),
        ("Bram Oduya", "Tessel Bank"),
        ("Clara Whit", "Tessel Bank"),
        ("Dmitri Sorn", "Orbis Freight"),
        ("Esme Holt", "Quarry Labs"),
        ("Farid Nabi", "Orbis Freight"),
        ("Greta Lind", "Tessel Bank"),
        ("Hamish Coyle", "Quarry Labs"),
        ("Iona Oduya", "Orbis Freight"),
        ("Kira Sorn", "Quarry Labs"),
    ],
    "headquarters_city": [
        ("Quarry Labs", "Dunmere"),
        ("Tessel Bank", "Halvik"),
        ("Orbis Freight", "Dunmere"),
    ],
}
FAMILY_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("spouse", False), ("employer", False)],
        ["Where does {x}'s husband work?", "Which company employs the husband of {x}?"],
    ),
    (
        [("child", True), ("employer", False)],
        ["Who do {x}'s mum and dad work for?", "Which firm do the parents of {x} work at?"],
    ),
    (
        [("child", False), ("employer", False)],
        ["Where do {x}'s kids work?", "Which companies employ the offspring of {x}?"],
    ),
    (
        [("employer", False), ("headquarters_city", False)],
        ["In which city is {x}'s workplace located?", "Where is the company {x} works for headquartered?"],
    ),
    (
        [("child", True), ("spouse", False)],
        ["Who is married to {x}'s mother?", "Who is the husband of {x}'s mum?"],
    ),
]

GRAPHS = {
    "football": (FOOTBALL, FOOTBALL_QUESTIONS),
    "music": (MUSIC, MUSIC_QUESTIONS),
    "family": (FAMILY, FAMILY_QUESTIONS),
}


def walk(facts: dict[str, list[tuple[str, str]]], start: str, chain: list[Step]) -> set[str]:
    """The entities ``chain`` reaches from ``start`` (the start itself left out)."""
    forward: dict[tuple[str, str], set[str]] = defaultdict(set)
    for relation, pairs in facts.items():
        for s, o in pairs:
            forward[(relation, s)].add(o)
            forward[(f"~{relation}", o)].add(s)
    frontier = {start}
    for relation, back in chain:
        key = f"~{relation}" if back else relation
        frontier = {n for f in frontier for n in forward[(key, f)]}
    return frontier - {start}


def main() -> None:
    for name, (facts, questions) in GRAPHS.items():
        lines = [f"{s}\t{r}\t{o}\n" for r, pairs in facts.items() for s, o in pairs]
        (HERE / f"{name}_graph.tsv").write_text("".join(lines), encoding="utf-8")
        entities = sorted({e for pairs in facts.values() for pair in pairs for e in pair})
        rows = []
        for k, (chain, phrasings) in enumerate(questions):
            for entity in entities:
                answers = walk(facts, entity, chain)
                if answers:
                    phrasing = phrasings[(len(rows) + k) % len(phrasings)]
                    rows.append({"question": phrasing.format(x=entity), "answers": sorted(answers), "topic": [entity]})
        random.Random(0).shuffle(rows)
        with (HERE / f"{name}_questions.jsonl").open("w", encoding="utf-8") as f:
            for i, r in enumerate(rows, 1):
                f.write(json.dumps({"id": f"{name}-{i}", **r}) + "\n")
        print(f"{name}: {len(lines)} triples, {len(rows)} questions")


if __name__ == "__main__":
    main()
