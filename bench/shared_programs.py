"""zink with programs shared between the cases' contexts, on several Mesas: the release matrix of
triage/mesa-25.0.7/zink-program-from-destroyed-context, which the `zink` target works around
(Target.shared_programs off: a program linked in each case's context).

Runs the cases in order in one executor child per Mesa with the program cache on, so a program
linked in case N's context is drawn in case N+1's after that context is destroyed, and prints
each Mesa's counts. Not a conformance verdict (the target forbids the sharing): evidence.

    .venv/bin/python bench/shared_programs.py --mesa mesa/22.3.6-1+deb12u2 --mesa mesa/26.2.6-1
    python3 bench/shared_programs.py --mesa "$HARNESS_MESA" --target zink-system     # over a GPU's driver
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.sources import catalog
from harness.mesa import runtime as mesa
from harness.executor import targets  # noqa: E402
from harness.executor.executor import Executor  # noqa: E402
from harness.oracle.verdict import judge  # noqa: E402

# The triage folder's selection: TCS-less programs, the kind that crashed or read zeros.
PREFIXES = ("tess/no-tcs/quads/equal/types/var/", "tess/no-tcs/triangles/equal/ccw/coords/")


def run(build: mesa.Build, target: str = "zink") -> collections.Counter:
    cases = [c for c in catalog.cases("tess") if c.id.startswith(PREFIXES)]
    executor = Executor(dataclasses.replace(targets.get(target), shared_programs=True), mesa=build, case_timeout=20)
    counts = collections.Counter()
    try:
        for case in cases:
            counts[str(judge(case, executor.run(case), "zink, programs shared").status)] += 1
    finally:
        executor.close()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mesa", action="append", required=True, metavar="PATH")
    parser.add_argument("--target", default="zink", help="zink-system: zink over the machine's own Vulkan driver")
    args = parser.parse_args()
    for path in args.mesa:
        build = mesa.locate(path)
        counts = run(build, args.target)
        print(f"Mesa {build.version}: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
