"""Write the held-out graphs of ``benchmarks/kgqa.py`` and their 2-hop questions.

football, music and family were written after the shipped grounding model was frozen; aviation,
school and hospital after the path-scoring rules and ``[NA]`` threshold that answer with it were
frozen (their failures were never looked at before they were measured). To measure on graphs
nothing was tuned to:
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

# -- written after the path-scoring rules and threshold of the next revision were frozen -----

AVIATION = {
    "operator_airline": [
        ("Heron One", "Kestrel Air"),
        ("Heron Two", "Kestrel Air"),
        ("Swift Ayla", "Blue Fen Airways"),
        ("Swift Bren", "Blue Fen Airways"),
        ("Gannet Cora", "Corvid Jet"),
        ("Gannet Dane", "Corvid Jet"),
        ("Plover Eira", "Marlow Skies"),
        ("Plover Finch", "Marlow Skies"),
    ],
    "airline_hub_airport": [
        ("Kestrel Air", "Tollan International"),
        ("Blue Fen Airways", "Brisa Field"),
        ("Corvid Jet", "Quen Airport"),
        ("Marlow Skies", "Tollan International"),
    ],
    "airport_serves_city": [
        ("Tollan International", "Tollan"),
        ("Brisa Field", "Brisa"),
        ("Quen Airport", "Quenby"),
    ],
    "airline_ceo": [
        ("Kestrel Air", "Ilse Rademaker"),
        ("Blue Fen Airways", "Joran Vell"),
        ("Corvid Jet", "Kasia Moor"),
        ("Marlow Skies", "Lev Otten"),
    ],
    "person_born_in": [
        ("Ilse Rademaker", "Harth"),
        ("Joran Vell", "Brisa"),
        ("Kasia Moor", "Quenby"),
        ("Lev Otten", "Harth"),
    ],
}
AVIATION_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("operator_airline", False), ("airline_hub_airport", False)],
        ["Which airport is the home base of the carrier that flies {x}?", "Where is the hub of {x}'s airline?"],
    ),
    (
        [("operator_airline", False), ("airline_ceo", False)],
        ["Who runs the company that operates {x}?", "Who is the boss of the airline flying {x}?"],
    ),
    (
        [("airline_hub_airport", False), ("airport_serves_city", False)],
        ["Which city does {x}'s main airport serve?", "What town is the hub of {x} near?"],
    ),
    (
        [("airline_ceo", False), ("person_born_in", False)],
        ["Where was the chief executive of {x} born?", "What is the hometown of {x}'s CEO?"],
    ),
    (
        [("operator_airline", False), ("operator_airline", True)],
        ["Which other planes does the airline of {x} fly?", "What aircraft share an operator with {x}?"],
    ),
]

SCHOOL = {
    "enrolledAt": [
        ("Amy Okafor", "Linden Grammar"),
        ("Ben Haskett", "Linden Grammar"),
        ("Cleo Marsh", "Fairwater Academy"),
        ("Dev Rao", "Fairwater Academy"),
        ("Esra Kaya", "St Olave's School"),
        ("Finn Doyle", "St Olave's School"),
        ("Gwen Pryce", "Hollins High"),
        ("Hari Nair", "Hollins High"),
    ],
    "headTeacher": [
        ("Linden Grammar", "Margit Sollie"),
        ("Fairwater Academy", "Tobias Wren"),
        ("St Olave's School", "Ursula Kemp"),
        ("Hollins High", "Victor Ames"),
    ],
    "locatedInTown": [
        ("Linden Grammar", "Linden"),
        ("Fairwater Academy", "Fairwater"),
        ("St Olave's School", "Cowley"),
        ("Hollins High", "Linden"),
    ],
    "specialisesIn": [
        ("Margit Sollie", "chemistry"),
        ("Tobias Wren", "history"),
        ("Ursula Kemp", "mathematics"),
        ("Victor Ames", "music"),
    ],
    "townMayor": [
        ("Linden", "Greta Holm"),
        ("Fairwater", "Oskar Brandt"),
        ("Cowley", "Priya Shah"),
    ],
}
SCHOOL_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("enrolledAt", False), ("headTeacher", False)],
        ["Who is the principal of {x}'s school?", "Who heads the school that {x} attends?"],
    ),
    (
        [("enrolledAt", False), ("locatedInTown", False)],
        ["In which town does {x} go to school?", "Where is {x}'s school?"],
    ),
    (
        [("headTeacher", False), ("specialisesIn", False)],
        ["What subject does the head of {x} teach?", "Which subject is the principal of {x} an expert in?"],
    ),
    (
        [("locatedInTown", False), ("townMayor", False)],
        ["Who is the mayor of the town {x} is in?", "Who governs the town where {x} stands?"],
    ),
    (
        [("enrolledAt", False), ("enrolledAt", True)],
        ["Who are {x}'s classmates?", "Which pupils go to the same school as {x}?"],
    ),
]

HOSPITAL = {
    "patient of": [
        ("Alma Quist", "Dr Bruno Salk"),
        ("Cyril Ode", "Dr Bruno Salk"),
        ("Dora Fenn", "Dr Edda Lorne"),
        ("Emil Haag", "Dr Edda Lorne"),
        ("Flora Cray", "Dr Gideon Pike"),
        ("Gerd Mahl", "Dr Gideon Pike"),
        ("Hanne Voss", "Dr Ines Morrow"),
        ("Ivan Lutz", "Dr Ines Morrow"),
    ],
    "practises at": [
        ("Dr Bruno Salk", "St Agatha's Hospital"),
        ("Dr Edda Lorne", "Riverside Clinic"),
        ("Dr Gideon Pike", "St Agatha's Hospital"),
        ("Dr Ines Morrow", "Northgate Infirmary"),
    ],
    "hospital in": [
        ("St Agatha's Hospital", "Wexmoor"),
        ("Riverside Clinic", "Darlow"),
        ("Northgate Infirmary", "Pellham"),
    ],
    "medical speciality": [
        ("Dr Bruno Salk", "cardiology"),
        ("Dr Edda Lorne", "dermatology"),
        ("Dr Gideon Pike", "neurology"),
        ("Dr Ines Morrow", "paediatrics"),
    ],
    "chief physician": [
        ("St Agatha's Hospital", "Dr Kurt Amberg"),
        ("Riverside Clinic", "Dr Lena Hoff"),
        ("Northgate Infirmary", "Dr Mats Ekdal"),
    ],
}
HOSPITAL_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("patient of", False), ("practises at", False)],
        ["Which hospital does {x}'s doctor work in?", "At what clinic can the physician of {x} be found?"],
    ),
    (
        [("patient of", False), ("medical speciality", False)],
        ["What field is {x}'s doctor trained in?", "What kind of specialist treats {x}?"],
    ),
    (
        [("practises at", False), ("hospital in", False)],
        ["In which city does {x} work?", "Which city is {x}'s hospital in?"],
    ),
    (
        [("practises at", False), ("chief physician", False)],
        ["Who is {x}'s boss at the hospital?", "Who leads the hospital where {x} works?"],
    ),
    (
        [("patient of", False), ("patient of", True)],
        ["Who else is treated by {x}'s doctor?", "Which patients share a physician with {x}?"],
    ),
]

# -- written after the WordNet-trained grounding model was frozen, before it was measured ------

THEATRE = {
    "theatre.play.playwright": [
        ("The Salt Wife", "Orla Brennagh"),
        ("A House of Moths", "Orla Brennagh"),
        ("Quiet Engines", "Tomasz Wilk"),
        ("The Lantern Fair", "Tomasz Wilk"),
        ("Blue Hour", "Renata Sousa"),
        ("Ferryman's Daughter", "Renata Sousa"),
        ("Glass Crowns", "Idris Obi"),
        ("The Long Table", "Idris Obi"),
    ],
    "theatre.play.premiere_venue": [
        ("The Salt Wife", "Harbour Playhouse"),
        ("A House of Moths", "Old Mill Theatre"),
        ("Quiet Engines", "Harbour Playhouse"),
        ("The Lantern Fair", "Crescent Stage"),
        ("Blue Hour", "Old Mill Theatre"),
        ("Ferryman's Daughter", "Crescent Stage"),
        ("Glass Crowns", "Harbour Playhouse"),
        ("The Long Table", "Old Mill Theatre"),
    ],
    "theatre.venue.city": [
        ("Harbour Playhouse", "Gullhaven"),
        ("Old Mill Theatre", "Brackley"),
        ("Crescent Stage", "Ostmere"),
    ],
    "theatre.venue.artistic_director": [
        ("Harbour Playhouse", "Nadia Fairlie"),
        ("Old Mill Theatre", "Conrad Pask"),
        ("Crescent Stage", "Yvette Roux"),
    ],
    "people.person.alma_mater": [
        ("Orla Brennagh", "Drummond College"),
        ("Tomasz Wilk", "Ostmere Conservatory"),
        ("Renata Sousa", "Drummond College"),
        ("Idris Obi", "Gullhaven School of Drama"),
    ],
}
THEATRE_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("theatre.play.playwright", False), ("people.person.alma_mater", False)],
        ["Where did the author of {x} study?", "Which college did the dramatist of {x} go to?"],
    ),
    (
        [("theatre.play.premiere_venue", False), ("theatre.venue.city", False)],
        ["In which town did {x} first open?", "What city is the stage where {x} opened located in?"],
    ),
    (
        [("theatre.play.premiere_venue", False), ("theatre.venue.artistic_director", False)],
        ["Who runs the theatre where {x} was first performed?", "Who is in charge of the venue {x} opened at?"],
    ),
    (
        [("theatre.play.playwright", False), ("theatre.play.playwright", True)],
        ["What else did the writer of {x} write?", "Which other plays are by the author of {x}?"],
    ),
]

FARM = {
    "GROWN_AT": [
        ("Redgold apples", "Elmstead Farm"),
        ("Winter kale", "Elmstead Farm"),
        ("Blue Vale cheese", "Marrow Hill Dairy"),
        ("Cultured butter", "Marrow Hill Dairy"),
        ("Heather honey", "Skelby Apiary"),
        ("Wildflower honey", "Skelby Apiary"),
        ("Ember chillies", "Sunhollow Gardens"),
        ("Cherry tomatoes", "Sunhollow Gardens"),
    ],
    "FARM_REGION": [
        ("Elmstead Farm", "Wealdshire"),
        ("Marrow Hill Dairy", "Coldbeck Vale"),
        ("Skelby Apiary", "Wealdshire"),
        ("Sunhollow Gardens", "Southmarch"),
    ],
    "FARM_OWNER": [
        ("Elmstead Farm", "Ruth Cadell"),
        ("Marrow Hill Dairy", "Owain Pryor"),
        ("Skelby Apiary", "Mina Halloran"),
        ("Sunhollow Gardens", "Basil Okoro"),
    ],
    "SOLD_BY": [
        ("Redgold apples", "Corner Larder"),
        ("Blue Vale cheese", "Corner Larder"),
        ("Heather honey", "Thistle Market"),
        ("Ember chillies", "Thistle Market"),
        ("Winter kale", "Greengage Grocers"),
        ("Cultured butter", "Greengage Grocers"),
        ("Wildflower honey", "Greengage Grocers"),
        ("Cherry tomatoes", "Corner Larder"),
    ],
    "SHOP_TOWN": [
        ("Corner Larder", "Ashby Cross"),
        ("Thistle Market", "Wendlow"),
        ("Greengage Grocers", "Ashby Cross"),
    ],
}
FARM_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("GROWN_AT", False), ("FARM_OWNER", False)],
        ["Who owns the farm that produces {x}?", "Whose farm does {x} come from?"],
    ),
    (
        [("GROWN_AT", False), ("FARM_REGION", False)],
        ["Which region is {x} from?", "In what area is the farm that makes {x}?"],
    ),
    (
        [("SOLD_BY", False), ("SHOP_TOWN", False)],
        ["In which town can I buy {x}?", "Where is the shop that stocks {x}?"],
    ),
    (
        [("FARM_OWNER", True), ("GROWN_AT", True)],
        ["What does {x}'s farm produce?", "Which products come from the farm run by {x}?"],
    ),
    (
        [("SOLD_BY", False), ("SOLD_BY", True)],
        ["What else does the shop selling {x} stock?", "Which other goods are sold alongside {x}?"],
    ),
]

UNIVERSITY = {
    "works in department": [
        ("Ada Lindqvist", "Department of Optics"),
        ("Bilal Haddad", "Department of Optics"),
        ("Chen Wei", "Department of Linguistics"),
        ("Dana Moreau", "Department of Linguistics"),
        ("Emre Aksoy", "Department of Geology"),
        ("Freya Nolan", "Department of Geology"),
        ("Goran Petrov", "Department of Botany"),
        ("Hana Sato", "Department of Botany"),
    ],
    "department of": [
        ("Department of Optics", "Carrow University"),
        ("Department of Linguistics", "Carrow University"),
        ("Department of Geology", "Pellbridge Institute"),
        ("Department of Botany", "Pellbridge Institute"),
    ],
    "department head": [
        ("Department of Optics", "Ivo Marsh"),
        ("Department of Linguistics", "Juno Adler"),
        ("Department of Geology", "Kiran Dutt"),
        ("Department of Botany", "Lotte Brink"),
    ],
    "university located in": [
        ("Carrow University", "Carrow"),
        ("Pellbridge Institute", "Pellbridge"),
    ],
    "doctoral supervisor": [
        ("Ada Lindqvist", "Ivo Marsh"),
        ("Chen Wei", "Juno Adler"),
        ("Emre Aksoy", "Kiran Dutt"),
        ("Goran Petrov", "Lotte Brink"),
        ("Bilal Haddad", "Juno Adler"),
        ("Hana Sato", "Kiran Dutt"),
    ],
}
UNIVERSITY_QUESTIONS: list[tuple[list[Step], list[str]]] = [
    (
        [("works in department", False), ("department head", False)],
        ["Who chairs {x}'s department?", "Who is the head of the department {x} works in?"],
    ),
    (
        [("works in department", False), ("department of", False)],
        ["At which university does {x} work?", "What institution employs {x}?"],
    ),
    (
        [("doctoral supervisor", False), ("works in department", False)],
        ["In which department is {x}'s PhD adviser?", "Which department does the mentor of {x} belong to?"],
    ),
    (
        [("works in department", False), ("works in department", True)],
        ["Who are {x}'s colleagues in the department?", "Which researchers share a department with {x}?"],
    ),
    (
        [("doctoral supervisor", False), ("department head", True)],
        ["Which department does {x}'s doctoral adviser lead?", "What department is run by the supervisor of {x}?"],
    ),
]

GRAPHS = {
    "football": (FOOTBALL, FOOTBALL_QUESTIONS),
    "music": (MUSIC, MUSIC_QUESTIONS),
    "family": (FAMILY, FAMILY_QUESTIONS),
    "aviation": (AVIATION, AVIATION_QUESTIONS),
    "school": (SCHOOL, SCHOOL_QUESTIONS),
    "hospital": (HOSPITAL, HOSPITAL_QUESTIONS),
    "theatre": (THEATRE, THEATRE_QUESTIONS),
    "farm": (FARM, FARM_QUESTIONS),
    "university": (UNIVERSITY, UNIVERSITY_QUESTIONS),
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
