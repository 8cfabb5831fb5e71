"""The one timings type every result carries."""

from __future__ import annotations

import json

import pytest

from kgcite.timing import Timings

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def test_merging_keeps_stage_order_prefixes_and_adds_llm_calls() -> None:
    graph = Timings({"graph": 0.02}, llm_calls=0)
    docs = Timings({"fetch": 0.1, "rank": 0.3}, llm_calls=2)
    composed = Timings({"generate": 1.5, "verify": 0.2}, llm_calls=1)
    t = Timings().merged(graph).merged(docs, prefix="docs_").merged(composed)
    assert list(t) == ["graph", "docs_fetch", "docs_rank", "generate", "verify"]
    assert t.llm_calls == 3 and graph.llm_calls == 0 and list(graph) == ["graph"]  # the parts are unchanged
    assert t.merged({"total": 2.0}).llm_calls == 3  # a plain mapping adds stages, no calls


def test_it_is_written_as_the_dict_of_stages() -> None:
    t = Timings({"link": 0.0012345, "select": 0.2}, llm_calls=1)
    assert json.loads(json.dumps(t)) == {"link": 0.0012345, "select": 0.2}
    assert t.rounded(3) == {"link": 0.001, "select": 0.2}
    assert "llm_calls=1" in repr(t)
