"""`python -m harness bisect CASE_ID... --tree MESA --good G --bad B [--fixed]`: the Mesa commit
that broke (or fixed) the cases, bisected; the work is harness/triage/mesa_bisect.py's."""
from __future__ import annotations

import argparse

from harness.triage import mesa_bisect


def add_arguments(parser: argparse.ArgumentParser) -> None:
    mesa_bisect.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return mesa_bisect.command(args)
