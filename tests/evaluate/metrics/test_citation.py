"""KaLMA citation metrics against the paper's worked example (Figure 2) and the edge cases."""

from __future__ import annotations

import pytest

from kgcite.evaluate.metrics.citation import aggregate, f1, score_answer
from kgcite.generate.citations import parse_answer
from kgcite.kg.loaders import read_biokalma, shipped_biokalma
from kgcite.kg.model import Subgraph
from tests.helpers import FIGURE_2, G, M, cite

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def figure_2(unit: str = "citation"):  # type: ignore[no-untyped-def]
    return score_answer(parse_answer(FIGURE_2).cited_triples(), G, M, unit)  # type: ignore[arg-type]


def test_figure_2_precision_and_recall() -> None:
    s = figure_2()
    assert (s.n_citations, s.n_correct, s.n_precise, s.n_recalled, s.n_minimum) == (6, 6, 3, 2, 5)
    assert s.precision == pytest.approx(0.5)
    assert s.recall == pytest.approx(0.4)
    r = aggregate([s])
    assert (r.correctness, r.precision_micro, r.recall_micro) == (1.0, 0.5, 0.4)
    assert r.f1_micro == pytest.approx(2 * 0.5 * 0.4 / 0.9)


def test_figure_2_distinct_unit_counts_each_knowledge_once() -> None:
    s = figure_2("distinct")
    assert s.precision == pytest.approx(2 / 6)
    assert s.recall == pytest.approx(0.4)


def test_unknown_unit_is_rejected() -> None:
    with pytest.raises(ValueError, match="precision unit"):
        score_answer([], G, M, "token")  # type: ignore[arg-type]


def test_duplicates_are_kept() -> None:
    s = score_answer(parse_answer(f"A {cite(1)}. B {cite(1)}. C {cite(1)}.").cited_triples(), G, M)
    assert (s.n_citations, s.n_precise, s.n_recalled) == (3, 3, 1)
    assert score_answer(
        parse_answer(f"A {cite(1, 1, 1)}.").cited_triples(), G, M, "distinct"
    ).precision == pytest.approx(1 / 3)


def test_na_only_and_uncited_answers() -> None:
    na_only = score_answer(parse_answer("Nobody knows [NA]. Still unknown [NA].").cited_triples(), G, M)
    uncited = score_answer(parse_answer("Plain text without any citation.").cited_triples(), G, M)
    for s in (na_only, uncited):
        assert s.n_citations == 0 and s.precision is None and s.recall == 0.0
    r = aggregate([figure_2(), na_only, uncited])
    assert r.precision_micro == pytest.approx(0.5)  # no citations: nothing added to the pool
    assert r.precision_macro == pytest.approx(0.5)  # and left out of macro precision
    assert r.recall_micro == pytest.approx(2 / 15)
    assert r.recall_macro == pytest.approx(0.4 / 3)  # but counted as 0 in macro recall
    empty = aggregate([na_only])
    assert empty.correctness is None and empty.precision_micro is None and empty.f1_micro is None


def test_wrong_qid_wrong_value_and_missing_parts_are_incorrect() -> None:
    text = "A [Q99, p1: value 1]. B [Q1, p1: value 2]. C [Q1, p1]. D [Q1]. E [Q1, p1: value 1]."
    s = score_answer(parse_answer(text).cited_triples(), G, M)
    assert (s.n_citations, s.n_correct, s.n_precise, s.n_recalled) == (5, 1, 1, 1)


def test_correct_but_outside_minimum_set_is_not_precise() -> None:
    s = score_answer(parse_answer(f"A {cite(7, 8)}.").cited_triples(), G, M)
    assert (s.n_correct, s.n_precise, s.precision, s.recall) == (2, 0, 0.0, 0.0)


def test_value_with_commas_matches_when_resolved() -> None:
    g = {("Q1", "residence", "Washington, D.C."), ("Q1", "occupation", "lawyer")}
    cited = parse_answer(
        "He lived in Washington [Q1, residence: Washington, D.C., occupation: lawyer]."
    ).cited_triples()
    s = score_answer(cited, g, [("Q1", "residence", "Washington, D.C.")])
    assert (s.n_correct, s.n_precise, s.n_recalled) == (2, 1, 1)


def test_malformed_bracket_counts_as_a_wrong_citation() -> None:
    s = score_answer(parse_answer(f"A {cite(1)}. B [Q2, p2: value 2. C [].").cited_triples(), G, M)
    assert (s.n_citations, s.n_correct) == (3, 1)


def test_f1_edge_cases() -> None:
    assert f1(0.0, 0.0) == 0.0
    assert f1(None, 0.5) is None
    assert f1(1.0, 1.0) == 1.0


def test_macro_averages_per_answer() -> None:
    perfect = score_answer(parse_answer(f"A {cite(1, 2, 3, 4, 5)}.").cited_triples(), G, M)
    r = aggregate([figure_2(), perfect])
    assert r.precision_micro == pytest.approx(8 / 11)
    assert r.precision_macro == pytest.approx((0.5 + 1.0) / 2)
    assert r.recall_micro == pytest.approx(7 / 10)
    assert r.recall_macro == pytest.approx((0.4 + 1.0) / 2)
    assert r.f1_macro == pytest.approx(f1(0.75, 0.7))


# -- the data's own spelling and the label (regressions: both were counted incorrect) -----------


def _crane() -> Subgraph:
    return next(read_biokalma(shipped_biokalma("specific")[0])).graph


def test_the_datas_own_spelling_is_correct_and_recalled() -> None:
    crane = _crane()  # the shipped file spells the key date_of_birth; kgcite reads it as date of birth
    for written in ("date_of_birth", "date of birth", "Date of Birth"):
        cited = parse_answer(
            f"Crane was born on 1 November 1871 [Q206534, {written}: 1871-11-01].", crane
        ).cited_triples()
        for minimum in (("Q206534", "date_of_birth", "1871-11-01"), ("Q206534", "date of birth", "1871-11-01")):
            s = score_answer(cited, crane.keys, [minimum])
            assert (s.n_correct, s.n_precise, s.n_recalled) == (1, 1, 1), (written, minimum)


def test_a_name_citation_is_correct() -> None:
    s = score_answer(
        parse_answer("He was Stephen Crane [Q206534, name: Stephen Crane].").cited_triples(), _crane().keys, []
    )
    assert (s.n_citations, s.n_correct) == (1, 1)
    wrong = score_answer(
        parse_answer("He was Steve Crane [Q206534, name: Steve Crane].").cited_triples(), _crane().keys, []
    )
    assert wrong.n_correct == 0


def test_values_still_compare_exactly() -> None:
    g = {("Q1", "place of birth", "Newark")}
    cited = parse_answer("A [Q1, place_of_birth: newark]. B [Q1, Place of Birth:  Newark ].").cited_triples()
    assert score_answer(cited, g, []).n_correct == 1  # case of a value matters; its outer spaces do not


def test_macro_correctness_leaves_out_answers_without_citations() -> None:
    half = score_answer(parse_answer(f"A {cite(1)}. B [Q1, p1: nope].").cited_triples(), G, M)
    none = score_answer(parse_answer("No citation here.").cited_triples(), G, M)
    r = aggregate([figure_2(), half, none])
    assert r.correctness == pytest.approx(7 / 8)
    assert r.correctness_macro == pytest.approx((1.0 + 0.5) / 2)
