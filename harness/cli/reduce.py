"""`python -m harness reduce CASE_ID --target T [--mesa PATH] [--vk-without ...] [-o DIR] [--max-runs N]`:
shrinks a failing case (fixed-list or explored) to the simplest case of its family's space that
fails the same way; prints its id and writes its reproducers to DIR.
Exit 0: reduced (or already minimal); 1: the case does not fail on T; 2: bad input."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.base import options
from harness.base.errors import UsageError
from harness.cli.explore import settings_of, target_options, vk_without
from harness.executor import targets as targets_mod
from harness.explore import findings as findings_mod
from harness.explore import search
from harness.run import export
from harness.explore.driver import TargetUnavailable, driver
from harness.explore.signature import finding_key, is_finding, reduction_key
from harness.sources import catalog
from harness.sources.explored import id_codec as ids, space

# Reduction runs each candidate alone, so it leaves --batch out.
REDUCE_OPTIONS = ("target", *options.but(options.SETTINGS, batch="reduction runs each candidate case alone"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("case_id")
    parser.add_argument("-o", "--output", type=Path, default=None, help="where the reduced case's reproducers go")
    parser.add_argument("--max-runs", type=int, default=300)
    target_options(parser, REDUCE_OPTIONS, {})


def run(args: argparse.Namespace) -> int:
    try:
        case = catalog.find(args.case_id)
        settings = settings_of(args, REDUCE_OPTIONS)
        targets_mod.get(args.target)
    except UsageError as exc:                   # a case id, a target, a Mesa
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
        with driver(args.target, settings) as run:
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
    finding = findings_mod.Finding(finding_key(reduced, result.outcome if result else outcome),
                                   reduced, result.outcome if result else outcome, case, outcome, how, [case.id])
    path = findings_mod.write(output / export.file_stem(case.id)[:80],
                              {"reduced_from": case.id, "target": args.target}, [finding],
                              {"target": args.target, "mesa": args.mesa, "vk_without": list(vk_without(args))})
    before, after = findings_mod.case_size(case), findings_mod.case_size(reduced)
    print(f"  {how}\n  size before: {before}\n  size after:  {after}")
    print(f"  {reduced.description}")
    print("  " + "\n  ".join(finding.reduced_outcome.message.splitlines()[:3]))
    print(f"reduced: {reduced.id}\nreproducers: {path.parent}")
    return 0
