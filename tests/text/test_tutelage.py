"""Teaching bonds: which end a relation's name makes the teacher, which end a question asks for."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from kgcite.text.lexicon import said_once, stem, teacher_end, teaches_at
from kgcite.text.tutelage import asked_role, said_of, wrong_way
from kgcite.text.values import normalize

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


@pytest.mark.parametrize(
    ("relation", "end"),
    [
        ("mentored_by", "object"),
        ("TRAINED_UNDER", "object"),
        ("apprenticed to", "object"),
        ("student of", "object"),
        ("doctoral advisor", "object"),
        ("coach", "object"),
        ("mentor of", "subject"),
        ("trained", "subject"),
        ("students", "subject"),
        ("doctoral student", "subject"),
        ("trained_at", None),  # a school
        ("head teacher", None),  # leads a school
        ("served under", None),
        ("founded by", None),
    ],
)
def test_which_end_of_a_relation_is_the_teacher(relation: str, end: str | None) -> None:
    assert teacher_end(relation) == end


@pytest.mark.parametrize(
    ("question", "role"),
    [
        ("Which archaeologists did Teodor Hask train?", "learner"),
        ("Who were the pupils of Amelia Thorncastle?", "learner"),
        ("Which captains trained under the skipper of the Belle?", "learner"),
        ("Which winemakers learned the trade from Tomas Rudelle?", "learner"),
        ("Who served an apprenticeship with Agathe Lunnquist?", "learner"),
        ("Which keepers were trained by the keeper who was born in Sallowmere?", "learner"),
        ("Which sites are run by archaeologists that Hedda Quorne trained?", "learner"),
        ("Which club does Lionel Ashdown's student play for?", "learner"),
        ("Who trained the chief winemaker at Maison Verrebois?", "teacher"),
        ("In what year did the vet who mentored Dr. Oren Baskell graduate?", "teacher"),
        ("Who was Bob trained by?", "teacher"),
        ("Who did Bob learn from?", "teacher"),
        ("What title does the trainer of the coach of Fabian Quillow hold?", "teacher"),
        ("Where was Saskia Lindqvar's mentor born?", "teacher"),
        ("Who is the head of the ski school where Greta teaches?", None),  # not said whose
        ("Which vets trained with Dr. Grieve as mentor?", "learner"),  # "as mentor": the one given
        ("Who was the mentor of Ada's first pupil?", None),  # both ends said
        ("Whose mentor is Tobias Renn?", "learner"),
        ("Who was Lior Baptiste a student of?", "teacher"),
        ("Where was Ada born?", None),
        ("Where does Hollis Varga teach?", None),  # a place, no one
        ("At which school does Oriane Pell teach?", None),
        ("Where was Juno Rask's teacher born?", "teacher"),
        ("Who else was trained by the same person as Greta Okonjo?", None),  # peers: there and back
    ],
)
def test_which_end_a_question_asks_for(question: str, role: str | None) -> None:
    assert asked_role(normalize(question).split()) == role


class _Hop(NamedTuple):
    relation: str
    inverse: bool = False


def test_a_chain_walks_each_teaching_hop_towards_the_end_asked() -> None:
    # "Who trained the mentor of X?" over ``mentored_by``: forwards twice
    assert not wrong_way([_Hop("mentored_by"), _Hop("mentored_by")], "teacher")
    assert wrong_way([_Hop("mentored_by"), _Hop("mentored_by", True)], "teacher")
    # "Which expeditions did the pupils of X lead?": backwards, then a hop of another kind
    assert not wrong_way([_Hop("TRAINED_UNDER", True), _Hop("expedition_leader", True)], "learner")
    assert not wrong_way([_Hop("born_in")], "learner")  # no teaching hop: nothing to say


def test_a_mentor_is_no_part_of_a_department() -> None:
    assert stem("mentored") == stem("mentor") == "mentor"
    assert not stem("department").endswith(stem("mentor"))


def test_a_relation_that_places_a_teacher_is_no_teaching_bond() -> None:
    assert teaches_at("instructorAt") and teaches_at("trained_at") and teaches_at("teaches at")
    assert not teaches_at("trainedBy") and not teaches_at("located_in") and not teaches_at("student of")


@pytest.mark.parametrize(
    ("question", "name", "said"),
    [
        ("Whom did Teodor Hask train?", "teodor hask", True),
        ("Who were the pupils of Amelia Thorncastle?", "amelia thorncastle", True),
        ("Which winemakers learned the trade from Tomas Rudelle?", "tomas rudelle", True),
        ("Which club does Lionel Ashdown's student play for?", "lionel ashdown", True),
        ("Who coaches the owner of Kestrel II?", "kestrel ii", False),  # the owner is coached
    ],
)
def test_a_teaching_word_is_said_of_the_name_next_to_it(question: str, name: str, said: bool) -> None:
    found = said_once(question, name)
    assert found is not None
    assert said_of(*found) is said
