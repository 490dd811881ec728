#!/usr/bin/env python3
"""The CPU a tess explored case costs, by kind: each kind's first N cases as draws.Plain(SEED)
draws them, judged one after another on a target by one process (harness/explore/driver.py),
its whole process tree's CPU (resource.RUSAGE_CHILDREN) less that of the same process judging
no case (measured before and after, the mean); and how many of the N retire their child
(Case.last_in_child). Sequences are split: `seq+delete` those that delete a program (and so
retire their child), `seq-keep` the others.

    .venv/bin/python bench/explore_kinds.py [--cases 20] [--seed 11] [--target llvmpipe] [--mesa PATH]
"""
from __future__ import annotations

import argparse
import pathlib
import resource
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PINNED = str(ROOT / "mesa" / "22.3.6-1+deb12u2")

ONE = """
import dataclasses, sys
from harness.explore.driver import TRIAGE, driver
from harness.explore import search
from harness.mesa import runtime
from harness.sources.explored import draws, space
kind, n, seed, target, mesa = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
sp, source, cases, seen = space.get("tess"), draws.Plain(seed), [], set()
while len(cases) < n and kind != "none":
    params = sp.draw(source)
    case = None if params is None or params["kind"] != kind.partition("+")[0].partition("-")[0] else search.build(sp, params)
    if case is not None and kind.startswith("seq") and case.last_in_child() != (kind == "seq+delete"):
        case = None
    if case is not None and case.id not in seen:
        seen.add(case.id)
        cases.append(case)
with driver(target, dataclasses.replace(TRIAGE, mesa=runtime.locate(mesa))) as run:
    for case in cases:
        run(case)
print(sum(c.last_in_child() for c in cases))
"""


def cpu_of(args: list[str]) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-c", ONE, *args], cwd=ROOT, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, out.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--target", default="llvmpipe")
    parser.add_argument("--mesa", default=PINNED)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from harness.sources.explored import tess
    common = [str(args.cases), str(args.seed), args.target, args.mesa]
    empty = (cpu_of(["none", *common])[0] + cpu_of(["none", *common])[0]) / 2
    print(f"explore_kinds: {args.cases} cases a kind, seed {args.seed}; a driver judging none: {empty:.2f} s CPU; "
          f"load {open('/proc/loadavg').read().split()[0]}", flush=True)
    for kind in [k for k in tess.KINDS if k != "seq"] + ["seq+delete", "seq-keep"]:
        cpu, retired = cpu_of([kind, *common])
        print(f"{kind:8} {1000 * (cpu - empty) / args.cases:6.1f} ms CPU a case ({retired} of {args.cases} retire "
              f"their child); load {open('/proc/loadavg').read().split()[0]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
