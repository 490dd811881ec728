"""One command grammar (harness/cli/commands.py): every command in the one table, declared by
add_arguments(parser) and run(args); --help lists each once; the deprecated `run` warns and works;
and no flag means two things across the commands (the run options' flags mean what
harness/base/options.py says wherever a command takes them)."""
from __future__ import annotations

import argparse
import ast
import collections
import re
import subprocess
import sys

import pytest
from conftest import ROOT

from harness.__main__ import command_parser, main
from harness.base import options
from harness.cli.commands import COMMANDS, DEPRECATED

CLI = ROOT / "harness" / "cli"
# Flags outside the option table whose help differs by command, each with its one meaning there:
# a new flag that two commands word differently has to be added here, its meaning checked.
ONE_MEANING = {
    "--days": "a window: the last N days",
    "--dry-run": "say what would be done, do nothing",
    "--failure": "the failure under triage, a regex; a result failing otherwise is set aside (blame searches a "
                 "row's first line, bisect and bisect-run the whole message, where it is the old state)",
    "--format": "the export's format",
    "--json": "print JSON",
    "--lane": "stored runs of this lane only",
    "--last-runs": "the newest N stored runs only",
    "--mesa-version": "a Mesa version as stored runs name it",
    "-o": "where the command writes its output", "--output": "where the command writes its output",
    "--repeats": "run each case or setup N times",
    "--tree": "the Mesa git checkout",
}
# Where a command says, on purpose, that a table option means another thing there (options.Use(meaning=...)).
OWN_MEANING = {("explore", "--jobs")}


def actions(name: str, parser: argparse.ArgumentParser) -> list[tuple[str, argparse.Action]]:
    """(command path, action) of every flag of the parser and its subcommands' parsers."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, child in action.choices.items():
                found += actions(f"{name} {sub}", child)
        elif action.option_strings and action.help is not argparse.SUPPRESS:
            found.append((name, action))
    return found


@pytest.fixture(scope="module")
def flags() -> dict[str, list[tuple[str, argparse.Action]]]:
    by_flag = collections.defaultdict(list)
    for name in COMMANDS:
        for command, action in actions(name, command_parser(name)):
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    by_flag[flag].append((command, action))
    return by_flag


def test_the_help_lists_every_command_once_on_one_line_with_its_summary(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    for name, command in COMMANDS.items():
        mine = [line for line in lines if line.split()[:1] == [name]]
        assert len(mine) == 1 and " ".join(mine[0].split()[1:]) == command.summary, (name, mine)
    assert not [line for line in lines if line.split()[:1] and line.split()[0] in DEPRECATED]


def test_every_command_module_declares_add_arguments_and_run_and_no_main():
    """One grammar: the table names every module under harness/cli/ that declares arguments, and
    none parses an argv of its own."""
    tabled = {command.module for command in COMMANDS.values()}
    for path in sorted(CLI.glob("*.py")):
        functions = {node.name for node in ast.parse(path.read_text()).body if isinstance(node, ast.FunctionDef)}
        module = f"harness.cli.{path.stem}"
        assert "main" not in functions and "parse_args" not in path.read_text(), path
        assert ({"add_arguments", "run"} <= functions) == (module in tabled), path


def test_the_deprecated_run_warns_in_one_line_and_still_runs_the_program():
    proc = subprocess.run([sys.executable, "-m", "harness", "run", "llvmpipe", "--", sys.executable, "-c",
                           "print('ran')"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ran"
    assert proc.stderr.splitlines() == ["python -m harness run: deprecated, renamed `python -m harness exec`; "
                                        "the old name goes in the next release"]


def test_a_flag_has_one_dest_type_and_arity_across_commands(flags):
    mixed = {flag: sorted({(a.dest, getattr(a.type, "__name__", str(a.type)), a.nargs == 0) for _, a in uses})
             for flag, uses in flags.items()}
    assert {flag: kinds for flag, kinds in mixed.items() if len(kinds) > 1} == {}


def test_a_run_options_flag_means_what_the_option_table_says_wherever_it_is_taken(flags):
    """A command may add its default's reason or say several values are taken (options.Use), not
    give the flag another meaning: a filter of stored runs has a flag of its own (--mesa-version)."""
    table = {option.flag: option for option in options.OPTIONS.values()}
    other = sorted(f"{command} {flag}: {action.help}" for flag, uses in flags.items() if flag in table
                   for command, action in uses
                   if not str(action.help).startswith(table[flag].help) and (command, flag) not in OWN_MEANING)
    assert other == []


def test_a_flag_outside_the_table_worded_differently_has_its_one_meaning_written_here(flags):
    table = {option.flag for option in options.OPTIONS.values()}
    varied = {flag for flag, uses in flags.items() if flag not in table and len({a.help for _, a in uses}) > 1}
    assert varied == set(ONE_MEANING)


def test_the_mesa_flag_is_declared_once_in_the_harness():
    """--mesa is the run option's (a Mesa build's path); a command that hands it on names it by
    the table (harness/cli/matrix.py MESA_FLAG)."""
    found = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "harness").rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1) if '"--mesa"' in line]
    assert len(found) == 1 and found[0].startswith("harness/base/options.py:"), found


# The text that starts commands: docs, CI, scripts and self-tests (bench/results/ is a record of
# what was run then, and keeps the names of its day).
STARTS = re.compile(r"python3? -m harness ([a-z][a-z-]*)")


def test_docs_scripts_and_ci_start_only_commands_of_the_table():
    ci_script = ROOT / ".ci" / "run"
    readme = ROOT / "README.md"     # kept apart: test_docs.py would take the two file names for a cited section
    places = [ci_script, readme, *sorted((ROOT / "docs").glob("*.md")),
              *sorted((ROOT / "ci").glob("*.yml")), *sorted((ROOT / "bin").iterdir()),
              *sorted(p for p in (ROOT / "bench").rglob("*") if p.suffix in (".py", ".sh")),
              *sorted((ROOT / "triage").rglob("*.md")), *sorted((ROOT / "tests" / "selftest").rglob("*.py"))]
    unknown = sorted(f"{path.relative_to(ROOT)}: {word}" for path in places if path.is_file()
                     for word in STARTS.findall(path.read_text(errors="replace"))
                     if word not in COMMANDS and path.name != "test_commands.py")
    assert unknown == []
