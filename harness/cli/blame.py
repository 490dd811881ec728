"""`python -m harness blame CASE_ID... [--mesa PATH]...`: the evidence table and the component at
fault (harness/triage/blame.py, docs/triage.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.base import options
from harness.cli import deprecated
from harness.executor.settings import resolve
from harness.mesa import runtime as mesa
from harness.sources import catalog
from harness.triage import blame, blame_rules
from harness.triage.bisect_run import pattern as failure_pattern


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("case_ids", nargs="+", metavar="CASE_ID")
    # The run's settings are every setup's, the Mesas each plan's and the fields a setup varies its own.
    options.add_arguments(cmd, (*options.SETTINGS, "shader_tests"), {
        "mesa": options.Use(many="here: each a Mesa to run it on, 'system' the system's; default: the system's "
                                 "alone, $HARNESS_MESA not read"),
        "case_timeout": options.TRIAGE_TIMEOUT})
    cmd.add_argument("--validation-layer-path", default="", metavar="DIR",
                     help="a folder with a (newer) validation layer's JSON, searched before the system's")
    cmd.add_argument("--failure", default="", metavar="REGEX",
                     help="the failure under triage, searched in each row's first line: a row failing otherwise "
                          "(another known defect) is set aside, and the verdict lists it")
    cmd.add_argument("--repeats", type=int, default=1, metavar="N",
                     help="run each setup N times, each in a new process: a row fails when one run does "
                          "(an intermittent crash), and says in how many")
    deprecated.alias(cmd, "--runs", "--repeats", type=int, metavar="N")
    cmd.add_argument("--setups", default=",".join(blame_rules.SETUPS), metavar="NAME,...",
                     help=f"the setups to run (default all: {','.join(blame_rules.SETUPS)})")
    cmd.add_argument("--save-evidence", default="", metavar="FILE",
                     help="write the rows gathered here, for --evidence on another machine")
    cmd.add_argument("--evidence", action="append", default=[], metavar="FILE",
                     help="rows gathered on another machine (--save-evidence there, e.g. zink over a GPU's "
                          "Vulkan driver): they join the table for a setup that gave no verdict here, on the "
                          "same Mesa version (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Exit 0 where every case's component is named, 1 where one is undecided."""
    cases = [catalog.find(case_id, args.shader_tests) for case_id in args.case_ids]
    failure_pattern(args.failure)                   # a bad one: one line, exit 2 (harness/__main__.py)
    if args.repeats < 1:
        print(f"python -m harness blame: --repeats {args.repeats}: give 1 or more", file=sys.stderr)
        return 2
    only = tuple(name for name in args.setups.split(",") if name)
    unknown = [name for name in only if name not in blame_rules.SETUPS]
    if unknown or not only:
        print(f"python -m harness blame: --setups {args.setups!r}: give names of {', '.join(blame_rules.SETUPS)}",
              file=sys.stderr)
        return 2
    try:
        recorded = [blame.recorded(Path(path)) for path in args.evidence]
    except ValueError as e:
        print(f"python -m harness blame: --evidence {e}", file=sys.stderr)
        return 2
    builds = [None if m == "system" else mesa.chosen(m) for m in (args.mesa or ["system"])]
    base = resolve(options.values(args, options.SETTINGS), mesa=None)
    if args.validation_layer_path and not Path(args.validation_layer_path, "VkLayer_khronos_validation.json").is_file():
        print(f"python -m harness blame: no VkLayer_khronos_validation.json in {args.validation_layer_path} "
              "(bin/fetch-validation-layer prints such a folder)", file=sys.stderr)
        return 2
    layers, notes = blame.layer_paths(builds, str(Path(args.validation_layer_path).resolve())
                                      if args.validation_layer_path else "")
    for note in notes:
        print(note, flush=True)
    undecided, gathered, plans = False, {}, blame.plan(builds, layers, only)
    for case in cases:
        rows = gathered[case.id] = blame.gather(case, plans, base, args.repeats)
        if args.save_evidence:            # after each case: what ran is kept if a later one is stopped
            blame.save(Path(args.save_evidence), gathered)
        left_out: list[blame_rules.Row] = []
        for evidence in recorded:
            rows, dropped = blame.merge(rows, evidence.get(case.id, []))
            left_out += dropped
        text, verdict = blame.report(case.id, rows, args.failure)
        print(text + "\n", flush=True)
        for row in left_out:
            print(f"  left out, recorded in {row.recorded}: {row.setup} on Mesa {row.mesa} ({row.status})"
                  " -- another Mesa, a setup this machine told, or no verdict", flush=True)
        undecided |= verdict.component == "undecided"
    return 1 if undecided else 0
