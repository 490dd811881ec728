"""The one table of `python -m harness` commands: each one's module and one-line summary, which
`--help` lists. A command's module declares its arguments with `add_arguments(parser)` and runs
with `run(args)` (CommandModule); harness/__main__.py imports only the module of the command named."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Protocol

PROG = "python -m harness"


class CommandModule(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


@dataclass(frozen=True)
class Command:
    module: str                 # the module with add_arguments and run
    summary: str                # one line of the help's table
    passthrough: bool = False   # takes `-- ARGS...` for a child, as args.passthrough


COMMANDS: dict[str, Command] = {
    "targets": Command("harness.cli.targets", "list targets: available or why not, renderer, version, limits"),
    "env": Command("harness.cli.env", "a target's child environment, as shell exports"),
    "exec": Command("harness.cli.exec_program", "run a program (shader_runner, a reproducer) as a target's child",
                    passthrough=True),
    "compare": Command("harness.cli.compare", "compare two runs: regressions, fixes, still failing, new skips"),
    "report": Command("harness.cli.report", "a static HTML dashboard of results"),
    "merge": Command("harness.cli.merge", "join sharded results into one"),
    "matrix": Command("harness.cli.matrix", "chosen cases on several Mesa builds: verdicts per release",
                      passthrough=True),
    "parallel": Command("harness.cli.parallel", "the pytest run over N processes, merged"),
    "bisect": Command("harness.cli.bisect", "bisect a Mesa checkout for the commit that broke cases"),
    "bisect-run": Command("harness.cli.bisect_run", "for `git bisect run`: exit 0 pass, 1 fail, 125 untestable"),
    "blame": Command("harness.cli.blame", "run a failing case on the setups that tell components apart"),
    "export": Command("harness.cli.export", "a standalone reproducer of a case, or a piglit test"),
    "history": Command("harness.cli.history", "the results history (a database): ingest, runs, flakes, lines..."),
    "dashboard": Command("harness.cli.dashboard", "the history's web pages, served locally or exported"),
    "explore": Command("harness.cli.explore", "seeded exploration of case spaces; summary and keep"),
    "reduce": Command("harness.cli.reduce", "shrink a failing case to the simplest that fails the same way"),
}
# Old names that still work for one release, with a one-line warning: old -> new.
DEPRECATED = {"run": "exec"}


def help_table() -> str:
    """The commands, one line each: the help's epilog."""
    width = max(map(len, COMMANDS))
    return "commands:\n" + "\n".join(f"  {name:{width}}  {command.summary}" for name, command in COMMANDS.items())
