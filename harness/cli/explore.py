"""`python -m harness explore` (and its summary and keep); `python -m harness reduce` is harness/cli/reduce.py.

  explore --family F [--family G] --seed N|A-B --budget 200|60s|5m --target T [--mesa PATH]
          [--vk-without T1,T2] [--results-dir D] [--reduce-runs N] [--no-reduce] [--continue] [--shard K/N]
          [--jobs N|auto]
      draws cases from each family's space (the same ones for a seed), runs them on T (--jobs:
      in N executor children at once, judged in the order drawn; the same verdicts), reduces
      one failure per raw signature, and writes the deduplicated findings to
      D/<family>/findings.json (D: results/explore/<target>-seed<N>; with a range of seeds,
      each seed's under D/seed<N>). A range is split as a run's cases are: --shard K/N, else
      CI_NODE_INDEX/CI_NODE_TOTAL, takes every N-th seed from the K-th. A time budget bounds the
      whole command, reduction included (ledger.py: what a killed command keeps, --continue).
      Exit 0: no finding; 1: findings; 2: bad input or a target that cannot start; 128+N: signal N.
  explore summary RESULTS...
      a markdown table of the findings.json files under RESULTS (runs of several Mesas and targets).
  explore keep CASE_ID [--note TEXT]
      keeps an explored case as a fixed case of its family (tests/<family>/kept.json).
"""
from __future__ import annotations

import argparse
import gc
import dataclasses
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

from harness.sources import catalog
from harness.base import config, options
from harness.base.config import RunSettings
from harness.base.errors import UsageError
from harness.mesa import runtime as mesa_mod
from harness.run import sharding
from harness.scheduler import layout
from harness.executor import targets as targets_mod
from harness.explore import findings as findings_mod
from harness.explore import search
from harness.explore import coverage as compare
from harness.sources.explored import kept, space
from harness.sources.explored.space import Space
from harness.explore import ledger as ledger_mod
from harness.explore.driver import TargetUnavailable, driver
from harness.executor.settings import resolve
from harness.explore.signature import finding_key, is_finding, reduction_key
from harness.model.status import Status

DEFAULT_REDUCE_RUNS = 150


# Exploration runs cases: the target and the run's settings (reduce.py's REDUCE_OPTIONS leave out
# --batch, as reduction runs each candidate alone).
EXPLORE_OPTIONS = ("target", *options.SETTINGS)


def target_options(parser: argparse.ArgumentParser, names: tuple[str, ...], uses: dict[str, options.Use]) -> None:
    """The target (one, required) and the run's settings, as exploration and reduction take them."""
    options.add_arguments(parser, names, {"target": options.ONE, "case_timeout": options.TRIAGE_TIMEOUT, **uses})


def settings_of(args: argparse.Namespace, names: tuple[str, ...]) -> RunSettings:
    """The run's settings of these options (raises mesa.MesaError for a --mesa that is no Mesa)."""
    return resolve(options.values(args, [name for name in names if name in options.SETTINGS]))


def vk_without(args: argparse.Namespace) -> tuple[str, ...]:
    return config.split_names(args.vk_without)


JOBS_HELP = ("cases in flight: N executor children of the target, each running a case while this process "
             "draws and judges (in the order drawn, so the verdicts and what is judged do not depend on N); "
             f"auto: one per core and one more, up to {layout.MAX_CHILDREN} (harness/scheduler/layout.py children). "
             "Reduction runs one case at a time")

REDUCE_SHARE = 0.25         # of a family's time, kept back for reduction once it has a finding
HANG_REDUCE_RUNS = 10       # runs to reduce a hang: each one that reproduces it costs a case timeout
WRAP_UP = 1.5               # seconds a time budget keeps for writing findings and closing the child (a
                            # loaded 2-core machine took 1.1 s: bench/results/2026-11-26-architecture.md)


class Interrupted(KeyboardInterrupt):
    """SIGTERM, ended as Ctrl-C ends the command: what was judged and found is written."""


def _interrupt(signum: int, frame: object) -> NoReturn:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)           # a second SIGTERM kills
    raise Interrupted(signum)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--family", action="append", choices=space.FAMILIES, default=[],
                        help="a family to explore (repeatable); required but for summary and keep")
    parser.add_argument("--seed", default="0", help="a seed, or a range A-B of them (both included)")
    parser.add_argument("--budget", default="200",
                        help="cases the target judges per family (200; skips do not count), or the whole "
                             "command's time, reduction included (60s, 5m)")
    # not the run option --resume DIR (a run's verdicts to keep): this goes on in the journal
    parser.add_argument("--continue", dest="continue_journal", action="store_true",
                        help="continue the exploration journaled in the results folder (the same command, "
                             "killed or interrupted): no case is judged twice")
    parser.add_argument("--reduce-runs", type=int, default=DEFAULT_REDUCE_RUNS,
                        help="driver runs allowed to reduce each distinct failure")
    parser.add_argument("--no-reduce", action="store_true")
    target_options(parser, EXPLORE_OPTIONS, {
        "target": options.Use(None, "required but for summary and keep", one=True),
        "batch": options.Use(config.BATCH, f"{config.BATCH}: explored cases run batched, failures confirmed alone "
                                           "and a share of passes audited alone; 1: a context each; reduction "
                                           "always runs alone")})
    options.add_arguments(parser, ("jobs", "shard", "results_dir", "baseline"), {
        "jobs": options.Use(layout.AUTO, "default auto", meaning=JOBS_HELP),
        "shard": options.Use("", "every N-th seed of the range from the K-th"),
        "results_dir": options.Use(None, "results/explore/<target>-seed<N>; a range's seeds each in seed<N>/"),
        "baseline": options.Use([], "also run the fixed cases a baseline lists as failing, and say which findings "
                                    "they find too (and which of them exploration missed)")})
    sub = parser.add_subparsers(dest="explore_command", metavar="summary|keep", required=False,
                                help="instead of exploring: a table of findings, or a case kept")
    summary = sub.add_parser("summary", help="a markdown table of the findings.json files under RESULTS")
    summary.add_argument("results", nargs="+", metavar="RESULTS")
    keep = sub.add_parser("keep", help="keep an explored case as a fixed case of its family")
    keep.add_argument("case_id")
    keep.add_argument("--note", default="kept from exploration")


@dataclasses.dataclass
class _Plan:
    """What an explore command runs: its budget, Mesa, this shard's seeds and their folders."""
    budget: search.Budget
    settings: RunSettings
    shard: sharding.Shard
    mine: list[int]
    folders: dict[int, Path]
    clock: ledger_mod.Clock


def _plan(args: argparse.Namespace) -> _Plan:
    command = {"families": args.family, "seed": args.seed, "budget": args.budget, "target": args.target,
               "batch": args.batch, "mesa": args.mesa, "vk_without": args.vk_without,
               "reduce_runs": args.reduce_runs, "no_reduce": args.no_reduce, "baseline": args.baseline}
    budget = search.Budget.parse(args.budget)
    settings = dataclasses.replace(settings_of(args, EXPLORE_OPTIONS),
                                   children=layout.children(args.jobs, os.cpu_count() or 1))
    targets_mod.get(args.target)
    seeds = parse_seeds(args.seed)
    shard = sharding.chosen(args.shard, config.knobs())
    mine = [seed for i, seed in enumerate(seeds) if shard.picks(i)]
    folders = {seed: seed_results(args.results_dir, args.target, seed, ranged=len(seeds) > 1) for seed in mine}
    # each seed's folder journals its own cases; the command's clock counts what every
    # earlier command of this one spent (the same in each folder it wrote)
    spent = max([ledger_mod.start(folders[seed], {**command, "seed": seed}, args.family, args.continue_journal)
                 for seed in mine] or [0.0])
    return _Plan(budget, settings, shard, mine, folders, ledger_mod.Clock(spent))


def _summary(args: argparse.Namespace) -> int:
    paths = [p for arg in args.results for p in (sorted(Path(arg).rglob("findings.json")) if Path(arg).is_dir()
                                                 else [Path(arg)])]
    print(findings_mod.summary(paths))
    print("size: stages/draws/entries/vertices/GLSL lines")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.explore_command == "keep":
        return _keep(args)
    if args.explore_command == "summary":
        return _summary(args)
    if not (args.family and args.target):
        raise UsageError("give --family F and --target T (or the subcommand summary or keep)")
    try:
        plan = _plan(args)
    except (ValueError, OSError, targets_mod.UnknownTarget, mesa_mod.MesaError) as exc:
        print(f"python -m harness explore: {exc}", file=sys.stderr)
        return 2
    mine, clock = plan.mine, plan.clock
    if plan.shard.n > 1:                                # the run's first line says which part it runs
        print(f"explore: {plan.shard.describe('seeds')}: seeds {', '.join(map(str, mine)) or 'none'} "
              f"of {args.seed}", flush=True)
    results = plan.folders[mine[0]] if len(mine) == 1 else Path(args.results_dir or f"results/explore/{args.target}")
    # Cases start until WRAP_UP before the end: then the findings are written and the child closed.
    deadline = None if plan.budget.seconds is None else clock.at(plan.budget.seconds) - WRAP_UP
    found_any = False
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with driver(args.target, plan.settings, mine[0] if mine else 0) as run:
            gc.freeze()         # what start-up made lives to the end: out of every later collection
            parts = [(seed, family) for seed in mine for family in args.family]
            for number, (seed, family) in enumerate(parts):
                now = time.monotonic()          # what is left, shared by the parts still to run
                until = None if deadline is None else now + max(0.0, deadline - now) / (len(parts) - number)
                share = search.Budget(plan.budget.cases, None if until is None else until - now, now)
                found = explore_family(family, run, argparse.Namespace(**{**vars(args), "seed": seed}), share,
                                       plan.folders[seed] / family, clock, until)
                found_any = found_any or bool(found)
    except TargetUnavailable as exc:
        print(f"python -m harness explore: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        signum = exc.args[0] if isinstance(exc, Interrupted) else signal.SIGINT
        print(f"python -m harness explore: stopped by {signal.Signals(signum).name} after "
              f"{clock.elapsed():.1f} s; the cases judged and the findings so far are in {results}; "
              "the same command with --continue goes on", file=sys.stderr)
        return 128 + signum
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(f"explore: {clock.elapsed():.1f} s in all" + (f" (budget {args.budget})" if deadline else ""))
    return 1 if found_any else 0


def parse_seeds(text: str) -> list[int]:
    """'7' -> [7]; '0-9' -> [0, ..., 9]."""
    first, dash, last = text.partition("-")
    if not first.isdigit() or (dash and not last.isdigit()) or (dash and int(last) < int(first)):
        raise ValueError(f"--seed {text!r}: expected a seed N or a range A-B with A <= B")
    return list(range(int(first), int(last if dash else first) + 1))


def seed_results(folder: str | None, target: str, seed: int, ranged: bool) -> Path:
    """Where a seed's findings go: --results-dir (its seed<N>/ for one of a range), else
    results/explore/<target>-seed<N>."""
    if folder is None:
        return Path(f"results/explore/{target}-seed{seed}")
    return Path(folder) / f"seed{seed}" if ranged else Path(folder)


class _Family:
    """One family's exploration as it goes: the samples judged, the failures by raw signature and
    their reductions, and the findings file rewritten as they change."""

    def __init__(self, family: str, run: Any, args: argparse.Namespace, budget: search.Budget, results: Path,
                 ledger: ledger_mod.Ledger, started: float):
        self.family, self.run, self.args, self.budget, self.results, self.ledger = \
            family, run, args, budget, results, ledger
        self.started = started
        self.samples: list[search.Sample] = []
        self.raw: dict[str, list[search.Sample]] = {}                  # raw signature -> the samples failing so
        self.reduced: dict[str, findings_mod.Finding] = {}
        self.fixed: dict[str, Any] = {}
        self.explore_seconds = 0.0
        self.command = {"target": args.target, "mesa": args.mesa, "vk_without": list(vk_without(args))}

    def write(self, pending: str, complete: bool) -> tuple[Path, list[findings_mod.Finding], dict[str, int]]:
        found = []
        for key, group in self.raw.items():
            first = group[0]
            done = self.reduced.get(key) or findings_mod.Finding(
                finding_key(first.case, first.outcome), first.case, first.outcome,
                first.case, first.outcome, pending)
            found.append(dataclasses.replace(done, seen=[s.case.id for s in group]))
        merged = findings_mod.merge(found)
        for finding, also in zip(merged, self.fixed.get("matches") or ()):
            finding.fixed_also = also
        counts: dict[str, int] = {}
        for sample in self.samples:
            counts[sample.outcome.status.value] = counts.get(sample.outcome.status.value, 0) + 1
        args, ledger, facts = self.args, self.ledger, self.run.facts
        info = {"family": self.family, "seed": args.seed, "budget": args.budget, "target": args.target,
                "mesa": facts.mesa, "renderer": facts.renderer,
                "vk_without": args.vk_without, "cases_run": len(self.samples), "statuses": counts,
                "complete": complete, "from_journal": ledger.replayed, "judged_now": ledger.judged,
                "explore_seconds": round(self.explore_seconds, 1),
                "seconds": round(time.monotonic() - self.started, 1), "baseline": args.baseline,
                "fixed_failures": self.fixed.get("fixed"), "fixed_missed": self.fixed.get("missed")}
        return findings_mod.write(self.results, info, merged, self.command), merged, counts

    def show(self, sample: search.Sample) -> None:
        self.samples.append(sample)
        if sample.outcome.status is Status.ORDER_DEPENDENT:         # state leaking between batched cases
            print(f"  {sample.outcome.status}: {sample.case.id}\n    "
                  + "\n    ".join(sample.outcome.message.splitlines()[:3]), flush=True)
        if is_finding(sample.outcome):
            first = (sample.outcome.message.splitlines() or [""])[0][:160]
            print(f"  {sample.outcome.status}: {sample.case.id}\n    {first}", flush=True)
            key = str(findings_mod.failure_of(sample.case, sample.outcome))
            self.raw.setdefault(key, []).append(sample)
            if len(self.raw[key]) == 1:             # a new failure: findings.json says so at once
                if self.budget.seconds is not None and not self.args.no_reduce:
                    self.budget.reserve = REDUCE_SHARE * self.budget.seconds
                self.write(findings_mod.PENDING, complete=False)


def explore_family(family: str, run: Any, args: argparse.Namespace, budget: search.Budget, results: Path,
                   clock: ledger_mod.Clock | None = None, until: float | None = None) -> list[findings_mod.Finding]:
    """Explore one family within `budget`, reduce its failures by `until` (monotonic; None: no
    time limit) and write its findings; every judged case is journaled in `results` as it lands,
    and the findings are rewritten as they change, so that a killed command leaves both."""
    sp = space.get(family)
    started = time.monotonic()
    ledger = ledger_mod.Ledger(results, clock or ledger_mod.Clock(), run, getattr(run, "alone", None))
    print(f"explore {family}: seed {args.seed}, budget {args.budget}, target {args.target}"
          + (f", --vk-without {args.vk_without}" if args.vk_without else "")
          + (f", resuming {len(ledger.known)} judged cases" if ledger.known else ""), flush=True)
    state = _Family(family, run, args, budget, results, ledger, started)
    try:
        search.explore(sp, ledger.judge, args.seed, budget, on_sample=state.show, send=ledger.send,
                       ahead=run.children)
        state.explore_seconds = time.monotonic() - state.started
        groups = list(state.raw.items())
        for number, (key, group) in enumerate(groups):
            state.reduced[key] = _reduce(sp, group, ledger, args, until, len(groups) - number)
            state.write(findings_mod.PENDING, complete=False)
        if args.baseline:
            ledger.deadline = until
            state.fixed = compare.compare(
                findings_mod.merge([dataclasses.replace(f, seen=[]) for f in state.reduced.values()]),
                compare.fixed_failures(args.baseline, family, args.target),
                lambda case: ledger.judge(case, "baseline"))
        path, merged, counts = state.write(findings_mod.PENDING, complete=True)
    except KeyboardInterrupt:
        state.explore_seconds = state.explore_seconds or time.monotonic() - state.started
        state.write(findings_mod.INTERRUPTED, complete=False)
        raise
    finally:
        ledger.close()
    print(f"explore {family}: {len(state.samples)} cases in {state.explore_seconds:.1f} s ({counts}"
          + (f"; {ledger.replayed} from the journal" if ledger.replayed else "")
          + f"); {len(state.raw)} raw failure signatures, {len(merged)} distinct findings -> {path}")
    for number, finding in enumerate(merged, 1):
        print(f"  {number}. {finding.key}\n     reduced: {finding.reduced.id}\n     {finding.reduced_by}; "
              f"seen {len(finding.seen)}x" + ("" if finding.fixed_also is None else
                                               f"; fixed cases failing so: {len(finding.fixed_also)}"))
    if state.fixed:
        print(f"  fixed failures in {', '.join(args.baseline)}: {len(state.fixed['fixed'])} run, "
              f"{len(state.fixed['missed'])} failing in a way no finding matches")
    return merged


def _reduce(sp: Space, group: list[search.Sample], ledger: ledger_mod.Ledger, args: argparse.Namespace,
            until: float | None, left: int) -> findings_mod.Finding:
    """The finding of one raw signature: its first sample reduced within an equal share of the
    time left (`left` reductions to go), a hang within HANG_REDUCE_RUNS runs as well."""
    first = group[0]
    if args.no_reduce:
        result, how = None, "not reduced (--no-reduce)"
    elif until is not None and until <= time.monotonic():
        result, how = None, "not reduced: the budget was spent before its turn"
    else:
        share = None if until is None else (until - time.monotonic()) / left
        ledger.deadline = None if share is None else time.monotonic() + share
        refused = ledger.refused
        runs = min(args.reduce_runs, HANG_REDUCE_RUNS) if first.outcome.status is Status.TIMEOUT else args.reduce_runs
        result = search.reduce(sp, first.params, lambda case: ledger.judge(case, "reduce"),
                               reduction_key(first.outcome), max_runs=runs,
                               stop=None if share is None else lambda: time.monotonic() >= (ledger.deadline or 0.0))
        ledger.deadline, deadline = None, ledger.deadline
        cut = ledger.refused > refused or (deadline is not None and time.monotonic() >= deadline)
        simpler = result is not None and result.case.id != first.case.id
        if cut and not simpler:
            how = f"not reduced: its share of the budget ({share:.1f} s) was spent before a simpler case reproduced it"
        elif cut and result is not None:
            how = f"hypothesis shrink ({result.runs} runs), cut short when its share of the budget ({share:.1f} s) was spent"
        elif result is None:
            how = "not reduced: no simpler draw reproduced it"
        elif not simpler and result.runs >= runs:
            how = f"not reduced: no simpler case reproduced it in {runs} runs (the cap{' for a hang' if runs < args.reduce_runs else ''})"
        else:
            how = f"hypothesis shrink ({result.runs} runs)" + ("" if simpler else ": no simpler case fails this way")
    case, outcome = (result.case, result.outcome) if result else (first.case, first.outcome)
    return findings_mod.Finding(finding_key(case, outcome), case, outcome,
                                first.case, first.outcome, how)


def _keep(args: argparse.Namespace) -> int:
    try:
        file = kept.add(args.case_id, args.note)
    except (catalog.NoSuchCase, KeyError) as exc:
        print(f"python -m harness explore keep: {exc}", file=sys.stderr)
        return 2
    print(f"{args.case_id} kept in {file}")
    return 0
