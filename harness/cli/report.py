"""`python -m harness report RESULTS... [-o DIR]`: a static HTML dashboard of conformance results
(harness/report/html.py)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.report.html import DEFAULT_OUT, ReportError, write_report

PROG = "python -m harness report"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", nargs="*", type=Path, metavar="RESULTS",
                        help="results directories (holding results.json) or results.json files "
                             "(default: results); several are merged")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT, metavar="DIR",
                        help=f"where index.html and its images go (default: {DEFAULT_OUT})")


def run(args: argparse.Namespace) -> int:
    try:
        index = write_report(args.results or [Path("results")], args.output)
    except ReportError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{PROG}: cannot write the report: {exc}", file=sys.stderr)
        return 2
    print(index)
    return 0
