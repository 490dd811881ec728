"""The order a run's cases run in, and which of them run: target by target (a worker needs one
executor child at a time, and consecutive cases often share a program its child has linked),
--case, the shard, --resume, the skips files and --shuffle; and the cases after one on its target,
which its child is handed ahead (harness/scheduler/pipeline.py)."""
from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from harness.model.case import Case
from harness.pytest_adapter import state as state_mod
from harness.pytest_adapter.items import CaseItem, same_target
from harness.run import baseline


def by_target(items: list[Any], targets: list[str]) -> None:
    """Target by target in the run's order of targets, each in collection order (a stable sort)."""
    rank = {name: i for i, name in enumerate(targets)}
    items.sort(key=lambda item: rank.get(getattr(item, "target", ""), -1))


def modify(config: pytest.Config, items: list[Any]) -> None:
    """Target order, --case (keep only those), sharding (item i goes to shard i mod N, the same
    split on every worker), --resume (drop what has a verdict), the skips files, and --shuffle."""
    state = state_mod.of(config)
    by_target(items, state.targets)
    chosen = set(config.getoption("case"))
    if chosen:
        deselect(config, items, [item for item in items if isinstance(item, CaseItem)
                                 and item.case.id not in chosen and item.name not in chosen])
    if state.shard.n > 1:       # before --resume: a shard is the same cases, resumed or not
        deselect(config, items, [item for i, item in enumerate(items) if not state.shard.picks(i)])
    if state.done:
        deselect(config, items, [item for item in items if isinstance(item, CaseItem) and item.name in state.done])
    for item in items:
        if isinstance(item, CaseItem):
            where = baseline.first_match(state.skips, item.case.id, item.target)
            if where:
                item.add_marker(pytest.mark.skip(reason=f"listed in the skips file ({where})"))
    seed = config.getoption("shuffle")
    if seed is not None:
        random.Random(seed).shuffle(items)


def deselect(config: pytest.Config, items: list[Any], dropped: list[Any]) -> None:
    config.hook.pytest_deselected(items=dropped)
    gone = set(dropped)
    items[:] = [item for item in items if item not in gone]


def following(item: Any, nextitem: Any, order: dict[Any, int] | None, items: list[Any]) -> Iterator[Case]:
    """The cases after this one on its target that will run, in the run order where it is known
    (`order`: each item's place in `items`; without it, the next item only)."""
    place = (order or {}).get(item)
    later = [nextitem] if place is None else items[place + 1:]
    for other in later:
        if not same_target(item, other) or other.get_closest_marker("skip"):
            return
        yield other.case
