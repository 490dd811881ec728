"""`python -m harness merge OUT SHARD...`: sharded results joined into one."""
from __future__ import annotations

from pathlib import Path

from harness.base import provenance
from harness.results import files as results

HELP = "join shard results into OUT"


def add_arguments(cmd) -> None:
    cmd.add_argument("out")
    cmd.add_argument("shards", nargs="+")
    cmd.add_argument("--junit-limit", type=int, default=None, metavar="N",
                     help="at most N failures in junit.xml (default: the shards' own --junit-limit)")
    cmd.add_argument("--junit-link", default=None, metavar="TEMPLATE",
                     help="a link in each JUnit failure, {id} {target} {name} {stem} substituted (default: the shards')")


def run(args) -> int:
    if args.junit_limit is not None and args.junit_limit < 0:
        raise results.ResultsError(f"--junit-limit {args.junit_limit}: expected a number of failures, 0 or more")
    junit = {name: value for name, value in (("limit", args.junit_limit), ("link", args.junit_link))
             if value is not None}
    entries = results.merge([Path(p) for p in args.shards], Path(args.out), junit, provenance.run_properties())
    print(f"{len(entries)} results from {len(args.shards)} shards in {args.out}")
    return 0
