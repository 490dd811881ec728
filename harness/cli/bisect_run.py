"""`python -m harness bisect-run CASE_ID... --target T`: for `git bisect run`, exit 0 if the cases
pass, 1 if one fails, 125 if untestable (harness/triage/bisect_run.py)."""
from __future__ import annotations

import argparse

from harness.base import options
from harness.cli import deprecated
from harness.executor import targets as targets_mod
from harness.executor.settings import resolve
from harness.run import baseline, core, gating
from harness.triage import bisect_run as bisect

OPTIONS = ("target", *options.SETTINGS, "flake_retries", "baseline", "flakes", "shader_tests")


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("case_ids", nargs="+", metavar="CASE_ID")
    options.add_arguments(cmd, OPTIONS, {"target": options.ONE, "flake_retries": options.BISECT_RETRIES})
    cmd.add_argument("--repeats", type=int, default=1, metavar="K",
                     help="run each case K times, bad if any run fails, even one a retry or flakes file forgives: "
                          "an intermittent failure (harness bisect --rate: K from the failure rate; default 1)")
    deprecated.alias(cmd, "--runs", "--repeats", type=int, metavar="K")
    bisect.add_failure_argument(cmd)


def run(args: argparse.Namespace) -> int:
    settings = resolve(options.values(args, OPTIONS))
    gate = gating.choose(args.baseline, args.flakes, settings.mesa)
    print(gate.line, flush=True)                        # the first line: what gates the run
    rules = core.Rules(baseline=baseline.load(gate.baselines), flakes=tuple(baseline.load_flakes(gate.flakes)),
                       flake_retries=args.flake_retries)
    return bisect.bisect_run(args.case_ids, targets_mod.get(args.target), settings=settings,
                             shader_tests=args.shader_tests, rules=rules, runs=max(1, args.repeats),
                             failure=bisect.pattern(args.failure), old=bisect.old_state(args.old, args.failure))
