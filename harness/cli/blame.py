"""`python -m harness blame CASE_ID... [--mesa PATH]...`: the evidence table and the component at
fault (harness/triage/blame.py, docs/triage.md)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from harness.cli import options
from harness.mesa import runtime as mesa
from harness.sources import catalog
from harness.triage import blame

HELP = "run a failing case on every setup that tells the components apart; print the evidence and the " \
       "component (docs/triage.md)"


def add_arguments(cmd) -> None:
    cmd.add_argument("case_ids", nargs="+", metavar="CASE_ID")
    cmd.add_argument("--mesa", action="append", default=[], metavar="PATH",
                     help="a Mesa to run it on (repeatable; 'system' is the system's; default: the system's)")
    cmd.add_argument("--case-timeout", type=float, default=20.0, metavar="SECONDS")
    cmd.add_argument("--validation-layer-path", default="", metavar="DIR",
                     help="a folder with a (newer) validation layer's JSON, searched before the system's")
    cmd.add_argument("--failure", default="", metavar="REGEX",
                     help="the failure under triage, searched in each row's first line: a row failing otherwise "
                          "(another known defect) is set aside, and the verdict lists it")
    options.shader_tests(cmd)


def run(args) -> int:
    """Exit 0 where every case's component is named, 1 where one is undecided."""
    cases = [catalog.find(case_id, args.shader_tests) for case_id in args.case_ids]
    try:
        re.compile(args.failure)
    except re.error as e:
        print(f"python -m harness blame: --failure {args.failure!r}: {e}", file=sys.stderr)
        return 2
    builds = [None if m == "system" else mesa.chosen(m) for m in (args.mesa or ["system"])]
    if args.validation_layer_path and not Path(args.validation_layer_path, "VkLayer_khronos_validation.json").is_file():
        print(f"python -m harness blame: no VkLayer_khronos_validation.json in {args.validation_layer_path} "
              "(bin/fetch-validation-layer prints such a folder)", file=sys.stderr)
        return 2
    layers, notes = blame.layer_paths(builds, str(Path(args.validation_layer_path).resolve())
                                      if args.validation_layer_path else "")
    for note in notes:
        print(note, flush=True)
    undecided = False
    for case in cases:
        rows = blame.gather(case, builds, args.case_timeout, layers)
        text, verdict = blame.report(case.id, rows, args.failure)
        print(text + "\n", flush=True)
        undecided |= verdict.component == "undecided"
    return 1 if undecided else 0
