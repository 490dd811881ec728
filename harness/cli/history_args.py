"""What the history's commands (harness/cli/history.py, history_export.py, dashboard.py) share:
the store argument and its default, the filters of stored runs (each named for what it filters,
never a run option's flag), dates and windows, run names, and the bad-input error."""
from __future__ import annotations

import argparse
import datetime

from sqlalchemy import Connection

from harness.base import config
from harness.history import queries, timestamps
from harness.base.errors import UsageError

DEFAULT_STORE = "history.sqlite"


class BadInput(UsageError, ValueError):
    """A bad argument: one line for the user."""


def store_argument(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    parser.add_argument("--store", default=default, metavar="FILE|URL",
                        help=f"the history: an SQLite file or a database URL (default $HARNESS_HISTORY, else {DEFAULT_STORE})")


def store_of(args: argparse.Namespace) -> str:
    return getattr(args, "store", None) or config.knobs().history or DEFAULT_STORE


def day(text: str) -> datetime.datetime:
    try:
        return timestamps.utc(datetime.datetime.fromisoformat(text))      # a date without a zone: UTC
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD[THH:MM])") from None


def days(text: str) -> float:
    """A number of days back from now (--days): above 0."""
    try:
        count = float(text)
    except ValueError:
        count = 0.0
    if not count > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive number of days")
    return count


def of_target_argument(parser: argparse.ArgumentParser) -> None:
    """The stored runs' target filter: not the run option --target, which chooses targets to run on."""
    parser.add_argument("--of-target", default=None, metavar="NAME", help="the results of this target only")


def mesa_version_argument(parser: argparse.ArgumentParser, help: str, required: bool = False) -> None:
    """A Mesa version as stored runs name it: not the run option --mesa, a Mesa build's path."""
    parser.add_argument("--mesa-version", required=required, default=None, metavar="VERSION", help=help)


def last_runs_argument(parser: argparse.ArgumentParser, default: int | None, more: str = "") -> None:
    """The newest N stored runs: not a count of repeats (--repeats of blame and bisect-run)."""
    parser.add_argument("--last-runs", type=int, default=default, metavar="N",
                        help=f"the newest N runs only ({more}default: {default or 'every run'})")


def window_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--days", type=days, default=None, help="the last N days only")
    parser.add_argument("--since", type=day, default=None, help="runs from this date (UTC)")
    parser.add_argument("--until", type=day, default=None, help="runs up to this date (UTC)")


def since(args: argparse.Namespace) -> datetime.datetime | None:
    """The window's start: --days back from now, else --since."""
    if args.days is not None:
        return datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=args.days)
    start: datetime.datetime | None = args.since
    return start


def named_runs(connection: Connection, names: list[str]) -> list[int]:
    """The runs named (a run id, or pipeline:ID for all of a pipeline's), each once, oldest first."""
    found: list[int] = []
    for text in names:
        if text.startswith("pipeline:"):
            mine = [r.id for r in reversed(queries.runs(connection, pipeline=text.partition(":")[2]))]
        elif text.isdigit():
            mine = [int(text)] if queries.run(connection, int(text)) else []
        else:
            raise BadInput(f"{text}: expected a run id or pipeline:ID")
        if not mine:
            raise BadInput(f"{text}: no such run in the history")
        found += [i for i in mine if i not in found]
    return found
