"""`python -m harness bisect-run CASE_ID... --target T`: for `git bisect run`, exit 0 if the cases
pass, 1 if one fails, 125 if untestable (harness/triage/bisect_run.py)."""
from __future__ import annotations

from harness.backends.vk import paths
from harness.base import config
from harness.cli import options
from harness.executor import targets as targets_mod
from harness.mesa import runtime as mesa
from harness.run import baseline, core, gating
from harness.triage import bisect_run as bisect

HELP = "exit 0 if the cases pass, 1 if one fails, 125 if untestable"


def add_arguments(cmd) -> None:
    cmd.add_argument("case_ids", nargs="+", metavar="CASE_ID")
    cmd.add_argument("--target", required=True)
    cmd.add_argument("--vk-without", default="")
    for option, _, choices, help in paths.OPTIONS:
        cmd.add_argument(option, choices=choices, default="auto", help=help)
    cmd.add_argument("--flake-retries", type=int, default=1, metavar="N",
                     help="re-run a failing case up to N times; one that then passes is a flake, not bad (default 1)")
    cmd.add_argument("--runs", type=int, default=1, metavar="K",
                     help="run each case K times, bad if any run fails, even one a retry or flakes file forgives: "
                          "an intermittent failure (harness bisect --rate: K from the failure rate; default 1)")
    cmd.add_argument("--baseline", action="append", default=[], metavar="auto|none|FILE",
                     help="the baseline that labels a verdict (default auto: the Mesa's own, harness/run/gating.py); "
                          "its flakes file forgives a listed flake; good or bad is the verdict's")
    cmd.add_argument("--flakes", action="append", default=[], metavar="FILE",
                     help="'REGEX STATUS[,STATUS]' lines: a listed failure is a flake, not bad (repeatable)")
    options.mesa(cmd)
    options.shader_tests(cmd)


def run(args) -> int:
    settings = config.RunSettings(mesa=mesa.chosen(args.mesa), vk_without=config.split_names(args.vk_without),
                                  **{field: getattr(args, field) for _, field, _, _ in paths.OPTIONS})
    gate = gating.choose(args.baseline, args.flakes, settings.mesa)
    print(gate.line, flush=True)                        # the first line: what gates the run
    rules = core.Rules(baseline=baseline.load(gate.baselines), flakes=tuple(baseline.load_flakes(gate.flakes)),
                       flake_retries=args.flake_retries)
    return bisect.bisect_run(args.case_ids, targets_mod.get(args.target), settings=settings,
                             shader_tests=args.shader_tests, rules=rules, runs=max(1, args.runs))
