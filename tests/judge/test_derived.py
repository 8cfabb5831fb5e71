"""A conclusion is supported only if recomputing it from its cited facts gives the same result."""

from __future__ import annotations

import pytest

from kgcite.judge.derived import common_sentence, count_sentence, holds, is_conclusion, order_sentence
from kgcite.judge.rules import Claim
from kgcite.judge.support import SupportJudge
from kgcite.text.forms import ORDERS

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

OPENED = [("Vellmoor Central", "opened", "1872-04-15"), ("Tarn Junction", "opened", "September 1, 1885")]
OPERATES = [
    ("Vellmoor and Tarn Railway", "operates", "Vellmoor Central"),
    ("Vellmoor and Tarn Railway", "operates", "Tarn Junction"),
    ("Vellmoor and Tarn Railway", "operates", "Ashby Halt"),
]
DESIGNED = [("Vellmoor Central", "designed_by", "Samuel Pike"), ("Ashby Halt", "designed_by", "Samuel Pike")]


def test_an_order_is_recomputed_from_the_dates() -> None:
    older = order_sentence(["Vellmoor Central"], ORDERS["older"], False)
    assert older == "So Vellmoor Central is older."
    assert holds(older, OPENED) is True
    assert holds("So Tarn Junction is older.", OPENED) is False
    assert holds("So Tarn Junction is the latest.", OPENED) is True
    assert holds(order_sentence(["Vellmoor Central"], ORDERS["oldest"], True, polar=True), OPENED) is True
    # one side's date not cited: nothing to compare it with
    assert holds(older, OPENED[:1] + [("Tarn Junction", "designed_by", "Edith Crowe")]) is True
    assert holds("So Tarn Junction is older.", OPENED[:1] + [("Tarn Junction", "designed_by", "Edith Crowe")]) is False


def test_numbers_of_one_measure_only() -> None:
    depths = [("Lake Orra", "max_depth", "126 m"), ("Lake Kell", "max_depth", "0.2 km")]
    assert holds("So Lake Kell is deeper.", depths) is True
    assert holds("So Lake Orra is deeper.", depths) is False
    assert (
        holds("So Lake Orra is deeper.", [("Lake Orra", "max_depth", "126 m"), ("Lake Kell", "mass", "3 kg")]) is False
    )


def test_ties_name_every_winner() -> None:
    tied = [("A", "release_year", "1950"), ("B", "release_year", "1950"), ("C", "release_year", "1955")]
    assert holds(order_sentence(["A", "B"], ORDERS["earliest"], True), tied) is True
    assert holds("So A is the earliest.", tied) is False


def test_a_count_is_the_number_of_distinct_members() -> None:
    assert count_sentence(3, "stations") == "So that makes 3 stations."
    assert holds("So that makes 3 stations.", OPERATES) is True
    assert holds("So that makes 4 stations.", OPERATES) is False
    assert holds("So that makes 2.", OPERATES + [("Samuel Pike", "born_in", "Oldmere")]) is False  # no shared end


def test_what_is_common_links_every_member_to_every_anchor() -> None:
    text = common_sentence(["Samuel Pike"], ["Vellmoor Central", "Ashby Halt"])
    assert text == "So Samuel Pike is common to Vellmoor Central and Ashby Halt."
    assert holds(text, DESIGNED) is True
    assert holds(text, DESIGNED[:1] + [("Ashby Halt", "designed_by", "Edith Crowe")]) is False
    nothing = common_sentence([], ["Vellmoor Central", "Tarn Junction"])
    assert holds(nothing, [DESIGNED[0], ("Tarn Junction", "designed_by", "Edith Crowe")]) is True
    assert holds(nothing, DESIGNED) is False


def test_the_judge_decides_conclusions_by_recomputing_them() -> None:
    judge = SupportJudge()  # rules only: no model is asked about a conclusion
    right = "So Vellmoor Central is older."
    claims = [Claim(right, s, r, v, together=tuple(OPENED)) for s, r, v in OPENED]
    assert judge.judge(claims) == [True, True]
    wrong = [Claim("So Tarn Junction is older.", s, r, v, together=tuple(OPENED)) for s, r, v in OPENED]
    assert judge.judge(wrong) == [False, False]
    assert not is_conclusion("Vellmoor Central is older than the railway.")  # a plain sentence: the rules decide
