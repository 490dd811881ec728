"""Command line of the harness (the conformance run itself is `pytest`, see README).

`python -m harness --help` lists the commands (harness/cli/commands.py, one line each);
`python -m harness COMMAND --help` a command's arguments. Every command is a module with
`add_arguments(parser)` and `run(args)`; this module builds the parser of the command named
and calls it, with one exit-status policy for all.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from typing import Callable

from harness.base import config, plugins
from harness.base.errors import UsageError
from harness.cli.commands import COMMANDS, DEPRECATED, Command, CommandModule, PROG, help_table

# Bad input (UsageError) is one line, exit 2; a harness fault (any other exception) its traceback,
# exit 3. bisect-run exits 128 for both, so that `git bisect run` stops instead of calling the
# commit bad (docs/decisions.md#exit-statuses). parallel's bad input is pytest's usage status, 4
# (harness/cli/parallel.py).
USAGE, FAULT = 2, 3          # 3: pytest's own status for an internal error
# pyproject.toml's optional dependencies that commands import: extra -> its libraries' import names.
# A command that needs one that is missing says which in one line, exit 2 (docs/decisions.md#history-extra).
EXTRAS = {"history": ("sqlalchemy", "alembic", "psycopg", "kcidb_io")}
STOP_BISECTION = 128


def load(command: Command) -> CommandModule:
    module: CommandModule = importlib.import_module(command.module)
    return module


def parser(chosen: str | None) -> tuple[argparse.ArgumentParser, CommandModule | None]:
    """The command line's parser, with the arguments of `chosen` alone: each command module imports
    what it runs (numpy, Jinja2, the executor), and a command started many times (by scripts, by the
    self-tests) should not pay for the others'. The help's table needs none of them."""
    top = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0], epilog=help_table(),
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  usage=f"{PROG} COMMAND [ARGS...]")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND", help=argparse.SUPPRESS)
    module = None
    for name, command in COMMANDS.items():
        cmd = sub.add_parser(name, description=command.summary, prog=f"{PROG} {name}",
                             formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == chosen:
            module = load(command)
            module.add_arguments(cmd)
    return top, module


def command_parser(name: str) -> argparse.ArgumentParser:
    """One command's parser, as `python -m harness NAME` parses it (for the self-tests)."""
    top, _ = parser(name)
    sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    found: argparse.ArgumentParser = sub.choices[name]
    return found


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        plugins.load(config.knobs().plugins)       # $HARNESS_PLUGINS: their backends and targets
    except plugins.PluginError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return USAGE
    if argv[:1] and argv[0] in DEPRECATED:
        new = DEPRECATED[argv[0]]
        print(f"{PROG} {argv[0]}: deprecated, renamed `{PROG} {new}`; the old name goes in the next release",
              file=sys.stderr)
        argv[0] = new
    name = argv[0] if argv[:1] and argv[0] in COMMANDS else None
    return guarded(name or "", lambda: dispatch(name, argv))


def dispatch(name: str | None, argv: list[str]) -> int:
    top, module = parser(name)
    passing = name is not None and COMMANDS[name].passthrough and "--" in argv
    cut = argv.index("--") if passing else len(argv)      # a child's arguments, options and all
    args, unknown = top.parse_known_args(argv[:cut])
    # a command that hands options on to another (history bisect: to harness bisect) says so
    # with the default pass_on=True; any other gets argparse's error for an unknown argument
    if unknown and not getattr(args, "pass_on", False):
        top.parse_args(argv[:cut])
    args.passthrough, args.unknown = argv[cut + 1:], unknown
    assert module is not None               # no command named: parse_known_args has exited
    return module.run(args)


def guarded(command: str, call: Callable[[], int]) -> int:
    """The command's own exit status, or: bad input in one line, a harness fault with its
    traceback; exit 2 or 3 (bisect-run: 128)."""
    stop = STOP_BISECTION if command == "bisect-run" else None
    try:
        return call()
    except SystemExit as exc:           # argparse's usage error (its line is printed): git bisect
        if stop and exc.code == USAGE:  # run would take 2 for a bad commit
            return stop
        raise
    except UsageError as exc:
        print(f"{PROG} {command}: {exc}", file=sys.stderr)
        return stop or USAGE
    except Exception as exc:                                        # a harness bug: say where,
        missing = missing_extra(exc)                                # unless an extra is not installed
        if missing:
            extra, module = missing
            print(f"{PROG} {command}: needs the '{extra}' extra, not installed here (no module "
                  f"{module}): pip install 'gl-layer-harness[{extra}]', or in a checkout "
                  f".venv/bin/python -m pip install -e '.[{extra}]' (bin/selftest installs it)", file=sys.stderr)
            return stop or USAGE
        traceback.print_exc()
        print(f"{PROG} {command}: harness error (the traceback above)", file=sys.stderr)
        return stop or FAULT


def missing_extra(exc: BaseException) -> tuple[str, str] | None:
    """(extra, module) when `exc` is the import of a library of an extra (EXTRAS) that is missing."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    return next(((extra, exc.name) for extra, modules in EXTRAS.items() if exc.name.split(".")[0] in modules), None)


if __name__ == "__main__":
    sys.exit(main())
