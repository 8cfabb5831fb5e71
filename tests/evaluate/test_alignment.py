"""Alignment and [NA] scores: paper Figure 3, Appendix F answers, the judge with the real NLI model."""

from __future__ import annotations

import pytest

from kgcite.evaluate.alignment import AttributionScorer, alignment_pairs, alignment_report, na_report
from kgcite.evaluate.support import SupportJudge, states_value, value_forms
from kgcite.generate.citations import parse_answer
from kgcite.models.nli import OnnxNLI

# KaLMA Appendix F, Table 19 (ChatGPT) and Table 20 (GPT-4), verbatim.
TABLE_19 = (
    "Stephen Crane was a male writer born on November 1, 1871, in Newark, United States of America, and died on "
    "June 5, 1900, in Badenweiler due to tuberculosis [Q206534, sex or gender: male, place of birth: Newark, place of "
    "death: Badenweiler, country of citizenship: United States of America, cause of death: Tuberculosis, medical "
    "condition: Tuberculosis, date of birth: 1871-11-01, date of death: 1900-06-05]. Crane was a prominent literary "
    "realist writer [Q206534, movement: literary realism] who wrote about the harsh realities of life and his "
    "atheistic views on religion [Q206534, religion: atheism]. His notable works include \"The Red Badge of Courage\" "
    "[Q206534, notable works: The Red Badge of Courage]. Crane attended Syracuse University and was a member of the "
    "Syracuse Orange baseball team [Q206534, alma mater: Syracuse University, sport: baseball, member of sports team: "
    "Syracuse Orange baseball]. His experiences at Syracuse University influenced his writing, and he wrote several "
    "stories about college life, including \"The Eighty-Yard Run,\" which was based on his own experiences as a "
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
    "sex or gender", "place of birth", "place of death", "country of citizenship", "cause of death", "medical condition",
    "date of birth", "date of death", "movement", "religion", "notable works", "alma mater", "sport", "member of sports team",
]


def test_na_report_figure_3() -> None:
    # two [NA] sentences, absent set {k2, k4, k5}: sentence 1 entails k2, sentence 2 nothing
    report = na_report([[[True, False, False], [False, False, False]]], [3])
    assert report.na_precision == pytest.approx(0.5)
    assert report.na_recall == pytest.approx(1 / 3)
    assert report.na_f1 == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))


def test_na_report_edge_cases() -> None:
    empty = na_report([[]], [0])
    assert empty.na_precision is None and empty.na_recall is None and empty.na_f1 is None
    no_na = na_report([[]], [2])  # absent knowledge but no [NA] sentence: recall 0, precision undefined
    assert no_na.na_recall == 0.0 and no_na.na_precision is None
    with pytest.raises(ValueError):
        na_report([[]], [1, 2])


def test_alignment_report_micro_and_macro() -> None:
    r = alignment_report([[True, True, False, True], [], [False]])
    assert (r.n_pairs, r.n_aligned) == (5, 3)
    assert r.alignment == pytest.approx(0.6)
    assert r.macro_alignment == pytest.approx((0.75 + 0.0) / 2)
    assert alignment_report([[]]).alignment is None


def test_iso_dates_match_their_spoken_forms() -> None:
    assert "november 1 1871" in value_forms("1871-11-01")
    assert states_value("He was born on November 1, 1871, in Newark", "1871-11-01")
    assert states_value("born 1 November 1871", "1871-11-01")
    assert not states_value("born on November 11, 1871", "1871-11-01")
    assert not states_value("Newarkshire", "Newark")


def test_appendix_f_lexical_alignment() -> None:
    judge = SupportJudge()
    a19, a20 = parse_answer(TABLE_19, RELATIONS), parse_answer(TABLE_20, RELATIONS)
    assert len(alignment_pairs(a19)) == 14 and len(alignment_pairs(a20)) == 9
    scorer = AttributionScorer(judge)
    j19, j20 = scorer.alignment_judgments([a19, a20])
    # value-only misses exactly the paraphrases: "literary realist" (realism) and "atheistic" (atheism)
    missed19 = [k[2] for (s, k), ok in zip(alignment_pairs(a19), j19, strict=True) if not ok]
    missed20 = [k[2] for (s, k), ok in zip(alignment_pairs(a20), j20, strict=True) if not ok]
    assert missed19 == ["literary realism", "atheism"]
    assert missed20 == ["atheism"]


def test_appendix_f_alignment_with_nli(nli: OnnxNLI) -> None:
    answers = [parse_answer(TABLE_19, RELATIONS), parse_answer(TABLE_20, RELATIONS)]
    nli_only = AttributionScorer(SupportJudge(nli, lexical=False))
    judged = [ok for j in nli_only.alignment_judgments(answers) for ok in j]
    pairs = [p for a in answers for p in alignment_pairs(a)]
    assert sum(judged) >= 19  # the paper's TRUE judged these answers 84.5-92.0% aligned on average
    # dates written "November 1, 1871" entail "date of birth: 1871-11-01" for the model alone
    assert all(ok for (s, k), ok in zip(pairs, judged, strict=True) if k[1].startswith("date of"))
    combined = AttributionScorer(SupportJudge(nli)).alignment(answers)
    assert combined.n_pairs == 23 and combined.n_aligned >= max(sum(judged), 20)


def test_nli_rejects_what_a_sentence_does_not_say(nli: OnnxNLI) -> None:
    judge = SupportJudge(nli)
    s = "Stephen Crane was born in Newark and studied at Syracuse University."
    got = judge.judge([(s, ("Q1", "place of death", "Badenweiler")), (s, ("Q1", "religion", "atheism")), (s, ("Q1", "place of birth", "Newark"))])
    assert got == [False, False, True]


def test_na_scores_with_nli(nli: OnnxNLI) -> None:
    answer = parse_answer(
        "Stephen Crane was born in Newark [Q206534, place of birth: Newark]. He died in Badenweiler [NA]. "
        "He liked poetry [NA].",
        ["place of birth"],
    )
    absent = [("Q206534", "place of death", "Badenweiler"), ("Q206534", "religion", "atheism")]
    report = AttributionScorer(SupportJudge(nli)).na([answer], [absent])
    assert (report.n_na_sentences, report.n_na_correct) == (2, 1)
    assert (report.n_absent, report.n_absent_found) == (2, 1)
