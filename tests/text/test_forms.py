"""The question's form, read from its words; values compared as what they are."""

from __future__ import annotations

import pytest

from kgcite.text.forms import as_kind, comparable, quantity, read_form, same_value, sort_key

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


@pytest.mark.parametrize(
    ("question", "kind", "order"),
    [
        ("Which station is older, Vellmoor Central or Tarn Junction?", "comparison", "older"),
        ("Who was born first, Ada or Byron?", "superlative", "first"),
        ("Which is the deepest lake in Valdmark?", "superlative", "deepest"),
        ("What is the most populous city of Korrin?", "superlative", "most populous"),
        ("Which station has more platforms, A or B?", "comparison", "more platforms"),
        ("Is Lake Orra deeper than Lake Kell?", "comparison", "deeper"),
        ("Did Vellmoor Central open before Tarn Junction?", "comparison", "before"),
        ("How many stations does the railway operate?", "count", None),
        ("What is the number of lakes in Valdmark?", "count", None),
        ("Was Samuel Pike born in Oldmere?", "yesno", None),
        ("Which engineer designed both Vellmoor Central and Ashby Halt?", "intersection", None),
        ("What do Ada and Byron have in common?", "intersection", None),
        # ordinals, "more" without a comparison, a fact after "after": lookups
        ("Who was the first wife of Henry VIII?", "lookup", None),
        ("What is her first name?", "lookup", None),
        # "first" before a participle: when it began, not a comparison
        ("Who runs the theatre where Quiet Engines was first performed?", "lookup", None),
        ("When were the comets found by Anouk Ferrandel first seen?", "lookup", None),
        ("Tell me more about Stephen Crane", "lookup", None),
        ("Who did she marry after the war?", "lookup", None),
        ("Where was Stephen Crane born?", "lookup", None),
    ],
)
def test_the_form_is_read_from_the_words(question: str, kind: str, order: str | None) -> None:
    form = read_form(question)
    assert form.kind == kind
    assert (form.order.word if form.order else None) == order


def test_a_polar_comparison_and_the_counted_noun() -> None:
    assert read_form("Is X older than Y?").polar
    assert not read_form("Which is older, X or Y?").polar
    assert read_form("How many stations does the railway operate?").noun == "stations"
    assert read_form("Which is older?").order.greatest is False  # type: ignore[union-attr]
    assert read_form("Which is longer?").order.dimension == ("length", "long", "duration")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("1872-04-15", "September 1, 1885"),
        ("15 April 1872", "1872-04-16"),
        ("500 BC", "45 AD"),
        ("-0420-01-01", "350 BC"),
        ("1868", "1872-04-15"),
        ("1874-00-00", "1891-06-12"),  # Wikidata's year alone
        ("1874-05-00", "1874-06-12"),
    ],
)
def test_dates_in_any_writing_are_ordered(earlier: str, later: str) -> None:
    a, b = as_kind(earlier, "date"), as_kind(later, "date")
    assert a is not None and b is not None and sort_key(a) < sort_key(b)


def test_numbers_compare_by_amount_and_unit() -> None:
    m, km, kg = quantity("950 m"), quantity("1.2 km"), quantity("40 kg")
    assert m is not None and km is not None and kg is not None
    assert comparable([m, km]) and sort_key(m) < sort_key(km)
    assert not comparable([km, kg])
    assert quantity("1,200") == quantity("1200")
    assert quantity("Vellmoor") is None
    assert as_kind("Vellmoor", "date") is None and as_kind("126 m", "date") is None


def test_same_value_reads_a_year_as_its_dates() -> None:
    assert same_value("1872", "1872-04-15") and same_value("6", "6.0") and same_value("Oldmere", "oldmere")
    assert not same_value("1873", "1872-04-15") and not same_value("Oldmere", "Vellmoor")
