"""Reading a few options out of pytest's arguments, which the scheduler, the fan-out and the release
matrix hand on: an argparse parser of just those options, built from the option table
(harness/base/options.py) and parsed as pytest parses (argparse, no abbreviations: `--opt=value`
and `--opt value`, a short option's `-n4`, a repeated option adding a value), that keeps every
other argument, test paths and unknown options with their values, verbatim and in order."""
from __future__ import annotations

import argparse
from typing import NoReturn, Sequence

from harness.base.errors import UsageError
from harness.base.options import OPTIONS

# pytest's and xdist's own options the harness reads, by field: their flags, and whether they take a value.
PYTEST: dict[str, tuple[tuple[str, ...], bool]] = {
    "junitxml": (("--junitxml", "--junit-xml"), True), "numprocesses": (("-n", "--numprocesses"), True),
    "dist": (("--dist",), True)}


class ArgsError(UsageError, ValueError):
    """An option given without its value: the message names it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ArgsError(message.removeprefix("argument ").replace(": expected one argument", " needs a value"))


def parser(names: Sequence[str]) -> argparse.ArgumentParser:
    """A parser of these options (fields of the table, or of PYTEST), each keeping every value given."""
    built = _Parser(add_help=False, allow_abbrev=False, prog="pytest")
    for name in names:
        if name in PYTEST:
            flags, takes_value = PYTEST[name]
        else:
            flags, takes_value = (OPTIONS[name].flag,), OPTIONS[name].action != "store_true"
        if not takes_value:
            built.add_argument(*flags, dest=name, action="append_const", const="", default=[])
        elif name in OPTIONS and OPTIONS[name].nargs:
            built.add_argument(*flags, dest=name, action="extend", nargs=OPTIONS[name].nargs, default=[])
        else:
            built.add_argument(*flags, dest=name, action="append", default=[])
    return built


def taken(args: Sequence[str], names: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    """(every value given to each of these options, in order: a flag alone's value is ''; the other
    arguments, verbatim and in order). Raises ArgsError for one of them given without its value."""
    found, rest = parser(names).parse_known_args(list(args))
    return {name: getattr(found, name) for name in names}, rest
