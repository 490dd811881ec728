"""`python -m harness history export|culprit`: the history's runs for other systems, and blame's
verdicts into the history. harness/cli/history.py adds these commands to its own (and --store to
each).

  export --format kcidb RUN_ID|pipeline:ID...    stored runs as KernelCI's KCIDB data, validated
  export --format kcidb --since/--until/--days   every run of the window
  culprit CASE_ID[TARGET] --mesa-version VERSION --component NAME [--reason TEXT]
  culprit --from-blame FILE... [--failure REGEX]  the verdicts on `harness blame --save-evidence`'s rows
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, select

from harness.cli.history_args import BadInput, mesa_version_argument, named_runs, since, store_of, window_arguments
from harness.history import culprits, queries, schema

if TYPE_CHECKING:
    from harness.history import kcidb
from harness.history.store import open_store
from harness.model import ids
from harness.triage import blame_rules
from harness.triage.bisect_run import pattern as failure_pattern

FORMATS = ("kcidb",)
Command = Callable[[argparse.Namespace], int]
# a verdict of saved evidence: (case id, blame's verdict, the Mesas where the case fails)
EvidenceVerdict = tuple[str, blame_rules.Verdict, list[str]]


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands' parsers (harness/cli/history.py adds --store to each, and --json to culprit)."""
    cmd = sub.add_parser("export", help="stored runs as KernelCI's KCIDB data")
    cmd.add_argument("runs", nargs="*", metavar="RUN_ID", help="a run id, or pipeline:ID (all its runs)")
    cmd.add_argument("--format", required=True, choices=FORMATS)
    window_arguments(cmd)
    cmd.add_argument("-o", "--output", type=Path, default=None, help="the file to write (default: standard output)")
    cmd = sub.add_parser("culprit", help="record harness blame's verdict on a case, for the KCIDB export")
    cmd.add_argument("case", nargs="?", help="CASE_ID or CASE_ID[TARGET] (no target: each it failed on)")
    mesa_version_argument(cmd, "the Mesa version the verdict is for, as the runs name it")
    cmd.add_argument("--component", default=None, help=f"the culprit, one of {', '.join(culprits.COMPONENTS)}")
    cmd.add_argument("--reason", default="", help="why (blame's reason)")
    cmd.add_argument("--from-blame", action="append", default=[], type=Path, metavar="FILE",
                     help="the rows `harness blame --save-evidence FILE` wrote: each case's verdict by blame's rules "
                          "(a later file's rows join the first's, as blame --evidence joins them)")
    cmd.add_argument("--failure", default="", metavar="REGEX", help="with --from-blame: blame's --failure")


def _one_line(command: Command) -> Command:
    """Bad input: one line on stderr, exit 2 (harness/cli/history.py says so of the store's errors)."""
    @functools.wraps(command)
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except BadInput as e:
            print(f"python -m harness history {args.history_command}: {e}", file=sys.stderr)
            return 2
    return wrapped


@_one_line
def export(args: argparse.Namespace) -> int:
    from harness.history import kcidb         # jsonschema and kcidb-io: a fifth of a second, export's alone
    if bool(args.runs) == any(x is not None for x in (args.days, args.since, args.until)):
        raise BadInput("give RUN_ID... or a window (--since/--until/--days), one of them")
    with open_store(store_of(args), readonly=True).connect() as connection:
        run_ids = named_runs(connection, args.runs) if args.runs else _window(connection, args)
        data = kcidb.document(_stored(connection, run_ids))
    try:
        kcidb.validate(data)
    except kcidb.InvalidDocument as e:
        raise BadInput(str(e)) from None
    text = json.dumps(data, separators=(",", ":")) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return 0
    args.output.write_text(text)
    counts = ", ".join(f"{len(data.get(name, []))} {name}"
                       for name in ("checkouts", "builds", "tests", "issues", "incidents"))
    print(f"{args.output}: KCIDB {kcidb.SCHEMA.major}.{kcidb.SCHEMA.minor}, valid: {counts}")
    return 0


def _window(connection: Connection, args: argparse.Namespace) -> list[int]:
    """The window's runs, oldest first."""
    found = [r.id for r in reversed(queries.runs(connection, since(args), args.until))]
    if not found:
        raise BadInput("no stored run in the window")
    return found


def _stored(connection: Connection, run_ids: list[int]) -> list[kcidb.Stored]:
    """Each run with its records and the verdicts on its Mesa."""
    from harness.history import kcidb
    prints: dict[int, str] = dict(connection.execute(select(schema.runs.c.id, schema.runs.c.fingerprint)
                                     .where(schema.runs.c.id.in_(run_ids))).all())
    verdicts: dict[str, dict[tuple[str, str], culprits.Culprit]] = {}
    out: list[kcidb.Stored] = []
    for run_id in run_ids:
        run = queries.run(connection, run_id)
        if run is None:                       # named_runs and _window found each
            raise BadInput(f"{run_id}: no such run in the history")
        if run.mesa not in verdicts:
            verdicts[run.mesa] = culprits.of_mesa(connection, run.mesa)
        out.append(kcidb.Stored(run, prints[run_id], queries.records(connection, run_id), verdicts[run.mesa]))
    return out


@_one_line
def culprit(args: argparse.Namespace) -> int:
    if bool(args.case) == bool(args.from_blame):
        raise BadInput("give CASE_ID[TARGET] with --mesa-version and --component, or --from-blame FILE, one of them")
    if args.case and not (args.mesa_version and args.component):
        raise BadInput(f"{args.case}: give --mesa-version VERSION and --component NAME")
    if args.from_blame and (args.mesa_version or args.component or args.reason):
        raise BadInput("--from-blame takes the Mesa, component and reason from the evidence: "
                       "leave out --mesa-version, --component and --reason")
    failure_pattern(args.failure)                   # a bad one: one line, exit 2 (harness/__main__.py)
    try:
        found = evidence_verdicts(args.from_blame, args.failure)
    except ValueError as e:
        raise BadInput(str(e)) from None
    open_store(store_of(args), readonly=True).dispose()        # a store that is not there is not made
    with open_store(store_of(args)).begin() as connection:    # all or nothing
        if args.case:
            named = ids.split(args.case)
            name, target = named if named else (args.case, None)
            try:
                recorded = culprits.record(connection, name, target, args.mesa_version, args.component, args.reason)
            except culprits.CulpritError as e:
                raise BadInput(str(e)) from None
            skipped: list[str] = []
        else:
            recorded, skipped = _record_verdicts(connection, found)
    if getattr(args, "json", False):
        print(json.dumps({"recorded": [c.to_json() for c in recorded], "not_recorded": skipped}, indent=1))
        return 0
    for c in recorded:
        print(f"{ids.key(c.name, c.target)} on Mesa {c.mesa}: {c.component}")
    for line in skipped:
        print(f"not recorded: {line}")
    return 0


def evidence_verdicts(paths: list[Path], failure: str = "") -> list[EvidenceVerdict]:
    """(case id, blame's verdict by its own rules, the Mesas where the case fails) for each case of
    saved evidence; a later file's rows join the first's as `blame --evidence` joins them.
    `failure`: blame's --failure (rows failing otherwise are set aside). ValueError names a bad file."""
    from harness.triage import blame        # the executor comes with it: only where evidence is read
    rows: dict[str, list[blame_rules.Row]] = {}
    for path in paths:
        for name, found in blame.recorded(path).items():
            rows[name] = blame.merge(rows[name], found)[0] if name in rows else found
    return [(name, blame_rules.judge(table, failure), _failing_mesas(table, failure)) for name, table in rows.items()]


def _failing_mesas(rows: list[blame_rules.Row], failure: str) -> list[str]:
    """The Mesas where the case fails (of `failure`) on a setup of that Mesa alone: the verdict's."""
    by_mesa: dict[str, list[blame_rules.Row]] = {}
    for r in rows:
        by_mesa.setdefault(r.mesa, []).append(r)
    return [mesa for mesa, group in by_mesa.items()
            if any(r.status in blame_rules.FAILING and not r.setup.startswith(blame_rules.MIXED)
                   for r in blame_rules.set_aside(group, failure)[0])]


def _record_verdicts(connection: Connection,
                     found: list[EvidenceVerdict]) -> tuple[list[culprits.Culprit], list[str]]:
    """Each decided verdict, recorded for every Mesa where the case failed in blame's rows and in
    the history; what was not recorded, one line each (an undecided verdict, a failure not stored)."""
    recorded: list[culprits.Culprit] = []
    skipped: list[str] = []
    for name, verdict, mesas in found:
        if verdict.component not in culprits.COMPONENTS:
            skipped.append(f"{name}: {verdict.component} ({verdict.reason})")
            continue
        for mesa in mesas:
            try:
                recorded += culprits.record(connection, name, None, mesa, verdict.component, verdict.reason)
            except culprits.CulpritError as e:
                skipped.append(str(e))
    return recorded, skipped


COMMANDS: dict[str, Command] = {"export": export, "culprit": culprit}
