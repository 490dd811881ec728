#!/usr/bin/env python3
"""Exploration's rate (cases judged a minute) of this tree and of others, interleaved rounds:

    .venv/bin/python bench/explore_rate.py BEFORE_TREE [ROUNDS]
    .venv/bin/python bench/explore_rate.py --tree NAME=DIR[:--batch 1] ... [--rounds N]
                                           [--target llvmpipe] [--mesa PATH] [--budget 150] [--seed 11]

BEFORE_TREE, DIR: a folder holding another commit's tree (`git archive REV | tar -x -C DIR`).
The first form runs, each round, BEFORE_TREE's exploration, this tree's (batched, its default)
and this tree's with --batch 1 (the variants of 2026-11-25); the second the trees named, each
with the extra arguments after its ':' (e.g. `head=/tmp/head:--batch 1`), in the order given.
Each: `python -m harness explore --family tess --family draw_params --family varyings --seed
SEED --budget BUDGET --target TARGET --mesa MESA --no-reduce` (MESA: the pinned 22.3.6 by
default); it prints the rate while exploring (findings.json's explore_seconds), over the whole
command, the command's CPU (the process tree's, as resource.RUSAGE_CHILDREN counts it) per
judged case, the statuses and the load average, then each variant's best rates and its CPU
per case (mean of the rounds) against the first variant's.
"""
import argparse
import json
import pathlib
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
PINNED = str(ROOT / "mesa" / "22.3.6-1+deb12u2")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", nargs="?", default=None)
    parser.add_argument("rounds_legacy", nargs="?", type=int, default=None)
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=DIR[:ARGS]")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--target", default="llvmpipe")
    parser.add_argument("--mesa", default=PINNED)
    parser.add_argument("--budget", default="150")
    parser.add_argument("--seed", default="11")
    args = parser.parse_args()
    if args.before:
        variants = {"before": (args.before, []), "after": (str(ROOT), []), "after-batch1": (str(ROOT), ["--batch", "1"])}
    else:
        variants = {}
        for text in args.tree:
            name, _, rest = text.partition("=")
            folder, _, extra = rest.partition(":")
            variants[name] = (folder, extra.split())
    rounds = args.rounds_legacy or args.rounds
    explore = ["-m", "harness", "explore", "--family", "tess", "--family", "draw_params", "--family", "varyings",
               "--seed", args.seed, "--budget", args.budget, "--target", args.target, "--mesa", args.mesa, "--no-reduce"]
    print(f"explore_rate: {time.strftime('%Y-%m-%d %H:%M')}, {args.target}, Mesa {args.mesa}, seed {args.seed}, "
          f"budget {args.budget}, {rounds} rounds of {', '.join(variants)}; load {open('/proc/loadavg').read().split()[0]}",
          flush=True)
    seen: dict[str, list] = {name: [] for name in variants}
    for r in range(rounds):
        for name, (cwd, extra) in variants.items():
            out = f"/tmp/explore-rate-{name}-{r}"
            subprocess.run(["rm", "-rf", out])
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.monotonic()
            subprocess.run([sys.executable, *explore, "--results-dir", out, *extra], cwd=cwd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.monotonic() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            judged = explore_s = 0
            statuses: dict[str, int] = {}
            for f in pathlib.Path(out).glob("*/findings.json"):
                d = json.loads(f.read_text())
                judged += d["cases_run"] - d["statuses"].get("skip", 0)
                explore_s += d["explore_seconds"]
                for k, v in d["statuses"].items():
                    statuses[k] = statuses.get(k, 0) + v
            load = open("/proc/loadavg").read().split()[0]
            if not judged or not explore_s:
                print(f"{name:13} round {r + 1}: nothing judged ({out})", flush=True)
                continue
            seen[name].append((60 * judged / explore_s, 60 * judged / wall, 1000 * cpu / judged))
            print(f"{name:13} round {r + 1}: {judged} judged {statuses}; exploring {explore_s:5.1f} s = "
                  f"{60 * judged / explore_s:5.0f}/min; command {wall:5.1f} s wall = {60 * judged / wall:5.0f}/min, "
                  f"{cpu:5.1f} s CPU = {1000 * cpu / judged:5.1f} ms CPU a case; load {load}", flush=True)
    first = next(iter(variants))
    if not seen[first]:
        return 1
    base = (max(x[0] for x in seen[first]), max(x[1] for x in seen[first]),
            sum(x[2] for x in seen[first]) / len(seen[first]))
    for name, runs in seen.items():
        if not runs:
            continue
        best = (max(x[0] for x in runs), max(x[1] for x in runs), sum(x[2] for x in runs) / len(runs))
        print(f"{name:13} best exploring {best[0]:5.0f}/min ({best[0] / base[0]:.2f}x {first}), command "
              f"{best[1]:5.0f}/min ({best[1] / base[1]:.2f}x); CPU {best[2]:5.1f} ms a case "
              f"({base[2] / best[2]:.2f}x less than {first})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
