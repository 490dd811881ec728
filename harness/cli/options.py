"""Options several commands share."""
from __future__ import annotations

from harness.sources import catalog


def mesa(cmd) -> None:
    cmd.add_argument("--mesa", default=None, metavar="PATH",
                     help="the Mesa build the Mesa targets load (default $HARNESS_MESA, else the system's)")


def shader_tests(cmd) -> None:
    cmd.add_argument("--shader-tests", action="append", default=[], metavar="DIR",
                     help=f"where to look for the file of a shader_test/ id (repeatable; then "
                          f"${catalog.SEARCH_ENV}, then this checkout's tests/)")
