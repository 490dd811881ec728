#!/usr/bin/env python3
"""The results history at the scale of years of pipelines: how the static dashboard's export grows
with the runs stored, and what `history prune --keep-runs N` leaves of a large store.

    .venv/bin/python bench/history_scale.py BASE --dir DIR [--sizes 250,500,1000] [--keep-runs 20]
                                            [--pad-to N] [--repeat 2] [--sample 5]

For each size N, a store of N runs made from BASE (a real run's results folder or results.json)
as bench/history_bench.py's `build` makes them (two lanes, planted flakes, regressions and fixes;
the first --sample runs through ingest.ingest, the rest in bulk), in DIR/runs-N/history.sqlite
(kept: a second call reuses it). Then:

- export: `python -m harness dashboard --store S --static OUT`, --repeat times, its wall and CPU
  time, the pages written, and the time per run (linear in runs: the same at every size);
- prune, on a copy of the largest store: `python -m harness history --store S prune --keep-runs
  K --json`, timed; each lane's runs before and after (queries.runs), checked against the bound
  (each lane keeps min(K, what it had)); the file's size before, after the prune and after
  SQLite's VACUUM (the prune leaves freed pages for the next ingests).

Figures go to stdout and, as JSON, to DIR/scale-<time>.json. The bench calls the harness's
commands and its public functions only.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import history_bench  # noqa: E402  (bench/history_bench.py: the runs and the bulk build)

from harness.history import queries  # noqa: E402
from harness.history.store import open_store  # noqa: E402


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def harness(*argv: str, timeout: float = 3600) -> tuple[subprocess.CompletedProcess, float, float]:
    """`python -m harness ARGV...`: its result, wall and CPU time; a failure stops the bench."""
    t, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.run([sys.executable, "-m", "harness", *argv], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout)
    wall, cpu = time.perf_counter() - t, _children_cpu() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"python -m harness {' '.join(argv)}: exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return proc, wall, cpu


def build(args: argparse.Namespace, runs: int) -> Path:
    """The store of `runs` runs (made, or completed where a previous call stopped)."""
    folder = args.dir / f"runs-{runs}"
    options = argparse.Namespace(base=args.base, dir=folder, runs=runs, batch=25, sample=args.sample, seed=args.seed,
                                 pad_to=args.pad_to, backends=["sqlite"])
    folder.mkdir(parents=True, exist_ok=True)
    history_bench.build(options)
    path = folder / "history.sqlite"
    history_bench.checkpoint(path)
    return path


def lanes(path: Path) -> dict[str, int]:
    with open_store(path, readonly=True).connect() as connection:
        return dict(sorted(Counter(r.lane for r in queries.runs(connection)).items()))


def export(path: Path, out: Path, repeat: int) -> dict:
    walls, cpus, said = [], [], ""
    for _ in range(repeat):
        shutil.rmtree(out, ignore_errors=True)
        proc, wall, cpu = harness("dashboard", "--store", str(path), "--static", str(out))
        walls.append(wall)
        cpus.append(cpu)
        said = proc.stdout.strip()
    return {"wall_s": walls, "cpu_s": cpus, "median_wall_s": statistics.median(walls),
            "median_cpu_s": statistics.median(cpus), "said": said,
            "pages": {folder: len(list((out / folder).glob("*.html"))) for folder in ("runs", "cases", "regressions")}}


def prune(largest: Path, work: Path, keep: int) -> dict:
    copy = work / "prune.sqlite"
    shutil.copyfile(largest, copy)
    before, size_before = lanes(copy), copy.stat().st_size
    proc, wall, cpu = harness("history", "--store", str(copy), "prune", "--keep-runs", str(keep), "--json")
    history_bench.checkpoint(copy)
    after, size_pruned = lanes(copy), copy.stat().st_size
    t = time.perf_counter()
    with sqlite3.connect(copy) as connection:
        connection.execute("VACUUM")
    history_bench.checkpoint(copy)              # WAL mode: the vacuumed pages reach the file at a checkpoint
    vacuum_s = time.perf_counter() - t
    kept = {lane: min(keep, count) for lane, count in before.items()}
    return {"keep_runs": keep, "wall_s": wall, "cpu_s": cpu, "said": json.loads(proc.stdout) | {"runs": "..."},
            "lanes_before": before, "lanes_after": after, "bound_kept": after == kept, "bytes_before": size_before,
            "bytes_after_prune": size_pruned, "bytes_after_vacuum": copy.stat().st_size, "vacuum_s": vacuum_s}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path, help="a real run's results folder or results.json")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/history-scale"))
    parser.add_argument("--sizes", type=lambda t: [int(x) for x in t.split(",")], default=[250, 500, 1000])
    parser.add_argument("--keep-runs", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--sample", type=int, default=5, help="the first runs of each store, through ingest.ingest")
    parser.add_argument("--pad-to", type=int, default=0, help="results per run (bench/history_bench.py's --pad-to)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    report: dict = {"argv": argv, "nproc": os.cpu_count(), "sqlite": sqlite3.sqlite_version, "sizes": {}}
    for runs in args.sizes:
        path = build(args, runs)
        figures = export(path, args.dir / f"runs-{runs}" / "site", args.repeat)
        figures |= {"per_run_ms": figures["median_wall_s"] / runs * 1000, "bytes": path.stat().st_size,
                    "load": os.getloadavg()}
        report["sizes"][runs] = figures
        print(f"{runs} runs ({path.stat().st_size / 2**20:.0f} MiB): export {figures['said']}: wall "
              f"{'/'.join(f'{w:.1f}' for w in figures['wall_s'])} s (CPU {'/'.join(f'{c:.1f}' for c in figures['cpu_s'])}"
              f" s), {figures['per_run_ms']:.0f} ms a run; pages {figures['pages']}; "
              f"load {' '.join(f'{x:.2f}' for x in figures['load'])}", flush=True)
    largest = build(args, max(args.sizes))
    report["prune"] = pruned = prune(largest, args.dir, args.keep_runs)
    print(f"prune --keep-runs {args.keep_runs} of {max(args.sizes)} runs: {pruned['wall_s']:.1f} s wall "
          f"({pruned['cpu_s']:.1f} s CPU); lanes {pruned['lanes_before']} -> {pruned['lanes_after']} "
          f"(bound kept: {pruned['bound_kept']}); file {pruned['bytes_before'] / 2**20:.1f} MiB -> "
          f"{pruned['bytes_after_prune'] / 2**20:.1f} MiB, after VACUUM {pruned['bytes_after_vacuum'] / 2**20:.1f} MiB "
          f"({pruned['vacuum_s']:.1f} s)")
    out = args.dir / f"scale-{datetime.datetime.now():%Y%m%dT%H%M%S}.json"
    out.write_text(json.dumps(report, indent=1, default=str))
    print(f"wrote {out}")
    return 0 if pruned["bound_kept"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
