#!/usr/bin/env python3
"""Benchmark of the results history (harness/history): its store of 1,000 runs of a real run's
results, on SQLite and PostgreSQL, and its behaviour under faults.

    .venv/bin/python bench/history_bench.py build   BASE --dir DIR [--runs 1000] [--pad-to N] [--sample 25] [--batch 25]
                                                   [--backends sqlite,postgresql]
    .venv/bin/python bench/history_bench.py measure BASE --dir DIR [--runs 1000] [--pad-to N] [--repeat 3] [--backends ...]
    .venv/bin/python bench/history_bench.py faults  BASE --dir DIR [--pad-to N] [--rounds 3] [--backends ...]

BASE is a real run's results (a results folder or its results.json); `--pad-to N` adds copies of
its records, in order, under `<target>-b`, up to N results a run. From it the bench makes runs by
varying it deterministically (`--seed`; each run from its own index alone):

- runs 0..N-1 spread over 60 days; every 4th run is a second lane (CI job `conformance-sid`,
  Mesa 25.0.7), the others lane `conformance-system` on BASE's Mesa; two runs per pipeline;
- planted flakes: 40 passing cases failing at rates from 1% to 40% (as `flake` or `fail`);
  planted regressions: 15 passing cases failing from some run on (a third on the second lane
  only); planted fixes: 10 of BASE's failures passing from some run on; one run in 10 has a
  one-off timeout of a random case;
- a planted failure's message is a real failure message of BASE (less its "expected Fail
  (baseline): ", its first number varied: 4 variants a case); BASE's own failures keep their
  messages; every duration is jittered (lognormal, 15%).

`build` stores runs 0..--runs-1, resuming where a store stopped: the first --sample through
ingest.ingest (--batch runs a transaction; its time per run printed), the rest by `bulk`: the
same rows ingest.ingest stores (checked equal, table by table, on a 30-run store), made from
BASE's rows and each run's planted changes and written with executemany (SQLite) or COPY
(PostgreSQL), --batch runs a transaction; only a bulk run's fingerprint differs (the hash of its
index). PostgreSQL is ANALYZEd after (autovacuum would have, over 60 days).

`measure` times, --repeat times each (the median and every value printed, with the load): a
`python -m harness history ingest FOLDER` of one more run into that store (the command's wall
and CPU time), the same in-process (sources.runs, then ingest.ingest; wall and CPU), the CLI's
start (`history --help`); a case's history (queries.history) on one target and on all, for a
planted flake, a regression, a failing and a passing case; the flakes page (queries.rates over
every run, and `history flakes`); the runs list (queries.runs, newest 50 and all); the store's
size per run (SQLite: the file, by table and index from dbstat; PostgreSQL: pg_database_size).
Each figure is printed beside its bound; it checks that the planted flakes, regressions and fixes
are what the flakes page calls them.

`faults`: four `history ingest` processes at once (three different runs and one of them twice,
with 40 cases no store has, so that they insert them together), --rounds rounds, the first
creating the store; an ingest of two runs killed with SIGKILL inside its transaction once it has
written (SQLite: the write lock held and the WAL grown; PostgreSQL: its backend has a
transaction id), the store's row counts compared, then the same ingest run again; bad inputs (a
truncated results.json, a JUnit billion-laughs entity bomb, a results.csv with an unknown status,
a results.json of schema 99): one line on stderr, exit status 2, row counts unchanged.

SQLite stores: DIR/history.sqlite, DIR/faults/faults.sqlite. PostgreSQL: databases `history`
and `faults_0` of the server libpq's environment names (PGHOST, PGPORT, PGUSER, PGPASSWORD: a
user who may create databases). Debian's postgresql-common makes a throwaway one, durable as a
real one is (pg_virtualenv turns fsync off unless told):

    pg_virtualenv -o fsync=on .venv/bin/python bench/history_bench.py build BASE --backends postgresql ...

A store kept between `build` and `measure` needs a server kept between them (`pg_ctlcluster`, or
one `pg_virtualenv sh -c '... build ...; ... measure ...'`). Each mode writes its figures as JSON
to DIR/<mode>-<time>.json. The bench uses the harness's public functions only.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import func, select, text  # noqa: E402

from harness.history import ingest, queries, schema, sources  # noqa: E402
from harness.history.store import open_store  # noqa: E402
from harness.model.outcome import Judged, Outcome, Record  # noqa: E402
from harness.model.status import Status  # noqa: E402
from harness.results import files  # noqa: E402

BOUNDS = {"ingest_cli_s": 2.0, "history_ms": 50.0, "flakes_s": 2.0}
DAYS = 60
T0 = datetime.datetime(2026, 9, 29)
LANE_A, LANE_B, MESA_B = "conformance-system", "conformance-sid", "25.0.7-2~bpo12+1"
TABLES = ("runs", "run_targets", "cases", "messages", "results")
FALLBACK_MESSAGES = ["probe at (12, 7): expected (0.000, 1.000, 0.000, 1.000), got (1.000, 0.000, 0.000, 1.000)",
                     "transform feedback captured 36 vertices, expected 24"]
TIMEOUT_MESSAGE = "timed out after 60 s (the child was killed)"


# --- the runs ------------------------------------------------------------------------------------

class Plan:
    """BASE's records and what is planted in the runs made from them; `run(i)` is run i."""

    def __init__(self, base: list[Record], seed: int, runs: int):
        self.base, self.seed, self.runs = base, seed, runs
        rng = random.Random(f"plan:{seed}")
        passing = [i for i, r in enumerate(base) if r.status is Status.PASS and r.outcome.judged is Judged.AS_IS]
        failing = [i for i, r in enumerate(base) if ingest.failure(r)]
        chosen = rng.sample(passing, min(len(passing), 55))
        flakes, regressions = chosen[:40], chosen[40:]
        self.flakes = {i: 0.01 + 0.39 * k / max(len(flakes) - 1, 1) for k, i in enumerate(flakes)}
        # a regression from run `start` on, on both lanes or (a third of them) the second only
        self.regressions = {i: (rng.randrange(runs // 5, runs * 9 // 10), k % 3 == 2) for k, i in enumerate(regressions)}
        self.fixes = {i: rng.randrange(runs // 5, runs * 4 // 5) for i in rng.sample(failing, min(len(failing), 10))}
        # BASE's failure messages less the baseline's "expected Fail (baseline): " (a planted failure is a new one)
        self.pool = sorted({re.sub(r"^expected \w+ \(baseline\): ", "", r.message) for r in base
                            if r.status in (Status.FAIL, Status.CRASH) and r.message}) or FALLBACK_MESSAGES
        self.mesa = _common_mesa(base)
        self.planted = sorted([*self.flakes, *self.regressions, *self.fixes])
        self.base_durations = [max(r.duration, 0.001) for r in base]

    def lane(self, i: int) -> str:
        return LANE_B if i % 4 == 3 else LANE_A

    def properties(self, i: int) -> dict:
        rng = random.Random(f"props:{self.seed}:{i}")
        started = T0 + datetime.timedelta(days=DAYS * i / self.runs, minutes=rng.uniform(0, 30))
        lane = self.lane(i)
        return {"ci_pipeline_id": str(700_000 + i - (i % 4 == 3)), "ci_job_name": f"{lane} 1/1",
                "ci_commit_sha": f"{rng.getrandbits(160):040x}", "ci_commit_ref_name": "main",
                "harness_version": "0.1.0", "harness_commit": f"{rng.getrandbits(160):040x}", "machine": "ci-runner-3",
                "mesa": MESA_B if lane == LANE_B else self.mesa, "started": started.isoformat() + "+00:00"}

    def _message(self, index: int, rng: random.Random) -> str:
        template = self.pool[index % len(self.pool)]
        variant = rng.randrange(4)
        return re.sub(r"\d+", lambda m: str(int(m.group()) + variant), template, count=1) if variant else template

    def changes(self, i: int) -> dict[int, tuple[Outcome, str]]:
        """Run i's planted outcomes and messages, by index in BASE; the others are BASE's."""
        rng = random.Random(f"run:{self.seed}:{i}")
        second = self.lane(i) == LANE_B
        out = {}
        for k in self.planted:
            r = self.base[k]
            if k in self.flakes:
                if rng.random() < self.flakes[k]:
                    out[k] = Outcome(Status.FLAKE if rng.random() < 0.6 else Status.FAIL), self._message(k, rng)
            elif k in self.regressions:
                start, second_only = self.regressions[k]
                if i >= start and (second or not second_only):
                    out[k] = Outcome(Status.CRASH if k % 4 == 0 else Status.FAIL), self._message(k, rng)
            elif i >= self.fixes[k]:
                judged = Judged.UNEXPECTED_PASS if r.outcome.judged is Judged.EXPECTED_FAIL else Judged.AS_IS
                out[k] = Outcome(Status.PASS, judged), ""
        if rng.random() < 0.1:                      # a one-off timeout
            k = rng.randrange(len(self.base))
            if self.base[k].status is Status.PASS and k not in out:
                out[k] = Outcome(Status.TIMEOUT), TIMEOUT_MESSAGE
        return out

    def durations(self, i: int) -> list[float]:
        jitter = random.Random(f"durations:{self.seed}:{i}").lognormvariate
        return [round(d * jitter(0, 0.15), 4) for d in self.base_durations]

    def records(self, i: int, extra_cases: int = 0) -> list[Record]:
        changes, durations = self.changes(i), self.durations(i)
        mesa = MESA_B if self.lane(i) == LANE_B else None
        out = []
        for k, r in enumerate(self.base):
            outcome, message = changes.get(k, (r.outcome, r.message))
            out.append(Record(r.id, r.target, outcome, message, r.expected, durations[k], r.renderer, r.gl_version,
                              mesa or r.mesa, r.platform, r.reproducer))
        for j in range(extra_cases):                # cases no stored run has: ingests at once insert them together
            out.append(Record(f"bench/new/case{j}", "llvmpipe", Outcome(Status.PASS), duration=0.01 + j / 1000))
        return out

    def run(self, i: int, extra_cases: int = 0) -> sources.Run:
        return sources.Run(self.properties(i), self.records(i, extra_cases), [f"bench:{self.seed}:{i}"])

    def write(self, i: int, folder: Path, extra_cases: int = 0) -> Path:
        """Run i as a results folder (results.json and run.json), as a CI job's artifacts hold it."""
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "run.json").write_text(json.dumps({"schema": files.SCHEMA, **self.properties(i)}))
        (folder / "results.json").write_text(json.dumps(
            {"schema": files.SCHEMA, "results": [r.to_json() for r in self.records(i, extra_cases)]}))
        return folder


def _common_mesa(records: list[Record]) -> str:
    named: dict[str, int] = {}
    for r in records:
        if r.mesa:
            named[r.mesa] = named.get(r.mesa, 0) + 1
    return max(named, key=named.get) if named else "22.3.6"


# --- stores --------------------------------------------------------------------------------------

def counts(engine) -> dict[str, int]:
    with engine.connect() as connection:
        return {name: connection.execute(select(func.count()).select_from(schema.metadata.tables[name])).scalar()
                for name in TABLES}


def checkpoint(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def pg_database(name: str, fresh: bool = False) -> str:
    """The SQLAlchemy URL of database `name` of libpq's server (PGHOST, PGPORT...), made where
    missing (`fresh`: made anew)."""
    import psycopg
    with psycopg.connect(dbname="postgres", autocommit=True) as c:
        exists = c.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and fresh:
            c.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        if not exists or fresh:
            c.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg:///{name}"          # host, port, user and password from libpq's environment


def stores(args) -> list[tuple[str, str]]:
    """(backend, URL) of the stores `build` and `measure` use."""
    found = []
    if "sqlite" in args.backends:
        found.append(("sqlite", str(args.dir / "history.sqlite")))
    if "postgresql" in args.backends:
        found.append(("postgresql", pg_database("history")))
    return found


def size(backend: str, url: str, engine) -> dict:
    if backend == "sqlite":
        path = Path(url)
        checkpoint(path)
        with sqlite3.connect(path) as c:
            try:
                parts = dict(c.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"))
            except sqlite3.OperationalError:
                parts = {}
        return {"bytes": path.stat().st_size, "parts": parts}
    with engine.connect() as c:
        total = c.execute(text("SELECT pg_database_size(current_database())")).scalar()
        parts = dict(c.execute(text("SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n "
                                    "ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY 2 DESC")).all())
    return {"bytes": total, "parts": parts}


# --- build ---------------------------------------------------------------------------------------

def base_records(path: Path, pad_to: int = 0) -> list[Record]:
    """BASE's records; with `pad_to`, then copies of them in order, each under its target's name
    with `-b` (a fifth target, as it were), up to that many."""
    found = files.read(path)
    real = len(found)
    for r in found[:max(pad_to - real, 0)]:
        found.append(Record(r.id, f"{r.target}-b", r.outcome, r.message, r.expected, r.duration, r.renderer,
                            r.gl_version, r.mesa, r.platform, r.reproducer))
    if len(found) > real:
        print(f"base: {real} real results, padded to {len(found)} with copies under <target>-b")
    print(f"base: {path}: {len(found)} results, targets {sorted({r.target for r in found})}, "
          f"statuses {dict(sorted(_tally(r.outcome.label for r in found).items()))}")
    return found


def _tally(items) -> dict:
    out: dict = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out


def build(args) -> dict:
    """Runs 0..--runs-1 stored: the first --sample through ingest.ingest (--batch runs per
    transaction, timed), the rest by `bulk`."""
    plan = Plan(base_records(args.base, args.pad_to), args.seed, args.runs)
    report = {}
    for backend, url in stores(args):
        engine = open_store(url)
        have = counts(engine)["runs"]
        begun, generate, stored = time.perf_counter(), 0.0, 0.0
        sample = range(have, min(args.sample, args.runs))
        for start in range(sample.start, sample.stop, args.batch):
            t = time.perf_counter()
            batch = [plan.run(i) for i in range(start, min(start + args.batch, sample.stop))]
            generate += time.perf_counter() - t
            t = time.perf_counter()
            ingest.ingest(engine, batch)
            stored += time.perf_counter() - t
        if len(sample):
            print(f"  {backend}: runs {sample.start}..{sample.stop - 1} through ingest.ingest, {args.batch} per transaction: "
                  f"{stored / len(sample):.2f} s per run stored ({generate / len(sample):.2f} s per run made); {_load()}",
                  flush=True)
        t = time.perf_counter()
        first = max(have, sample.stop)
        bulk(engine, plan, first, args.runs, args.batch, backend)
        bulk_s = time.perf_counter() - t
        if backend == "postgresql":
            with engine.connect() as c:
                c.execute(text("COMMIT"))
                c.execute(text("ANALYZE"))
        report[backend] = {"sample_runs": len(sample), "sample_s_per_run": stored / len(sample) if len(sample) else None,
                           "sample_make_s_per_run": generate / len(sample) if len(sample) else None,
                           "bulk_runs": max(args.runs - first, 0), "bulk_s": bulk_s,
                           "wall_s": time.perf_counter() - begun, "counts": counts(engine)}
        print(f"{backend}: {report[backend]['bulk_runs']} runs in bulk in {bulk_s:.0f} s; "
              f"counts {report[backend]['counts']}; {_load()}")
        engine.dispose()
    return report


def bulk(engine, plan: Plan, start: int, stop: int, batch: int, backend: str) -> None:
    """Runs start..stop-1 stored with the rows ingest.ingest would store for them, made from
    BASE's rows and each run's planted changes instead of record by record, the results written
    with executemany (SQLite) or COPY (PostgreSQL); --batch runs per transaction. The one
    difference: a run's fingerprint is the hash of its index (no run is ingested twice here)."""
    if start >= stop:
        return
    C, M, R, RT = schema.cases, schema.messages, schema.runs, schema.run_targets
    with engine.connect() as c:
        case_ids = {(n, t): i for i, n, t in c.execute(select(C.c.id, C.c.name, C.c.target))}
        message_ids = {m: i for i, m in c.execute(select(M.c.id, M.c.text))}
    base = plan.base
    base_rows = [(case_ids[(r.id, r.target)], r.status.value, r.outcome.judged.value, ingest.failure(r), r.message,
                  r.expected, r.reproducer) for r in base]
    base_targets = {row["target"]: row for row in ingest.target_rows(0, base)}
    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None, microsecond=0)
    columns = "run_id, case_id, status, judged, failure, duration, message_id, expected, reproducer"
    for first in range(start, stop, batch):
        with engine.begin() as c:
            raw = c.connection.driver_connection
            for i in range(first, min(first + batch, stop)):
                props = plan.properties(i)
                run = sources.Run(props, [], [f"bench:{plan.seed}:{i}"])
                row = ingest.run_row(run, now) | {
                    "fingerprint": hashlib.sha256(f"bulk:{plan.seed}:{i}".encode()).hexdigest()}
                run_id = c.execute(R.insert().values(row).returning(R.c.id)).scalar_one()
                changes, durations = plan.changes(i), plan.durations(i)
                new = sorted({m for _, m in changes.values() if m and m not in message_ids})
                if new:
                    c.execute(ingest.insert_ignoring(c, M), [{"digest": hashlib.sha256(m.encode()).hexdigest(), "text": m}
                                                     for m in new])
                    message_ids.update({m: i for i, m in c.execute(select(M.c.id, M.c.text).where(M.c.text.in_(new)))})
                rows = [(run_id, case, status, judged, failed, durations[k], message_ids.get(message) if message else None,
                         expected, reproducer)
                        for k, (case, status, judged, failed, message, expected, reproducer) in enumerate(base_rows)]
                targets = {t: dict(v, run_id=run_id) for t, v in base_targets.items()}
                for k, (outcome, message) in changes.items():
                    r = base[k]
                    record = Record(r.id, r.target, outcome, message, r.expected)
                    rows[k] = (run_id, base_rows[k][0], outcome.status.value, outcome.judged.value,
                               ingest.failure(record), durations[k], message_ids.get(message) if message else None,
                               r.expected, r.reproducer)
                    targets[r.target][ingest.count_column(r)] -= 1
                    targets[r.target][ingest.count_column(record)] += 1
                if backend == "sqlite":
                    raw.executemany(f"INSERT INTO results ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
                else:
                    with raw.cursor() as cursor, cursor.copy(f"COPY results ({columns}) FROM STDIN") as copy:
                        for one in rows:
                            copy.write_row(one)
                c.execute(RT.insert(), list(targets.values()))
        if (first - start) % (batch * 8) == 0:
            print(f"    bulk: {min(first + batch, stop)}/{stop} runs; {_load()}", flush=True)


# --- measure -------------------------------------------------------------------------------------

def _load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(fn, repeat: int) -> tuple[float, list[float], object]:
    values, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        values.append(time.perf_counter() - t)
    return statistics.median(values), values, result


def cli(store: str, *argv: str, timeout: float = 600) -> tuple[subprocess.CompletedProcess, float]:
    """`python -m harness history --store STORE ARGV...`, and its wall time (its CPU time: CLI_CPU[-1])."""
    t, before = time.perf_counter(), _children_cpu()
    proc = subprocess.run([sys.executable, "-m", "harness", "history", "--store", store, *argv], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)
    CLI_CPU.append(_children_cpu() - before)
    return proc, time.perf_counter() - t


CLI_CPU: list[float] = []


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(args) -> dict:
    plan = Plan(base_records(args.base, args.pad_to), args.seed, args.runs)
    work = args.dir / "measure"
    shutil.rmtree(work, ignore_errors=True)
    report: dict = {"load_before": os.getloadavg(), "nproc": os.cpu_count()}
    cases = _picked(plan)
    for backend, url in stores(args):
        engine = open_store(url)
        stored = counts(engine)
        if stored["runs"] < args.runs:
            raise SystemExit(f"{backend}: {stored['runs']} runs stored, fewer than --runs {args.runs}: run `build` first")
        figures: dict = {"runs_before": stored["runs"], "results_before": stored["results"]}
        print(f"\n{backend}: {stored['runs']} runs, {stored['results']} results, {stored['cases']} cases, "
              f"{stored['messages']} messages; {_load()}")
        # one more run: the command, then in-process (read, then store)
        walls, cpus, reads, writes, read_cpu, write_cpu, wal_bytes = [], [], [], [], [], [], []
        for k in range(args.repeat):
            index = stored["runs"] + 2 * k
            folder = plan.write(index, work / f"{backend}-{index}")
            proc, wall = cli(url, "ingest", str(folder))
            if proc.returncode != 0 or "stored (" not in proc.stdout:
                raise SystemExit(f"ingest failed: {proc.stdout}{proc.stderr}")
            walls.append(wall)
            cpus.append(CLI_CPU[-1])
            folder = plan.write(index + 1, work / f"{backend}-{index + 1}")
            t, c = time.perf_counter(), time.process_time()
            found = sources.runs([folder])
            reads.append(time.perf_counter() - t)
            read_cpu.append(time.process_time() - c)
            if backend == "sqlite":
                checkpoint(Path(url))
            t, c = time.perf_counter(), time.process_time()
            (done,) = ingest.ingest(engine, found)
            writes.append(time.perf_counter() - t)
            write_cpu.append(time.process_time() - c)
            if backend == "sqlite":                 # the pages one ingest wrote (its WAL frames)
                wal_bytes.append(Path(url + "-wal").stat().st_size)
            assert done.added
        startups, startup_cpu = [], []
        for _ in range(args.repeat):
            proc, startup = cli(url, "--help")
            startups.append(startup)
            startup_cpu.append(CLI_CPU[-1])
        figures["ingest_cli_s"] = _figure(walls)
        figures["ingest_cli_cpu_s"] = _figure(cpus)
        figures["ingest_read_s"] = _figure(reads) | {"cpu": _figure(read_cpu)}
        figures["ingest_store_s"] = _figure(writes) | {"cpu": _figure(write_cpu)}
        figures["cli_startup_s"] = _figure(startups) | {"cpu": _figure(startup_cpu)}
        figures["ingest_wal_bytes"] = wal_bytes
        print(f"  ingest of one run ({len(plan.base)} results), `history ingest` wall: {_show(walls)} "
              f"(bound {BOUNDS['ingest_cli_s']} s), its CPU {_show(cpus)}; in-process read {_show(reads)} "
              f"(CPU {_show(read_cpu)}) + store {_show(writes)} (CPU {_show(write_cpu)}; SQLite's work is in-process, "
              f"PostgreSQL's server not counted); `history --help` {_show(startups)} (CPU {_show(startup_cpu)}); "
              f"WAL written by one ingest: {', '.join(f'{b / 2**20:.0f} MiB' for b in wal_bytes) or '-'}; {_load()}")
        with engine.connect() as connection:
            for label, (name, target) in cases.items():
                for scope in (target, None):
                    median, values, found = timed(lambda n=name, s=scope: queries.history(connection, n, s), args.repeat)
                    points = sum(len(h.points) for h in found)
                    key = f"history_{label}_{'target' if scope else 'all_targets'}_ms"
                    figures[key] = _figure([v * 1000 for v in values]) | {"points": points, "lanes": len(found)}
                    print(f"  history of {name}{'[' + scope + ']' if scope else ' (every target)'} ({label}): "
                          f"{_show(values, 1000, 'ms')}, {points} points in {len(found)} histories "
                          f"(bound {BOUNDS['history_ms']:.0f} ms)")
            median, values, found = timed(lambda: queries.rates(connection), args.repeat)
            rows = connection.execute(text(
                "SELECT count(*) FROM results WHERE case_id IN (SELECT DISTINCT case_id FROM results WHERE failure)")).scalar()
            figures["flakes_s"] = _figure(values) | {"rates": len(found), "rows_of_failing_cases": rows,
                                                     "kinds": _tally(r.kind for r in found)}
            print(f"  flakes page (queries.rates over all runs): {_show(values)}, {len(found)} rates "
                  f"{_tally(r.kind for r in found)}, from {rows} results rows of cases that ever failed "
                  f"(bound {BOUNDS['flakes_s']} s)")
            figures["planted"] = _check_planted(plan, found)
            print(f"  planted, found as such: {figures['planted']}")
            median, values, found = timed(lambda: queries.runs(connection, limit=50), args.repeat)
            figures["runs_50_ms"] = _figure([v * 1000 for v in values])
            median2, values2, every = timed(lambda: queries.runs(connection), args.repeat)
            figures["runs_all_ms"] = _figure([v * 1000 for v in values2]) | {"runs": len(every)}
            print(f"  runs list: newest 50 {_show(values, 1000, 'ms')}; all {len(every)} {_show(values2, 1000, 'ms')}")
        proc, wall = cli(url, "flakes")
        figures["flakes_cli_s"] = wall
        print(f"  `history flakes` wall: {wall:.2f} s ({proc.stdout.strip().splitlines()[-1] if proc.stdout else proc.stderr})")
        now = counts(engine)
        stored_size = size(backend, url, engine)
        figures["size"] = stored_size | {"runs": now["runs"], "per_run_bytes": stored_size["bytes"] / now["runs"],
                                         "per_result_bytes": stored_size["bytes"] / now["results"]}
        top = ", ".join(f"{k} {v / 2**20:.0f} MiB" for k, v in list(stored_size["parts"].items())[:6])
        print(f"  size: {stored_size['bytes'] / 2**20:.0f} MiB for {now['runs']} runs: "
              f"{figures['size']['per_run_bytes'] / 2**20:.2f} MiB per run, "
              f"{figures['size']['per_result_bytes']:.0f} bytes per result ({top})")
        report[backend] = figures
        engine.dispose()
    report["load_after"] = os.getloadavg()
    return report


def _figure(values: list[float]) -> dict:
    return {"median": statistics.median(values), "values": values}


def _show(values: list[float], scale: float = 1.0, unit: str = "s") -> str:
    shown = "/".join(f"{v * scale:.{0 if unit == 'ms' and v * scale >= 100 else 2}f}" for v in values)
    return f"median {statistics.median(values) * scale:.{1 if unit == 'ms' else 2}f} {unit} ({shown})"


def _picked(plan: Plan) -> dict[str, tuple[str, str]]:
    """The cases whose history is timed: the most flaky planted flake, a regression, a base failure
    and a passing case."""
    base = plan.base
    flake = max(plan.flakes, key=plan.flakes.get)
    regression = next(iter(plan.regressions))
    failing = next((i for i, r in enumerate(base) if ingest.failure(r) and i not in plan.fixes), flake)
    passing = next(i for i, r in enumerate(base) if r.status is Status.PASS
                   and i not in plan.flakes and i not in plan.regressions)
    return {label: (base[i].id, base[i].target) for label, i in
            (("flake", flake), ("regression", regression), ("failing", failing), ("passing", passing))}


def _check_planted(plan: Plan, rates: list) -> dict:
    kind = {(r.name, r.target, r.lane): r.kind for r in rates}
    base = plan.base
    flaky = sum(kind.get((base[i].id, base[i].target, LANE_A)) == "flaky" for i in plan.flakes)
    regressed = sum(kind.get((base[i].id, base[i].target, LANE_B)) == "regressed" for i in plan.regressions)
    fixed = sum(kind.get((base[i].id, base[i].target, LANE_A)) == "fixed" for i in plan.fixes)
    return {"flakes": f"{flaky}/{len(plan.flakes)} flaky on {LANE_A}",
            "regressions": f"{regressed}/{len(plan.regressions)} regressed on {LANE_B}",
            "fixes": f"{fixed}/{len(plan.fixes)} fixed on {LANE_A}"}


# --- faults --------------------------------------------------------------------------------------

BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<testsuites><testsuite name="bomb" tests="1"><testcase classname="x" name="tess/x/case0[llvmpipe]">
<failure message="&lol9;">&lol9;</failure></testcase></testsuite></testsuites>
"""


def faults(args) -> dict:
    plan = Plan(base_records(args.base, args.pad_to), args.seed, 1000)
    work = args.dir / "faults"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    report: dict = {"load_before": os.getloadavg()}
    bad = _bad_inputs(plan, work / "bad")
    for backend in args.backends:
        url = str(work / "faults.sqlite") if backend == "sqlite" else pg_database("faults_0", fresh=True)
        print(f"\n{backend}: {url}; {_load()}")
        report[backend] = {"concurrent": _concurrent(plan, url, work / backend, args.rounds),
                           "killed": _killed(plan, backend, url, work / backend, args.rounds),
                           "bad": _refused(url, bad)}
    report["load_after"] = os.getloadavg()
    return report


def _concurrent(plan: Plan, url: str, work: Path, rounds: int) -> list[dict]:
    """Four ingests at once: runs a, b, c and c again; a fresh store in the first round."""
    out = []
    for n in range(rounds):
        first = 2000 + 10 * n
        folders = [plan.write(first + k, work / f"concurrent-{n}-{k}", extra_cases=40) for k in range(3)]
        before = counts(open_store(url)) if n else dict.fromkeys(TABLES, 0)
        t = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-m", "harness", "history", "--store", url, "ingest", str(f)],
                                  cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for f in folders + folders[-1:]]
        outputs = [p.communicate() for p in procs]
        wall = time.perf_counter() - t
        engine = open_store(url)
        after = counts(engine)
        with engine.connect() as c:
            twice = c.execute(text("SELECT count(*) FROM (SELECT fingerprint FROM runs GROUP BY fingerprint "
                                   "HAVING count(*) > 1) AS t")).scalar()
            per_run = sorted(c.execute(text("SELECT count(*) FROM results GROUP BY run_id")).scalars())
        engine.dispose()
        records = len(plan.base) + 40
        said = [o[0].strip() for o in outputs]
        verdict = {"round": n, "fresh_store": n == 0, "wall_s": round(wall, 2), "rcs": [p.returncode for p in procs],
                   "runs_added": after["runs"] - before["runs"], "results_added": after["results"] - before["results"],
                   "results_expected": 3 * records, "fingerprints_twice": twice,
                   "stored": sum(" stored (" in s for s in said), "already": sum("already stored" in s for s in said),
                   "every_run_complete": set(per_run) <= {records, len(plan.base)}}
        verdict["ok"] = (verdict["rcs"] == [0] * 4 and verdict["runs_added"] == 3 and twice == 0
                         and verdict["results_added"] == 3 * records and verdict["stored"] == 3
                         and verdict["already"] == 1 and verdict["every_run_complete"])
        if not verdict["ok"]:
            verdict["stderr"] = [o[1].strip()[-500:] for o in outputs]
        print(f"  4 ingests at once (round {n}{', fresh store' if n == 0 else ''}): {verdict}")
        out.append(verdict)
    return out


def _in_transaction(backend: str, url: str) -> bool:
    """An ingest is inside its write transaction and has written: on SQLite, a writer holds the
    write lock and the WAL has grown past its size at the start (pages of the transaction
    spilled to it); on PostgreSQL, a client backend of the database has a transaction id (it
    has inserted)."""
    if backend == "sqlite":
        connection = sqlite3.connect(url, timeout=0, isolation_level=None)
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError:            # locked: a writer holds the write lock
            return Path(url + "-wal").exists() and Path(url + "-wal").stat().st_size > 0
        finally:
            connection.close()
    import psycopg
    name = url.rpartition("/")[2]
    with psycopg.connect(dbname=name, autocommit=True) as c:
        return bool(c.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND backend_xid IS NOT NULL "
                              "AND backend_type = 'client backend' AND pid <> pg_backend_pid()", (name,)).fetchone()[0])


def _killed(plan: Plan, backend: str, url: str, work: Path, rounds: int) -> list[dict]:
    """An ingest of two runs (one transaction) killed with SIGKILL inside its transaction, once it
    has written, then the same ingest run again. An attempt whose ingest ends before it is caught
    is counted and another (of other runs) is made, up to 4 per round."""
    out = []
    for n in range(rounds):
        missed = 0
        for attempt in range(4):
            folder = work / f"killed-{n}-{attempt}"
            for k in range(2):
                plan.write(3000 + 10 * n + 2 * attempt + k, folder / f"run{k}")
            engine = open_store(url)
            before = counts(engine)
            engine.dispose()
            if backend == "sqlite":
                checkpoint(Path(url))               # the WAL empty: what grows is this ingest's
            proc = subprocess.Popen([sys.executable, "-m", "harness", "history", "--store", url, "ingest", str(folder)],
                                    cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            started, inside, killed, wal = time.perf_counter(), None, None, 0
            while proc.poll() is None:
                if _in_transaction(backend, url):
                    inside = time.perf_counter() - started
                    time.sleep(random.Random(f"{n}:{attempt}").uniform(0.02, 0.2))     # further into it
                    if proc.poll() is None and _in_transaction(backend, url):
                        wal = Path(url + "-wal").stat().st_size if backend == "sqlite" else 0
                        proc.send_signal(signal.SIGKILL)
                        killed = time.perf_counter() - started
                        break
                time.sleep(0.005)
            proc.wait()
            if proc.returncode == -signal.SIGKILL:
                break
            missed += 1
        if backend == "postgresql":
            _wait_backends(url)
        engine = open_store(url)
        after = counts(engine)
        integrity = None
        if backend == "sqlite":
            with sqlite3.connect(url) as c:
                integrity = c.execute("PRAGMA integrity_check").fetchone()[0]
        rerun, wall = cli(url, "ingest", str(folder))
        final = counts(engine)
        engine.dispose()
        verdict = {"round": n, "missed_attempts": missed, "rc": proc.returncode,
                   "inside_transaction_after_s": round(inside, 2) if inside else None,
                   "killed_after_s": round(killed, 2) if killed else None, "wal_bytes_at_kill": wal,
                   "unchanged": after == before, "integrity": integrity, "rerun_rc": rerun.returncode,
                   "rerun_s": round(wall, 2), "rerun_runs_added": final["runs"] - after["runs"],
                   "rerun_results_added": final["results"] - after["results"]}
        verdict["ok"] = (proc.returncode == -signal.SIGKILL and verdict["unchanged"] and rerun.returncode == 0
                         and verdict["rerun_runs_added"] == 2 and verdict["rerun_results_added"] == 2 * len(plan.base)
                         and integrity in (None, "ok"))
        print(f"  SIGKILL mid-ingest (round {n}): {verdict}")
        out.append(verdict)
    return out


def _wait_backends(url: str, seconds: float = 30) -> None:
    """Until the killed client's server process has rolled back and gone."""
    import psycopg
    name = url.rpartition("/")[2]
    deadline = time.monotonic() + seconds
    with psycopg.connect(dbname=name, autocommit=True) as c:
        while time.monotonic() < deadline:
            if not c.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid() "
                             "AND backend_type = 'client backend'", (name,)).fetchone()[0]:
                return
            time.sleep(0.05)
    raise SystemExit(f"{url}: a client backend is still there {seconds} s after its client was killed")


def _bad_inputs(plan: Plan, folder: Path) -> dict[str, Path]:
    made = {}
    good = json.dumps({"schema": files.SCHEMA, "results": [r.to_json() for r in plan.records(4000)]})
    made["truncated results.json"] = folder / "truncated" / "results.json"
    made["JUnit entity bomb"] = folder / "bomb" / "junit.xml"
    made["results.csv unknown status"] = folder / "csv" / "results.csv"
    made["results.json schema 99"] = folder / "schema99" / "results.json"
    for path in made.values():
        path.parent.mkdir(parents=True)
    made["truncated results.json"].write_text(good[:len(good) // 2])
    made["JUnit entity bomb"].write_text(BOMB)
    lines = [f"{r.key},{r.outcome.deqp},{r.duration}" for r in plan.records(4001)]
    lines[len(lines) // 2] = lines[len(lines) // 2].split(",")[0] + ",Sometimes,0.5"
    made["results.csv unknown status"].write_text("\n".join(lines) + "\n")
    made["results.json schema 99"].write_text(good.replace('"schema": 1', '"schema": 99', 1))
    return made


def _refused(url: str, bad: dict[str, Path]) -> list[dict]:
    out = []
    for label, path in bad.items():
        engine = open_store(url)
        before = counts(engine)
        proc, wall = cli(url, "ingest", str(path.parent))
        after = counts(engine)
        engine.dispose()
        lines = proc.stderr.strip().splitlines()
        verdict = {"input": label, "rc": proc.returncode, "stderr_lines": len(lines), "stdout": proc.stdout.strip(),
                   "message": lines[0] if lines else "", "unchanged": after == before, "wall_s": round(wall, 2)}
        verdict["ok"] = proc.returncode == 2 and len(lines) == 1 and not verdict["stdout"] and verdict["unchanged"]
        print(f"  bad input, {label}: {'refused' if verdict['ok'] else 'NOT REFUSED AS IT SHOULD BE'} "
              f"(rc {proc.returncode}, {len(lines)} line, {wall:.2f} s, store unchanged: {verdict['unchanged']}): "
              f"{verdict['message'][:300]}")
        out.append(verdict)
    return out


# --- main ----------------------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("build", "measure", "faults"))
    parser.add_argument("base", type=Path, nargs="?", help="a real run's results folder or results.json")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/history-bench"))
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=25, help="build: runs per transaction")
    parser.add_argument("--sample", type=int, default=25, help="build: the first runs, stored through ingest.ingest")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="faults: rounds of each fault")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pad-to", type=int, default=0,
                        help="results per run: BASE's, then copies of them under <target>-b up to this many")
    parser.add_argument("--backends", type=lambda t: t.split(","), default=["sqlite"],
                        help="sqlite, postgresql or sqlite,postgresql (PostgreSQL: the server libpq's environment names)")
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.base is None:
        parser.error(f"{args.mode} needs BASE")
    print(f"history bench {args.mode}: nproc {os.cpu_count()}, {_load()}, seed {args.seed}, "
          f"SQLite {sqlite3.sqlite_version}")
    report = {"build": build, "measure": measure, "faults": faults}[args.mode](args)
    out = args.dir / f"{args.mode}-{datetime.datetime.now():%Y%m%dT%H%M%S}.json"
    out.write_text(json.dumps({"argv": argv, **report}, indent=1, default=str))
    print(f"\nwrote {out}")
    if args.mode == "faults":
        bad = [v for backend in ("sqlite", "postgresql") if backend in report
               for part in report[backend].values() for v in part if not v["ok"]]
        print(f"faults: {'all as they should be' if not bad else f'{len(bad)} NOT as they should be'}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
