"""Run families once on a target and pickle (case id, Result) pairs, the input of
bench/judge_bench.py. Usage: collect_observations.py OUT.pickle [--target llvmpipe]
[--families tess,draw_params]."""
from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.sources import catalog
from harness.executor import targets  # noqa: E402
from harness.executor.executor import Executor  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--target", default="llvmpipe")
    parser.add_argument("--families", default="tess,draw_params")
    args = parser.parse_args()
    executor = Executor(targets.get(args.target), case_timeout=120)
    info = executor.info()
    if info.status != "ok":
        sys.exit(f"target {args.target} did not start: {info.message}")
    pairs = []
    start = time.perf_counter()
    for family in args.families.split(","):
        cases = catalog.cases(family)
        for i, case in enumerate(cases):
            if i + 1 < len(cases):
                executor.send(case)
                executor.send(cases[i + 1])
            result = executor.run(case)
            pairs.append((case.id, result))
        print(f"{family}: {len(cases)} cases, {time.perf_counter() - start:.0f} s", flush=True)
    executor.close()
    with open(args.out, "wb") as f:
        pickle.dump({"target": args.target, "info": info.info, "pairs": pairs}, f)


if __name__ == "__main__":
    main()
