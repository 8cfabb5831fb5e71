"""How an entity is named to a reader."""

from __future__ import annotations

import pytest

from kgcite.kg.model import Entity, named

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def test_the_id_is_shown_only_where_it_says_something_the_label_does_not() -> None:
    assert Entity("Q206534", "Stephen Crane").named() == "Stephen Crane (Q206534)"
    assert Entity("Port Vessin", "Port Vessin").named() == "Port Vessin"  # a TSV graph: the id is the label
    assert named("Stephen Crane", "Q206534", "[]") == "Stephen Crane [Q206534]"
