"""What a batched run's confirmations and audit did, counted: a pytest plugin and its summary.

    PYTHONPATH=bench .venv/bin/python -m pytest ... --batch K [--audit 1] -p audit_count --results-dir DIR
    .venv/bin/python bench/audit_count.py DIR

The run's records say only the outcome (a batched failure confirmed alone is its alone verdict;
an audited pass that agrees stays a pass). This plugin wraps the run core's `confirm` (harness/
run/core.py) in every pytest process and writes, per process, DIR/audit-count-<pid>.json: each
batched case's batched status, whether it ran alone (a confirmation of a failure, or the audit
of a pass), the alone status and the final one. The summary prints the counts per target and
every case whose alone verdict differs from the batched one, with its batch mates.
"""
from __future__ import annotations

import atexit
import collections
import json
import os
import sys
from pathlib import Path

_rows: list[dict] = []


def pytest_configure(config):
    from harness.run import core

    folder = Path(config.getoption("results_dir"))
    original = core.confirm

    def confirm(case, result, batched, runner, place, rules):
        alone_runs = []
        wrapped = runner.run_alone

        def run_alone(c):
            again = wrapped(c)
            alone_runs.append(again)
            return again
        runner.run_alone = run_alone
        try:
            verdict, res = original(case, result, batched, runner, place, rules)
        finally:
            runner.run_alone = wrapped
        _rows.append({"id": case.id, "target": place.split(":")[0],
                      "first": not result.batch, "batched": batched.status.value,
                      "alone": bool(alone_runs), "final": verdict.status.value,
                      "before": list(result.batch or ())[-8:], "n_before": len(result.batch or ())})
        return verdict, res
    core.confirm = confirm

    def write():
        if _rows:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"audit-count-{os.getpid()}.json").write_text(json.dumps(_rows))
    atexit.register(write)


def summary(folder: Path) -> str:
    # each process of a run writes its own; the scheduler's processes under shards/N (harness/scheduler)
    rows = [r for p in sorted(folder.rglob("audit-count-*.json")) for r in json.loads(p.read_text())]
    out = []
    by_target = collections.defaultdict(list)
    for r in rows:
        by_target[r["target"]].append(r)
    for target, rs in sorted(by_target.items()):
        first = sum(r["first"] for r in rs)
        failed = [r for r in rs if not r["first"] and r["batched"] in ("fail", "crash", "timeout", "error")]
        passed = [r for r in rs if not r["first"] and r["batched"] == "pass"]
        audited = [r for r in passed if r["alone"]]
        differ = [r for r in rs if r["final"] == "order-dependent"]
        out.append(f"{target}: {len(rs)} batched cases ({first} first in their batch, run in a fresh context); "
                   f"{len(failed)} failures confirmed alone ({sum(r['final'] != 'order-dependent' for r in failed)} "
                   f"failing alone too); {len(passed)} later passes, {len(audited)} audited alone "
                   f"({len(audited) / max(1, len(passed)):.0%}), "
                   f"{sum(r['final'] == 'pass' for r in audited)} passing alone too; order-dependent: {len(differ)}")
        for r in differ:
            out.append(f"  order-dependent: {r['id']} ({r['batched']} batched, after {r['n_before']} cases: "
                       f"{', '.join(r['before'])})")
        for r in failed:
            out.append(f"  confirmed: {r['id']}: {r['batched']} batched -> {r['final']}")
    return "\n".join(out) or f"{folder}: no audit-count files"


if __name__ == "__main__":
    print(summary(Path(sys.argv[1])))
