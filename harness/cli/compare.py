"""`python -m harness compare OLD NEW`: regressions, fixes, still failing, new skips..."""
from __future__ import annotations

import argparse

from harness.model import defects
from harness.results import compare, files as results


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("old")
    cmd.add_argument("new")
    cmd.add_argument("--by-id", action="store_true", help="match cases by id alone: one target against another")


def run(args: argparse.Namespace) -> int:
    diff = compare.compare(results.read(args.old), results.read(args.new), by_id=args.by_id)
    print(compare.format_report(diff, f"old: {args.old}", f"new: {args.new}", defects.load_all()))
    return 1 if diff.regressions else 0
