"""The order a run's cases run in (harness/pytest_adapter/ordering.py): target by target in
collection order, and the cases after one that its child may be handed ahead."""
from __future__ import annotations

from types import SimpleNamespace

from harness.pytest_adapter import ordering
from harness.pytest_adapter.items import CaseItem


class Item(CaseItem):
    """A case item without a collector: what ordering reads of one."""

    @classmethod
    def of(cls, case_id: str, target: str, skipped: bool = False) -> "Item":
        item = object.__new__(cls)          # pytest's nodes are made from a parent; these need none
        item.__dict__.update(target=target, case=SimpleNamespace(id=case_id), skipped=skipped)
        return item

    def get_closest_marker(self, name, default=None):
        return "skip" if name == "skip" and self.skipped else default

    def __repr__(self):
        return f"{self.case.id}[{self.target}]"


def test_target_by_target_each_in_collection_order():
    items = [Item.of("a", "zink"), Item.of("b", "llvmpipe"), Item.of("c", "zink"), Item.of("d", "llvmpipe")]
    ordering.by_target(items, ["llvmpipe", "zink"])
    assert [repr(i) for i in items] == ["b[llvmpipe]", "d[llvmpipe]", "a[zink]", "c[zink]"]


def test_the_cases_handed_ahead_stop_at_another_target_or_a_skip():
    items = [Item.of("a", "t"), Item.of("b", "t"), Item.of("c", "t", skipped=True), Item.of("d", "t"),
             Item.of("e", "u")]
    order = {item: i for i, item in enumerate(items)}
    assert [c.id for c in ordering.following(items[0], items[1], order, items)] == ["b"]
    assert [c.id for c in ordering.following(items[3], items[4], order, items)] == []
    # without the run's order (xdist), the next item only
    assert [c.id for c in ordering.following(items[0], items[1], None, items)] == ["b"]
    assert [c.id for c in ordering.following(items[2], items[3], None, items)] == ["d"]


def test_deselected_items_are_reported_and_dropped():
    items = [Item.of("a", "t"), Item.of("b", "t")]
    reported = []
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: reported.extend(items)))
    ordering.deselect(config, items, [items[1]])
    assert [i.case.id for i in items] == ["a"] and [i.case.id for i in reported] == ["b"]
