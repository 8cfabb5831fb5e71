"""Parts of speech of relation labels: remembered, and equal to what spaCy says."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kgcite.models.tags import LabelTags, SpacyTagger, Tag, shipped_labels, shipped_tags


def test_the_shipped_table_is_spacys_tags_of_the_shipped_graphs_labels() -> None:
    """Rebuild with `python -m kgcite.models.tags` when this fails (a new spaCy model, new data)."""
    shipped = LabelTags(cache=None)._known
    labels = shipped_labels()
    assert labels and set(shipped) == labels
    assert shipped == shipped_tags(labels)
    assert shipped["directed by"] == [("directed", "VBN", "VERB"), ("by", "IN", "ADP")]


class Counting:
    """spaCy's tagger, counting the labels it is asked to tag."""

    def __init__(self) -> None:
        self.tagger, self.asked = SpacyTagger(), []  # type: list[str]

    def __call__(self, labels: Sequence[str]) -> list[list[Tag]]:
        self.asked += list(labels)
        return self.tagger(labels)


def test_labels_met_later_are_tagged_once_and_kept_in_the_cache_file(tmp_path: Path) -> None:
    cache = tmp_path / "cache" / "label_tags.json"
    first = Counting()
    book = LabelTags(first, cache=cache)
    assert book.tags("father") == LabelTags(cache=None).tags("father")  # shipped: no tagging
    assert book.many(["entered service", "designed_by label", "entered service"])[0][0] == (
        "entered",
        "VBD",
        "VERB",
    )
    assert first.asked == ["entered service", "designed_by label"] and cache.exists()
    again = Counting()
    assert LabelTags(again, cache=cache).tags("entered service") == book.tags("entered service")
    assert again.asked == []  # a new process reads the cache file


def test_an_unreadable_cache_file_costs_only_time(tmp_path: Path) -> None:
    cache = tmp_path / "label_tags.json"
    cache.write_text("{not json")
    counting = Counting()
    assert LabelTags(counting, cache=cache).tags("entered service")[0][1] == "VBD"
    assert counting.asked == ["entered service"]
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert LabelTags(Counting(), cache=blocked / "label_tags.json").tags("owned by")[1][0] == "by"
