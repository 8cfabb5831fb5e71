"""KaLMA's Appendix F answers (Tables 19 and 20, ChatGPT and GPT-4 on Stephen Crane), verbatim:
23 (sentence, citation) pairs the paper counts as aligned, the judge's reference check."""

from __future__ import annotations

from kgcite.generate.citations import ParsedAnswer, parse_answer
from kgcite.kg.model import Entity, Subgraph, Triple

TABLE_19 = (
    "Stephen Crane was a male writer born on November 1, 1871, in Newark, United States of America, and died on "
    "June 5, 1900, in Badenweiler due to tuberculosis [Q206534, sex or gender: male, place of birth: Newark, place of "
    "death: Badenweiler, country of citizenship: United States of America, cause of death: Tuberculosis, medical "
    "condition: Tuberculosis, date of birth: 1871-11-01, date of death: 1900-06-05]. Crane was a prominent literary "
    "realist writer [Q206534, movement: literary realism] who wrote about the harsh realities of life and his "
    'atheistic views on religion [Q206534, religion: atheism]. His notable works include "The Red Badge of Courage" '
    "[Q206534, notable works: The Red Badge of Courage]. Crane attended Syracuse University and was a member of the "
    "Syracuse Orange baseball team [Q206534, alma mater: Syracuse University, sport: baseball, member of sports team: "
    "Syracuse Orange baseball]. His experiences at Syracuse University influenced his writing, and he wrote several "
    'stories about college life, including "The Eighty-Yard Run," which was based on his own experiences as a '
    "football player at Syracuse [NA]."
)
TABLE_20 = (
    "Stephen Crane was an American writer born on November 1, 1871, in Newark, and died on June 5, 1900, in "
    "Badenweiler [Q206534, date of birth: 1871-11-01, date of death: 1900-06-05, place of birth: Newark, place of "
    "death: Badenweiler]. He was a part of the literary realism movement and is best known for his notable work, The "
    "Red Badge of Courage [Q206534, movement: literary realism, notable works: The Red Badge of Courage]. Crane's "
    "views on religion were atheistic [Q206534, religion: atheism]. His works often reflected the harsh realities of "
    "life, such as war, poverty, and human suffering [NA]. Crane attended Syracuse University [Q206534, alma mater: "
    "Syracuse University], where his experiences likely influenced his writing. He was exposed to a diverse range of "
    "ideas and perspectives, which may have contributed to his realistic approach to literature [NA]. While at "
    "Syracuse University, Stephen Crane was a member of the Syracuse Orange baseball team [Q206534, member of sports "
    "team: Syracuse Orange baseball]."
)
RELATIONS = [
    "sex or gender",
    "place of birth",
    "place of death",
    "country of citizenship",
    "cause of death",
    "medical condition",
    "date of birth",
    "date of death",
    "movement",
    "religion",
    "notable works",
    "alma mater",
    "sport",
    "member of sports team",
]


def answers() -> list[ParsedAnswer]:
    return [parse_answer(TABLE_19, RELATIONS), parse_answer(TABLE_20, RELATIONS)]


def crane_graph(*parsed: ParsedAnswer) -> Subgraph:
    """Stephen Crane's graph: the triples the answers cite."""
    keys = dict.fromkeys(k for a in parsed for s in a.sentences for t in s.cited_triples() if (k := t.key) is not None)
    return Subgraph((Entity("Q206534", "Stephen Crane"),), tuple(Triple(q, "Stephen Crane", p, v) for q, p, v in keys))
