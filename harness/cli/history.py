"""`python -m harness history COMMAND`: the results history (harness/history).

  ingest RESULTS...        results folders, results.json, JUnit or results.csv (a pipeline's artifacts as they are)
  runs                     the stored runs, newest first, with their counts per target
  case CASE_ID[TARGET]     a case's status in each run, its transitions, the last good and first bad runs
  flakes                   failure rates over a window, with the 95% interval, and whether fixed
  diff OLD NEW             what changed between two stored runs or pipelines (as `harness compare`)
  lines --mesa-version V   baseline and flakes lines with their evidence
  bisect CASE_ID[TARGET] --tree MESA   `harness bisect` over the last good and first bad runs' Mesa,
                           k runs a step for an intermittent failure (its rate since the first bad run)
  export --format kcidb    stored runs (RUN_ID... or a window) as KernelCI's KCIDB data, validated
  culprit CASE_ID[TARGET]  record harness blame's verdict (--component, --mesa-version; or --from-blame FILE)
  prune --keep-days N | --keep-runs N   delete the runs neither keeps (the newest N of each lane, the
                           last N days; never a lane's newest), with their results, in one
                           transaction; --dry-run lists them

Every command takes `--store FILE|URL` (default $HARNESS_HISTORY, else ./history.sqlite; a
PostgreSQL database as postgresql+psycopg://user@host/db) and `--json`. The flags that choose stored
runs are named for what they filter (harness/cli/history_args.py): --of-target, --lane,
--mesa-version, --last-runs, --days/--since/--until.
"""
from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
from pathlib import Path

from harness.cli import deprecated, history_export
from harness.cli.history_args import (BadInput, last_runs_argument, mesa_version_argument, named_runs, of_target_argument, since,
                                      store_argument, store_of, window_arguments)
from harness.history import ingest as ingest_mod, lines, prune as prune_mod, queries, sources
from harness.history.store import StoreError, open_store, shown
from harness.model import defects, ids
from harness.model.status import FAILING_KINDS, KNOWN, LOOKS, RateKind
from harness.results import compare, defect_groups
from harness.results.files import ResultsError


def _window(parser: argparse.ArgumentParser) -> None:
    window_arguments(parser)
    of_target_argument(parser)
    parser.add_argument("--lane", default=None, help="this lane only: a CI job's name, or 'mesa VERSION'")


def add_arguments(top: argparse.ArgumentParser) -> None:
    top.description = __doc__
    store_argument(top)
    sub = top.add_subparsers(dest="history_command", metavar="COMMAND", required=True)
    cmd = sub.add_parser("ingest", help="store runs")
    cmd.add_argument("results", nargs="+", help="results folders or files, searched below")
    cmd.add_argument("--one-run", action="store_true", help="everything given is one run (its shards)")
    cmd.add_argument("--selftest", action="store_true",
                     help="the files are pytest's JUnit of the harness's self-tests (bin/selftest writes "
                          "results/selftest-junit.xml): cases selftest/..., target and lane selftest")
    cmd.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                     help=f"a run property to set or override, one of {', '.join(sources.SETTABLE)}")
    cmd = sub.add_parser("runs", help="the stored runs")
    _window(cmd)
    cmd.add_argument("--pipeline", default=None)
    last_runs_argument(cmd, 50)
    deprecated.alias(cmd, "--limit", "--last-runs", type=int, metavar="N")
    cmd = sub.add_parser("case", help="a case's history")
    cmd.add_argument("case", help="CASE_ID or CASE_ID[TARGET]")
    cmd.add_argument("--lane", default=None)
    cmd = sub.add_parser("flakes", help="failure rates over a window")
    _window(cmd)
    mesa_version_argument(cmd, "runs of this Mesa version only")
    cmd.add_argument("--all", action="store_true", help="also regressions, fixed and always failing cases")
    cmd.add_argument("--threshold", type=float, default=0.05,
                     help="'fixed?': the confidence that the rate is now below this (default 0.05)")
    cmd = sub.add_parser("diff", help="what changed between two runs or pipelines")
    cmd.add_argument("old", help="a run id, or pipeline:ID (all its runs)")
    cmd.add_argument("new")
    cmd = sub.add_parser("lines", help="baseline and flakes lines with their evidence")
    _window(cmd)
    mesa_version_argument(cmd, "the Mesa version the lines are for", required=True)
    cmd.add_argument("--baseline-out", type=Path, default=None)
    cmd.add_argument("--flakes-out", type=Path, default=None)
    history_export.add_commands(sub)
    cmd = sub.add_parser("bisect", help="harness bisect over the range the history names")
    cmd.add_argument("case", help="CASE_ID[TARGET] (the target may be left out where it ran on one)")
    cmd.add_argument("--tree", required=True, help="the Mesa git checkout")
    cmd.add_argument("--lane", default=None)
    cmd.add_argument("--dry-run", action="store_true", help="print the harness bisect command, run nothing")
    cmd.set_defaults(pass_on=True)      # harness bisect's own options (--results-dir, --confidence...)
    cmd = sub.add_parser("prune", help="delete the runs neither --keep-days nor --keep-runs keeps")
    cmd.add_argument("--keep-days", type=float, default=None, metavar="N", help="keep the runs of the last N days")
    cmd.add_argument("--keep-runs", type=int, default=None, metavar="N", help="keep the newest N runs of each lane")
    cmd.add_argument("--dry-run", action="store_true", help="say what would be deleted, delete nothing")
    for name, command in sub.choices.items():
        store_argument(command, argparse.SUPPRESS)          # before or after the command
        if name not in ("lines", "export", "bisect"):           # export's KCIDB is JSON already
            command.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    try:
        return COMMANDS[args.history_command](args)
    except BrokenPipeError:                 # `... | head`: the reader has what it wanted
        sys.stderr.close()
        return 0
    except (StoreError, ResultsError, BadInput, queries.BisectRangeError) as exc:
        print(f"python -m harness history {args.history_command}: {exc}", file=sys.stderr)
        return 2


def _print_json(data: object) -> None:
    print(json.dumps(data, indent=1, default=str))


def ingest(args: argparse.Namespace) -> int:
    overrides: dict[str, str] = {}
    for item in args.set:
        name, equals, value = item.partition("=")
        if not equals or name not in sources.SETTABLE:
            raise BadInput(f"--set {item}: expected NAME=VALUE, NAME one of {', '.join(sources.SETTABLE)}")
        overrides[name] = value
    found = sources.runs([Path(p) for p in args.results], overrides, args.one_run, args.selftest)    # all read before any write
    stored = ingest_mod.ingest(open_store(store_of(args)), found)
    if args.json:
        _print_json([{"run": s.run_id, "added": s.added, "results": len(s.run.records), "sources": s.run.sources}
                     for s in stored])
        return 0
    for s in stored:
        what = "stored" if s.added else "already stored, nothing added"
        print(f"run {s.run_id}: {what} ({len(s.run.records)} results, Mesa {s.run.mesa or '?'}, "
              f"{s.run.started.isoformat()}, lane {s.run.lane}): {', '.join(s.run.sources)}")
    return 0


def runs(args: argparse.Namespace) -> int:
    with open_store(store_of(args), readonly=True).connect() as connection:
        found = queries.runs(connection, since(args), args.until, args.of_target, args.lane, args.pipeline, args.last_runs)
    if args.json:
        _print_json([r.to_json() for r in found])
        return 0
    for r in found:
        counts = "; ".join(f"{t}: " + " ".join(f"{c[name]} {name}" for name in queries.COUNTS if c[name])
                           for t, c in sorted(r.targets.items()))
        print(f"run {r.id}  {r.started:%Y-%m-%d %H:%M}  {r.lane}  Mesa {r.mesa}"
              f"{' @' + r.mesa_commit[:12] if r.mesa_commit else ''}"
              f"{'  pipeline ' + r.pipeline if r.pipeline else ''}  {counts}")
    return 0


def _histories(args: argparse.Namespace) -> tuple[str, list[queries.History]]:
    """The case `args.case` names (CASE_ID or CASE_ID[TARGET]) and its histories in `args.lane`."""
    named = ids.split(args.case)
    name, target = named if named else (args.case, None)
    with open_store(store_of(args), readonly=True).connect() as connection:
        return name, queries.history(connection, name, target, args.lane)


def case(args: argparse.Namespace) -> int:
    _, found = _histories(args)
    if not found:
        raise BadInput(f"{args.case}: not in the history")
    if args.json:
        _print_json([h.to_json() for h in found])
        return 0
    for h in found:
        print(f"{ids.key(h.name, h.target)}  lane {h.lane}: "
              + "".join(_glyph(p) for p in h.points) + "  (oldest first; . pass, x known failure, F fail, "
              "C crash, T timeout, f flake, s skip, E harness error)")
        rate = h.rate
        low, high = rate.interval
        print(f"  {rate.failed}/{rate.runs} runs failed ({rate.rate:.0%}, 95% CI {low:.0%}-{high:.0%}), {rate.kind}, "
              f"{rate.clean_since} clean runs since the last failure")
        for a, b in h.transitions:
            print(f"  run {a.run.id} ({a.run.started:%Y-%m-%d}, Mesa {a.run.mesa}) {a.status} -> "
                  f"run {b.run.id} ({b.run.started:%Y-%m-%d}, Mesa {b.run.mesa}) {b.status}")
        good, bad = h.last_good, h.first_bad
        if bad is not None:
            print(f"  first bad: run {bad.run.id}, {bad.run.started:%Y-%m-%d %H:%M}, Mesa {bad.run.mesa} "
                  f"{bad.run.mesa_commit or ''} {('pipeline ' + bad.run.pipeline) if bad.run.pipeline else ''}")
            print(f"    {bad.message.splitlines()[0] if bad.message else bad.status}")
            if good is not None:
                print(f"  last good: run {good.run.id}, {good.run.started:%Y-%m-%d %H:%M}, Mesa {good.run.mesa} "
                      f"{good.run.mesa_commit or ''}")
    return 0


def _glyph(point: queries.Point) -> str:
    return LOOKS[KNOWN if point.known else point.status].glyph


def flakes(args: argparse.Namespace) -> int:
    kinds = FAILING_KINDS if args.all else (RateKind.FLAKY,)
    if not 0 < args.threshold <= 1:
        raise BadInput(f"--threshold {args.threshold}: expected a rate in (0, 1]")
    with open_store(store_of(args), readonly=True).connect() as connection:
        found = queries.rates(connection, since(args), args.until, args.of_target, args.lane, args.mesa_version, kinds)
    grouping = defect_groups.group([flaky_failure(r) for r in found], defects.load_all())
    if args.json:
        named = {key: group.id for group in grouping.new + grouping.known for key in group.keys}
        _print_json([{**r.to_json(args.threshold), "defect": named[ids.key(r.name, r.target)]} for r in found])
        return 0
    print(f"{'rate':>5} {'failed':>9} {'95% CI':>11}  {'kind':9} {'clean':>5} {'fixed?':>6}  case [target] (lane)")
    for r in found:
        low, high = r.interval
        print(f"{r.rate:5.0%} {r.failed:>4}/{r.runs:<4} {low:4.0%}-{high:<4.0%}  {r.kind:9} {r.clean_since:>5} "
              f"{r.confidence_fixed(args.threshold):6.0%}  {ids.key(r.name, r.target)} ({r.lane})")
    print(f"{len(found)} cases; 'fixed?': the confidence that the rate is now below {args.threshold:g}, "
          f"from the clean runs since the last failure")
    print("\n".join(["by defect (new: no baseline listed a failure of it in the window):"] + grouping.lines()))
    return 0


def flaky_failure(rate: queries.Rate) -> defect_groups.Failure:
    """A failing series as a failure to group: new unless a baseline listed one of its failures."""
    return defect_groups.Failure(rate.name, rate.target, rate.mesa[-1] if rate.mesa else "",
                                 rate.statuses[-1] if rate.statuses else "", not rate.known, None, rate.first_failed)


def diff(args: argparse.Namespace) -> int:
    with open_store(store_of(args), readonly=True).connect() as connection:
        old = [r for i in named_runs(connection, [args.old]) for r in queries.records(connection, i)]
        new = [r for i in named_runs(connection, [args.new]) for r in queries.records(connection, i)]
    changes = compare.compare(old, new)
    if args.json:
        _print_json({change.value: [{"case": r.case_id, "target": r.target, "old": r.old, "new": r.new}
                                    for r in rows] for change, rows in changes.changes.items()})
    else:
        print(compare.format_report(changes, f"old: {args.old}", f"new: {args.new}", defects.load_all()))
    return 1 if changes.regressions else 0


def lines_command(args: argparse.Namespace) -> int:
    with open_store(store_of(args), readonly=True).connect() as connection:
        found = queries.rates(connection, since(args), args.until, args.of_target, args.lane, args.mesa_version)
        recent = queries.runs(connection, mesa=args.mesa_version, limit=1)
    renderers = {t: c["renderer"] for r in recent for t, c in r.targets.items()}
    header = f"# from the history ({shown(store_of(args))}), Mesa {args.mesa_version}, {datetime.date.today().isoformat()}"
    registry = defects.load_all()
    baseline = [header] + lines.under_defects(found, lambda rates: lines.baseline_lines(rates, renderers), registry) \
        + lines.fixed_lines(found)
    flaky = [header] + lines.under_defects(found, lambda rates: lines.flakes_lines(rates, renderers), registry)
    for out, text in ((args.baseline_out, baseline), (args.flakes_out, flaky)):
        if out is not None:
            out.write_text("\n".join(text) + "\n")
    if args.baseline_out is None:
        print("\n".join(["# --- baseline ---"] + baseline))
    if args.flakes_out is None:
        print("\n".join(["# --- flakes ---"] + flaky))
    return 0


def prune(args: argparse.Namespace) -> int:
    if args.keep_days is None and args.keep_runs is None:
        raise BadInput("give --keep-days N, --keep-runs N or both (a run either keeps is kept)")
    if args.keep_days is not None and not args.keep_days > 0:
        raise BadInput(f"--keep-days {args.keep_days:g}: expected a number of days above 0")
    if args.keep_runs is not None and args.keep_runs < 1:
        raise BadInput(f"--keep-runs {args.keep_runs}: expected a number of runs of at least 1")
    open_store(store_of(args), readonly=True).dispose()        # a store that is not there is not made
    with open_store(store_of(args)).connect() as connection:
        with connection.begin() as transaction:                 # all or nothing; a dry run rolls back
            pruned = prune_mod.prune(connection, args.keep_days, args.keep_runs)
            if args.dry_run:
                transaction.rollback()
    if args.json:
        _print_json({**pruned.to_json(), "dry_run": args.dry_run})
        return 0
    verb = "would delete" if args.dry_run else "deleted"
    print(f"{verb} {len(pruned.runs)} runs ({pruned.results} results, {pruned.messages} messages no run "
          f"refers to any more, {pruned.cases} cases), kept {pruned.kept} "
          f"runs{': ' + ' '.join(map(str, pruned.runs)) if pruned.runs else ''}")
    return 0


def bisect(args: argparse.Namespace) -> int:
    from harness.triage import mesa_bisect
    name, found = _histories(args)
    failing = [(h, first_bad) for h in found if (first_bad := h.first_bad) is not None]
    if len(failing) != 1:
        where = ", ".join(f"[{h.target}] lane {h.lane}" for h, _ in failing) or "none"
        raise BadInput(f"{args.case}: {len(failing)} failing histories ({where}): name one with CASE_ID[TARGET] "
                       f"and --lane")
    ((history, first_bad),) = failing
    if history.target not in mesa_bisect.DRIVERS:
        raise BadInput(f"{history.target}: harness bisect builds and runs {', '.join(sorted(mesa_bisect.DRIVERS))}, "
                       f"not this target")
    good, bad, rate = history.bisect_range()
    argv = [name, "--target", history.target, "--tree", args.tree, "--good", good, "--bad", bad,
            *(["--rate", f"{rate:g}"] if rate < 1 else []), *args.unknown]
    runs = mesa_bisect.runs_per_step(rate) if rate < 1 else 1
    # an intermittent failure can pass by luck: how sure the good end is, from its passing runs
    passes = sum(p.status.value == "pass" and p.run.mesa_rev == good
                 for p in history.points[:history.points.index(first_bad)])
    print(f"history: {ids.key(name, history.target)} in lane {history.lane}: good end Mesa {good} "
          f"({passes} passing run(s): good with confidence {1 - (1 - rate) ** passes:.2%} at this rate), "
          f"first bad run {first_bad.run.id} (Mesa {bad}); rate since {rate:.0%} -> {runs} run(s) a step"
          f"\npython -m harness bisect {shlex.join(argv)}", file=sys.stderr)
    return 0 if args.dry_run else mesa_bisect.main(argv)


COMMANDS: dict[str, history_export.Command] = {
    "ingest": ingest, "runs": runs, "case": case, "flakes": flakes, "diff": diff, "lines": lines_command,
    "bisect": bisect, "prune": prune, **history_export.COMMANDS}
