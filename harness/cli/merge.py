"""`python -m harness merge OUT SHARD...`: sharded results joined into one."""
from __future__ import annotations

import argparse

from pathlib import Path

from harness.base import options, provenance
from harness.results import files as results


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("out")
    cmd.add_argument("shards", nargs="+")
    shards = options.Use(None, "default: the shards' own")
    options.add_arguments(cmd, ("junit_limit", "junit_link"), {"junit_limit": shards, "junit_link": shards})


def run(args: argparse.Namespace) -> int:
    if args.junit_limit is not None and args.junit_limit < 0:
        raise results.ResultsError(f"--junit-limit {args.junit_limit}: expected a number of failures, 0 or more")
    junit = {name: value for name, value in (("limit", args.junit_limit), ("link", args.junit_link))
             if value is not None}
    entries = results.merge([Path(p) for p in args.shards], Path(args.out), junit, provenance.run_properties())
    print(f"{len(entries)} results from {len(args.shards)} shards in {args.out}")
    return 0
