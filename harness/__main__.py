"""Command line of the harness (the conformance run itself is `pytest`, see README):

  python -m harness targets [NAME ...] [--json]     what each target is and whether it runs here
  python -m harness env TARGET [--mesa PATH]          the target's environment, as shell exports
  python -m harness run TARGET [--mesa PATH] -- CMD   a program (shader_runner) as the target's child starts
  python -m harness compare OLD NEW                 regressions, fixes, still failing, new skips...
  python -m harness report RESULTS... [-o DIR]      static HTML dashboard
  python -m harness merge OUT SHARD...              join sharded results
  python -m harness matrix --mesa PATH... [SELECTION]  verdicts per Mesa release, regressions, fixes
  python -m harness parallel N|auto [PYTEST ARGS]   the run over N pytest processes, merged
  python -m harness bisect CASE_ID... --tree MESA --good G --bad B [--fixed]   a Mesa commit, bisected
  python -m harness bisect-run CASE_ID... --target T   for `git bisect run` (ids: harness/sources/catalog.py)
  python -m harness blame CASE_ID... [--mesa PATH]...   evidence table and the component at fault
  python -m harness export CASE_ID --format F [-o DIR] standalone reproducer
  python -m harness history ingest|runs|case|flakes|diff|lines|export|bisect   the results history (a database)
  python -m harness dashboard [--static OUT]          the history's web pages, served locally or exported
  python -m harness explore --family F --seed N --budget B --target T   seeded exploration, findings
  python -m harness reduce CASE_ID --target T         shrink a failing case (harness/cli/explore.py)
"""
from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from typing import Callable

from harness.base import config, plugins
from harness.base.errors import UsageError

# Commands with an argument parser of their own: name -> (module, its main(argv) function).
OWN_PARSERS = {"report": ("harness.report.html", "main"), "matrix": ("harness.cli.matrix", "main"),
               "explore": ("harness.cli.explore", "explore_main"), "reduce": ("harness.cli.explore", "reduce_main"),
               "bisect": ("harness.triage.mesa_bisect", "main"), "parallel": ("harness.cli.parallel", "main"),
               "history": ("harness.cli.history", "main"), "dashboard": ("harness.cli.dashboard", "main")}
# The others: name -> module under harness/cli/ with HELP, add_arguments(parser) and run(args).
COMMANDS = {"targets": "targets", "env": "env", "run": "run", "compare": "compare", "merge": "merge",
            "bisect-run": "bisect_run", "blame": "blame", "export": "export"}
# Bad input (UsageError) is one line, exit 2; a harness fault (any other exception) its traceback,
# exit 3. bisect-run exits 128 for both, so that `git bisect run` stops instead of calling the
# commit bad (docs/decisions.md#exit-statuses). parallel's bad input is pytest's usage status, 4.
USAGE, FAULT = 2, 3          # 3: pytest's own status for an internal error
# pyproject.toml's optional dependencies that commands import: extra -> its libraries' import names.
# A command that needs one that is missing says which in one line, exit 2 (docs/decisions.md#history-extra).
EXTRAS = {"history": ("sqlalchemy", "alembic", "psycopg", "kcidb_io")}
STOP_BISECTION = 128
PYTEST_USAGE = 4


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        plugins.load(config.knobs().plugins)       # $HARNESS_PLUGINS: their backends and targets
    except plugins.PluginError as exc:
        print(f"python -m harness: {exc}", file=sys.stderr)
        return USAGE
    if argv[:1] and argv[0] in OWN_PARSERS:
        module, function = OWN_PARSERS[argv[0]]
        command = argv[0]
        call = lambda: getattr(importlib.import_module(module), function)(argv[1:])  # noqa: E731
        if command != "parallel":
            return guarded(command, call)
        from harness.scheduler.processes import ParallelError      # numpy and more: parallel's only
        try:
            return guarded(command, call, passes=(ParallelError,))
        except ParallelError as exc:                    # parallel: pytest's usage-error status
            print(f"python -m harness parallel: {exc}", file=sys.stderr)
            return PYTEST_USAGE
    parser = argparse.ArgumentParser(prog="python -m harness")
    sub = parser.add_subparsers(dest="command", required=True)
    # the command named, alone: each command module imports what it runs (numpy, Jinja2, the
    # executor), and a command started many times (by scripts, by the self-tests) should not pay
    # for all of them; any other first word gets every command, for the usage and --help
    chosen = {argv[0]: COMMANDS[argv[0]]} if argv[:1] and argv[0] in COMMANDS else COMMANDS
    modules = {name: importlib.import_module(f"harness.cli.{module}") for name, module in chosen.items()}
    for name, module in modules.items():
        module.add_arguments(sub.add_parser(name, help=module.HELP))
    for name in OWN_PARSERS:
        sub.add_parser(name, help=f"python -m harness {name} --help")
    cut = argv.index("--") if "--" in argv else len(argv)     # `run`'s program, options and all
    program = argv[cut + 1:]
    args = parser.parse_args(argv[:cut])
    if args.command == "run":
        args.program = args.program + program
    return guarded(args.command, lambda: modules[args.command].run(args))


def guarded(command: str, call: Callable[[], int], passes: tuple[type[Exception], ...] = ()) -> int:
    """The command's own exit status, or: bad input in one line, a harness fault with its
    traceback; exit 2 or 3 (bisect-run: 128). Exceptions of `passes` go to the caller."""
    stop = STOP_BISECTION if command == "bisect-run" else None
    try:
        return call()
    except passes:
        raise
    except UsageError as exc:
        print(f"python -m harness {command}: {exc}", file=sys.stderr)
        return stop or USAGE
    except Exception as exc:                                        # a harness bug: say where,
        missing = missing_extra(exc)                                # unless an extra is not installed
        if missing:
            extra, module = missing
            print(f"python -m harness {command}: needs the '{extra}' extra, not installed here (no module "
                  f"{module}): pip install 'gl-layer-harness[{extra}]', or in a checkout "
                  f".venv/bin/python -m pip install -e '.[{extra}]' (bin/selftest installs it)", file=sys.stderr)
            return stop or USAGE
        traceback.print_exc()
        print(f"python -m harness {command}: harness error (the traceback above)", file=sys.stderr)
        return stop or FAULT


def missing_extra(exc: BaseException) -> tuple[str, str] | None:
    """(extra, module) when `exc` is the import of a library of an extra (EXTRAS) that is missing."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    return next(((extra, exc.name) for extra, modules in EXTRAS.items() if exc.name.split(".")[0] in modules), None)


if __name__ == "__main__":
    sys.exit(main())
