"""The judge's rules on adversarial pairs: wrong relation, wrong year, unstated subject, and the
false claims a user saw under real citations."""

from __future__ import annotations

import pytest

from kgcite.judge.rules import Claim, tokens, verdict
from kgcite.judge.support import SupportJudge
from kgcite.models.nli import OnnxNLI
from kgcite.text.lexicon import Lexicon, stem

LEX = Lexicon.default()


def rule(sentence: str, relation: str, value: str, subject: str | None = "Stephen Crane", **kw) -> bool | None:  # type: ignore[no-untyped-def]
    return verdict(Claim(sentence, subject, relation, value, **kw), LEX)


@pytest.mark.parametrize(
    ("sentence", "relation", "value"),
    [
        ("Stephen Crane was born in Newark.", "place of death", "Newark"),  # right value, wrong relation
        ("Catch Me If You Can was directed by Steven Spielberg.", "written by", "Steven Spielberg"),
        ("Stephen Crane was born on November 11, 1871.", "date of birth", "1871-11-01"),  # wrong day
        ("Stephen Crane was born in 1872.", "date of birth", "1871-11-01"),  # wrong year
        ("Jaws was released in 1976.", "release year", "1975"),
        ("Stephen Crane died in Badenweiler, Germany.", "place of death", "Paris"),  # the relation with another value
    ],
)
def test_stated_differently_is_not_supported(sentence: str, relation: str, value: str) -> None:
    subject = sentence.split(" was ")[0].split(" died")[0]
    assert rule(sentence, relation, value, subject) is False


def test_the_subject_must_be_stated() -> None:
    # "Always" is never stated: only the object of (Always, directed by, Steven Spielberg) is
    s = "The films directed by Steven Spielberg in 1941, Munich, Jurassic Park, and Jurassic Park are all in the same order."
    assert rule(s, "directed_by", "Steven Spielberg", "Always") is False
    # the doctoral advisor's praise never mentions Stephen Hawking
    s = "Dennis W. Sciama, a renowned astrophysicist, was a brilliant and dedicated scientist who made groundbreaking discoveries."
    assert rule(s, "doctoral advisor", "Dennis W. Sciama", "Stephen Hawking") is False


def test_pronouns_need_their_antecedent() -> None:
    s = "He was born in Newark."
    assert rule(s, "place of birth", "Newark") is False  # no antecedent at all
    assert rule(s, "place of birth", "Newark", context="Stephen Crane was a writer.") is True
    assert rule(s, "place of birth", "Newark", context="Ernest Hemingway was a writer.") is False
    assert rule("Crane was born in Newark.", "place of birth", "Newark") is True  # a last name will do


def test_country_of_citizenship_is_not_a_birthplace() -> None:
    # "Max Wolf was born in the United States of America", cited as country of citizenship
    s = "Max Wolf was born in the United States of America."
    held = frozenset({"country of citizenship"})
    assert rule(s, "country of citizenship", "United States of America", "Max Wolf", value_relations=held) is False
    assert (
        rule(
            "Max Wolf was a citizen of the United States of America.",
            "country of citizenship",
            "United States of America",
            "Max Wolf",
        )
        is True
    )


def test_paraphrases_and_quantities_are_read() -> None:
    assert rule("Stephen Crane was born on November 1, 1871, in Newark.", "date of birth", "1871-11-01") is True
    assert rule("Stephen Crane was born on November 1, 1871, in Newark.", "place of birth", "Newark") is True
    assert rule("Stephen Crane married Cora Taylor.", "spouse", "Cora Taylor") is True
    assert rule("Jaws stars Roy Scheider.", "starred_actors", "Roy Scheider", "Jaws") is True
    assert rule("Stephen Crane died in Badenweiler due to tuberculosis.", "cause of death", "tuberculosis") is True
    # a relation the lexicon does not know is read by its own words
    assert rule("Marla Quenby founded Quenby Bakery.", "founded", "Quenby Bakery", "Marla Quenby") is True


def test_another_relation_between_cue_and_value_blocks_it() -> None:
    s = "Stephen Crane was born in Newark and died in Badenweiler."
    assert rule(s, "place of birth", "Badenweiler") is False
    assert rule(s, "place of death", "Badenweiler") is True


def test_the_graph_reading_of_a_value() -> None:
    held = frozenset({"movement"})
    assert (
        rule("Crane was a prominent literary realist writer.", "movement", "literary realism", value_relations=held)
        is True
    )
    # held under two relations: the words must say which
    both = frozenset({"cause of death", "medical condition"})
    assert rule("Stephen Crane had tuberculosis.", "cause of death", "tuberculosis", value_relations=both) is None


def test_sentence_breaks_but_not_inside_names() -> None:
    assert (
        tokens(
            "Scooby-Doo! Curse of the Lake Monster was released in 2010.", "Scooby-Doo! Curse of the Lake Monster"
        ).count(";")
        == 0
    )
    assert tokens("Jaws was released in 1975. Spielberg directed it.").count(";") == 1
    assert tokens("James D.R. Hickox directed it.").count(";") == 0


def test_stemmer_is_symmetric_on_derivations() -> None:
    assert stem("atheistic") == stem("atheism")
    assert stem("realist") == stem("realism")
    assert stem("directed") == stem("director")
    assert stem("released") == stem("release")


def test_judge_without_a_model_never_trusts_the_value_alone() -> None:
    judge = SupportJudge()
    # value stated, relation not: the rules cannot tell, and without a model that is a no
    assert judge.judge(
        [Claim("Stephen Crane and Newark are often mentioned together.", "Stephen Crane", "place of birth", "Newark")]
    ) == [False]


def test_undecided_pairs_go_to_the_model(nli: OnnxNLI) -> None:
    judge = SupportJudge(nli)
    c = Claim("Stephen Crane was an American novelist.", "Stephen Crane", "occupation", "novelist")
    assert judge.decide([c]) == [None]
    assert judge.judge([c]) == [True]


def test_coordinated_relations_state_both() -> None:
    s = "Gran Torino was directed and produced by Clint Eastwood."
    assert rule(s, "directed by", "Clint Eastwood", "Gran Torino") is True


def test_a_shared_last_name_is_not_the_subject() -> None:
    # a rewrite "Rowan Quenby and Ivy Quenby." never says whose children they are
    assert rule("Rowan Quenby and Ivy Quenby.", "child", "Rowan Quenby", "Marla Quenby") is False
    assert (
        rule("Marla Quenby's children are Rowan Quenby and Ivy Quenby.", "child", "Rowan Quenby", "Marla Quenby")
        is True
    )
    assert rule("Quenby founded Quenby Bakery.", "founded", "Quenby Bakery", "Marla Quenby") is True


def test_a_sentence_with_nothing_of_the_claim_is_refused(nli: OnnxNLI) -> None:
    judge = SupportJudge(nli)
    noise = " ".join(["word"] * 300)
    claims = [
        Claim(noise, None, "date of birth", "1871-11-01"),
        Claim(noise, None, "place of birth", "Newark"),
        Claim(noise, "Stephen Crane", "date of birth", "1871-11-01"),
    ]
    assert judge.judge(claims) == [False, False, False]
