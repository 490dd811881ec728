"""Is a case's rare failure an order dependence or the driver's flake? Runs one case on a target
many times through the executor, as a run does (each run in a context of its own), and counts
its verdicts: alone in one child, alone in a fresh child each, and after the cases that preceded
it in a `--shuffle SEED` order of the same selection (in one child, so that every one of them
ran before it there). docs/decisions.md#shuffled-zink-crash used it:

  python bench/order_or_flake.py CASE_ID --target zink --mesa mesa/22.3.6-1+deb12u2 \\
      --selection test_shuffled_orders --alone 300 --fresh 100 --after 1:60 --after 2:60
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.executor import targets  # noqa: E402
from harness.executor.executor import Executor  # noqa: E402
from harness.mesa import runtime  # noqa: E402
from harness.oracle.verdict import judge  # noqa: E402
from harness.sources import catalog  # noqa: E402


def shuffled_selection() -> list:
    """tests/selftest/e2e/test_reliability.py::test_shuffled_orders_give_the_same_verdicts's 16
    cases, in their collection order (the order --shuffle shuffles)."""
    draws = [c for c in catalog.cases("draw_params") if c.id.startswith("draw_params/DrawArrays") and "glsl450/vs" in c.id][:6]
    varyings = [c for c in catalog.cases("varyings") if "/vs-fs/glsl130compat/" in c.id][:10]
    chosen = {c.id for c in draws + varyings}
    return [c for c in catalog.cases("draw_params") + catalog.cases("varyings") if c.id in chosen]


def count(label: str, runs: int, make, fresh: bool, before: list, case) -> None:
    """`runs` verdicts of `case`, each after `before`, in a fresh executor (make()) each or one."""
    verdicts: collections.Counter[str] = collections.Counter()
    messages: dict[str, str] = {}
    started = time.perf_counter()
    executor = make()
    for _ in range(runs):
        for other in before:
            executor.run(other)
        verdict = judge(case, executor.run(case), executor.target.name)
        verdicts[str(verdict.status)] += 1
        messages.setdefault(verdict.status, verdict.message[:300])
        if fresh:
            executor.close()
            executor = make()
    executor.close()
    print(f"{label}: {runs} runs, {dict(verdicts)}, {time.perf_counter() - started:.0f} s")
    for status, message in messages.items():
        if status != "pass":
            print(f"  {status}: {message}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case")
    parser.add_argument("--target", default="zink")
    parser.add_argument("--mesa", help="a Mesa build (default: the system's)")
    parser.add_argument("--selection", choices=["test_shuffled_orders"], default="test_shuffled_orders")
    parser.add_argument("--alone", type=int, default=0, help="runs alone in one child")
    parser.add_argument("--fresh", type=int, default=0, help="runs alone in a fresh child each")
    parser.add_argument("--after", action="append", default=[], metavar="SEED:RUNS",
                        help="runs after the cases before it in that --shuffle SEED order, a fresh child each")
    args = parser.parse_args()
    mesa = runtime.locate(Path(args.mesa)) if args.mesa else None
    target = targets.get(args.target)
    items = shuffled_selection()
    case = next(c for c in items if c.id == args.case)
    def make() -> Executor:
        return Executor(target, mesa=mesa)
    if args.alone:
        count("alone, one child", args.alone, make, False, [], case)
    if args.fresh:
        count("alone, a fresh child each", args.fresh, make, True, [], case)
    for spec in args.after:
        seed, runs = (int(part) for part in spec.split(":"))
        order = list(items)
        random.Random(seed).shuffle(order)
        before = order[:[c.id for c in order].index(case.id)]
        print(f"--shuffle {seed}: {len(before)} cases before it: {', '.join(c.id for c in before)}")
        count(f"after them, --shuffle {seed}", runs, make, True, before, case)

if __name__ == "__main__":
    main()
