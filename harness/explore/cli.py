"""`python -m harness explore` and `python -m harness reduce`.

  explore --family F [--family G] --seed N|A-B --budget 200|60s|5m --target T [--mesa PATH]
          [--vk-without T1,T2] [--results-dir D] [--reduce-runs N] [--no-reduce] [--shard K/N]
      draws cases from each family's space (the same ones for a seed), runs them on T, reduces
      one failure per raw signature, and writes the deduplicated findings to
      D/<family>/findings.json (D: results/explore/<target>-seed<N>; with a range of seeds,
      each seed's under D/seed<N>). A range is split as a run's cases are: --shard K/N, else
      CI_NODE_INDEX/CI_NODE_TOTAL, takes every N-th seed from the K-th. Exit 0: no finding;
      1: findings; 2: bad input or a target that cannot start.
  explore summary RESULTS...
      a markdown table of the findings.json files under RESULTS (runs of several Mesas and targets).
  explore keep CASE_ID [--note TEXT]
      keeps an explored case as a fixed case of its family (tests/<family>/kept.json).
  reduce CASE_ID --target T [--mesa PATH] [--vk-without ...] [-o DIR] [--max-runs N]
      shrinks a failing case (fixed-list or explored) to the simplest case of its family's space
      that fails the same way; prints its id and writes its reproducers to DIR.
      Exit 0: reduced (or already minimal); 1: the case does not fail on T; 2: bad input.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from harness import catalog, config, mesa as mesa_mod, sharding
from harness import targets as targets_mod
from harness.explore import findings as findings_mod
from harness.explore import compare, ids, kept, search, space
from harness.explore.driver import TargetUnavailable, driver
from harness.explore.signature import is_finding, reduction_key

DEFAULT_REDUCE_RUNS = 150


def _target_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", required=True)
    parser.add_argument("--mesa", default=None, metavar="PATH", help="the Mesa the Mesa targets load")
    parser.add_argument("--vk-without", default="", metavar="T1,T2",
                        help="the Vulkan layer's translations to leave out (lavapipe, system-vk)")
    parser.add_argument("--case-timeout", type=float, default=20.0)


def _vk_without(args) -> tuple[str, ...]:
    return config.split_names(args.vk_without)


def explore_main(argv: list[str]) -> int:
    if argv[:1] == ["keep"]:
        return keep_main(argv[1:])
    if argv[:1] == ["summary"]:
        paths = [p for arg in argv[1:] for p in (sorted(Path(arg).rglob("findings.json")) if Path(arg).is_dir()
                                                 else [Path(arg)])]
        print(findings_mod.summary(paths))
        print("size: stages/draws/entries/vertices/GLSL lines")
        return 0
    parser = argparse.ArgumentParser(prog="python -m harness explore")
    parser.add_argument("--family", action="append", choices=space.FAMILIES, required=True)
    parser.add_argument("--seed", default="0", help="a seed, or a range A-B of them (both included)")
    parser.add_argument("--shard", default="", metavar="K/N",
                        help="run every N-th seed of the range from the K-th (default: $CI_NODE_INDEX/$CI_NODE_TOTAL)")
    parser.add_argument("--budget", default="200",
                        help="cases the target judges (200; skips do not count) or time (60s, 5m), per family")
    parser.add_argument("--results-dir", default=None)
    parser.add_argument("--reduce-runs", type=int, default=DEFAULT_REDUCE_RUNS,
                        help="driver runs allowed to reduce each distinct failure")
    parser.add_argument("--no-reduce", action="store_true")
    parser.add_argument("--baseline", action="append", default=[], metavar="CSV",
                        help="also run the fixed cases this baseline lists as failing, and say which "
                             "findings they find too (and which of them exploration missed)")
    _target_options(parser)
    args = parser.parse_args(argv)
    try:
        budget = search.Budget.parse(args.budget)
        build = mesa_mod.chosen(args.mesa)
        targets_mod.get(args.target)
        seeds = parse_seeds(args.seed)
        shard = sharding.chosen(args.shard, config.knobs())
    except (ValueError, targets_mod.UnknownTarget, mesa_mod.MesaError) as exc:
        print(f"python -m harness explore: {exc}", file=sys.stderr)
        return 2
    mine = [seed for i, seed in enumerate(seeds) if shard.picks(i)]
    if shard.n > 1:                                     # the run's first line says which part it runs
        print(f"explore: {shard.describe('seeds')}: seeds {', '.join(map(str, mine)) or 'none'} "
              f"of {args.seed}", flush=True)
    found_any = False
    try:
        with driver(args.target, build, _vk_without(args), args.case_timeout) as run:
            for seed in mine:
                results = seed_results(args.results_dir, args.target, seed, ranged=len(seeds) > 1)
                for family in args.family:
                    found = explore_family(family, run, argparse.Namespace(**{**vars(args), "seed": seed}),
                                           search.Budget(budget.cases, budget.seconds),
                                           results / family)
                    found_any = found_any or bool(found)
    except TargetUnavailable as exc:
        print(f"python -m harness explore: {exc}", file=sys.stderr)
        return 2
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


def explore_family(family: str, run, args, budget: search.Budget, results: Path) -> list:
    sp = space.get(family)
    started = time.monotonic()
    print(f"explore {family}: seed {args.seed}, budget {args.budget}, target {args.target}"
          + (f", --vk-without {args.vk_without}" if args.vk_without else ""), flush=True)

    def show(sample):
        if is_finding(sample.outcome):
            first = (sample.outcome.message.splitlines() or [""])[0][:160]
            print(f"  {sample.outcome.status}: {sample.case.id}\n    {first}", flush=True)

    samples = search.explore(sp, run, args.seed, budget, on_sample=show)
    explored_s = time.monotonic() - started
    counts: dict[str, int] = {}
    for sample in samples:
        counts[sample.outcome.status.value] = counts.get(sample.outcome.status.value, 0) + 1
    raw: dict[str, list] = {}
    for sample in samples:
        if is_finding(sample.outcome):
            key = str(findings_mod.failure_of(sample.case, sample.outcome))
            raw.setdefault(key, []).append(sample)
    found = []
    for group in raw.values():
        first = group[0]
        reduced, how = first, "not reduced (--no-reduce)"
        if not args.no_reduce:
            result = search.reduce(sp, first.params, run, reduction_key(first.outcome), max_runs=args.reduce_runs)
            if result is None:
                how = "not reduced: no simpler draw reproduced it"
            else:
                reduced, how = result, f"hypothesis shrink ({result.runs} runs)"
        found.append(findings_mod.Finding(
            findings_mod.finding_key(reduced.case, reduced.outcome), reduced.case, reduced.outcome,
            first.case, first.outcome, how, [s.case.id for s in group]))
    merged = findings_mod.merge(found)
    fixed = {}
    if args.baseline:
        fixed = compare.compare(merged, compare.fixed_failures(args.baseline, family, args.target), run)
        for finding, also in zip(merged, fixed["matches"]):
            finding.fixed_also = also
    run_info = {"family": family, "seed": args.seed, "budget": args.budget, "target": args.target,
                "mesa": run.facts.get("mesa", ""), "renderer": run.facts.get("renderer", ""),
                "vk_without": args.vk_without, "cases_run": len(samples), "statuses": counts,
                "explore_seconds": round(explored_s, 1), "seconds": round(time.monotonic() - started, 1),
                "baseline": args.baseline, "fixed_failures": fixed.get("fixed"), "fixed_missed": fixed.get("missed")}
    path = findings_mod.write(results, run_info, merged, {"target": args.target, "mesa": args.mesa,
                                                           "vk_without": list(_vk_without(args))})
    print(f"explore {family}: {len(samples)} cases in {explored_s:.1f} s ({counts}); "
          f"{len(raw)} raw failure signatures, {len(merged)} distinct findings -> {path}")
    for number, finding in enumerate(merged, 1):
        print(f"  {number}. {finding.key}\n     reduced: {finding.reduced.id}\n     {finding.reduced_by}; "
              f"seen {len(finding.seen)}x" + ("" if finding.fixed_also is None else
                                               f"; fixed cases failing so: {len(finding.fixed_also)}"))
    if fixed:
        print(f"  fixed failures in {', '.join(args.baseline)}: {len(fixed['fixed'])} run, "
              f"{len(fixed['missed'])} failing in a way no finding matches")
    return merged


def keep_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness explore keep")
    parser.add_argument("case_id")
    parser.add_argument("--note", default="kept from exploration")
    args = parser.parse_args(argv)
    try:
        file = kept.add(args.case_id, args.note)
    except (catalog.NoSuchCase, KeyError) as exc:
        print(f"python -m harness explore keep: {exc}", file=sys.stderr)
        return 2
    print(f"{args.case_id} kept in {file}")
    return 0


def reduce_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness reduce")
    parser.add_argument("case_id")
    parser.add_argument("-o", "--output", default=None, help="where the reduced case's reproducers go")
    parser.add_argument("--max-runs", type=int, default=300)
    _target_options(parser)
    args = parser.parse_args(argv)
    try:
        case = catalog.find(args.case_id)
        build = mesa_mod.chosen(args.mesa)
        targets_mod.get(args.target)
    except (catalog.NoSuchCase, targets_mod.UnknownTarget, mesa_mod.MesaError) as exc:
        print(f"python -m harness reduce: {exc}", file=sys.stderr)
        return 2
    family = catalog.prefix(case.id)
    params = ids.decode(case.id)[1] if ids.is_explored(case.id) else (
        space.get(family).from_case(case) if family in space.FAMILIES else None)
    if params is None:
        print(f"python -m harness reduce: {case.id}: the {family} exploration space cannot express this case",
              file=sys.stderr)
        return 2
    output = Path(args.output or f"results/reduce/{args.target}")
    try:
        with driver(args.target, build, _vk_without(args), args.case_timeout) as run:
            outcome = run(case)
            print(f"{case.id}[{args.target}]: {outcome.status}")
            if not is_finding(outcome):
                print("nothing to reduce: the case does not fail here")
                return 1
            key = reduction_key(outcome)
            print(f"  reducing while it fails as {key}")
            result = search.reduce(space.get(family), params, run, key, max_runs=args.max_runs)
    except TargetUnavailable as exc:
        print(f"python -m harness reduce: {exc}", file=sys.stderr)
        return 2
    reduced = result.case if result else ids.build(family, params)
    how = f"hypothesis shrink ({result.runs} runs)" if result else "not reduced: no simpler draw reproduced it"
    finding = findings_mod.Finding(findings_mod.finding_key(reduced, result.outcome if result else outcome),
                                   reduced, result.outcome if result else outcome, case, outcome, how, [case.id])
    path = findings_mod.write(output / findings_mod.export.file_stem(case.id)[:80],
                              {"reduced_from": case.id, "target": args.target}, [finding],
                              {"target": args.target, "mesa": args.mesa, "vk_without": list(_vk_without(args))})
    before, after = findings_mod.case_size(case), findings_mod.case_size(reduced)
    print(f"  {how}\n  size before: {before}\n  size after:  {after}")
    print(f"  {reduced.description}")
    print("  " + "\n  ".join(finding.reduced_outcome.message.splitlines()[:3]))
    print(f"reduced: {reduced.id}\nreproducers: {path.parent}")
    return 0
