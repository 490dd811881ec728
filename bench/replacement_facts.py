"""CPU of a fresh replacement child, its facts handed down (`adopt`) or queried again (`info`, as
before harness/executor/executor.py handed them down), in one run: a GL target's children forked
from one spawner (its first child's libraries preloaded), alternating the two ways child by
child. Each fresh child answers its first request, then a core tess case, and its CPU (all its
threads, /proc/PID/stat: 10 ms ticks, hence many children) is read then; then a case that is
the last in its child retires it, and the next child is fresh.

    PYTHONPATH=$PWD .venv/bin/python bench/replacement_facts.py [--target llvmpipe|zink] [--children 40] [--mesa PATH]
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.executor.executor import Executor  # noqa: E402
from harness.executor.targets import get  # noqa: E402
from harness.mesa import runtime  # noqa: E402
from harness.model.status import Reply  # noqa: E402
from harness.sources import catalog  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="llvmpipe", help="a GL target (llvmpipe, zink)")
    parser.add_argument("--children", type=int, default=40, help="fresh children each way")
    parser.add_argument("--mesa", default=None, help="a --mesa build (default: the system's Mesa)")
    args = parser.parse_args()
    tess = tuple(catalog.family_module(ROOT / "tests" / "tess" / "cases.py").generate())
    last = next(case for case in tess if case.last_in_child())
    first = next(case for case in tess if case.requires.profile == "core" and not case.last_in_child())
    executor = Executor(get(args.target), case_timeout=60, fork=True, mesa=runtime.chosen(args.mesa))
    cpu: dict[str, list[float]] = {"adopt": [], "info": []}
    try:
        assert executor.info().status is Reply.OK, executor.info().message
        assert executor.run(last).status is Reply.OK           # the first child retires
        for turn in range(2 * args.children):
            way = ("adopt", "info")[turn % 2]
            executor.adopts = way == "adopt"                   # False: the fresh child queries
            assert executor.run(first).status is Reply.OK
            seconds = executor.child_cpu()
            assert seconds is not None
            cpu[way].append(seconds)
            assert executor.run(last).status is Reply.OK       # retired: the next child is fresh
    finally:
        executor.close()
    for way, values in cpu.items():
        print(f"{way:6} {len(values)} children: mean {1000 * statistics.mean(values):.1f} ms CPU "
              f"(median {1000 * statistics.median(values):.0f}, min {1000 * min(values):.0f}, "
              f"max {1000 * max(values):.0f})")


if __name__ == "__main__":
    main()
