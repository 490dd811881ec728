"""Retention: `history prune --keep-days N / --keep-runs N` on SQLite and a real
PostgreSQL. Runs neither rule keeps go, with their results and targets' counts and the messages
and cases nothing refers to any more; each lane keeps its own newest N; a dry run deletes
nothing; bad arguments are one line naming the option."""
from __future__ import annotations

import datetime
import json
import re
import subprocess
import sys
from pathlib import Path

from sqlalchemy import func, select

from harness.history import ingest, lines, prune, queries, schema, sources, store
from harness.model.status import Status
from make import record, run

ROOT = Path(__file__).resolve().parents[3]
NOW = datetime.datetime.now(datetime.UTC).replace(microsecond=0)


def harness(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "history", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def build(url: str, folder: Path) -> dict[str, list[int]]:
    """Lane `nightly`: six runs, 10 days to 0 days old, the oldest two with a message of their own;
    lane `mesa 25.0.7` (no CI job): three runs, 9 to 7 days old. Each lane's run ids, oldest first."""
    made = []
    for number, age in enumerate((10, 8, 6, 4, 2, 0)):
        records = [record("tess/a"), record("tess/b", Status.FAIL, message=f"only in run {number}" if number < 2 else "x")]
        made.append(run(folder / f"n{number}", records, (NOW - datetime.timedelta(days=age, hours=1)).isoformat(),
                        ci_pipeline_id=str(100 + number), ci_job_name="nightly"))
    for number, age in enumerate((9, 8, 7)):
        made.append(run(folder / f"m{number}", [record("tess/a"), record(f"tess/old-{number}")],
                        (NOW - datetime.timedelta(days=age)).isoformat(), mesa="25.0.7"))
    stored = ingest.ingest(store.open_store(url), sources.runs(made))
    ids = [s.run_id for s in stored]
    return {"nightly": ids[:6], "mesa 25.0.7": ids[6:]}


def counts(url: str) -> dict[str, int]:
    with store.open_store(url).connect() as connection:
        return {t.name: connection.execute(select(func.count()).select_from(t)).scalar()
                for t in (schema.runs, schema.results, schema.run_targets, schema.messages, schema.cases)}


def lanes(url: str) -> dict[str, list[int]]:
    with store.open_store(url).connect() as connection:
        found: dict[str, list[int]] = {}
        for r in reversed(queries.runs(connection)):
            found.setdefault(r.lane, []).append(r.id)
    return found


def test_keep_runs_is_per_lane_and_takes_what_only_they_referred_to(database_url, tmp_path):
    ids = build(database_url, tmp_path)
    before = counts(database_url)
    with store.open_store(database_url).begin() as connection:
        pruned = prune.prune(connection, keep_days=None, keep_runs=2)
    assert lanes(database_url) == {"nightly": ids["nightly"][-2:], "mesa 25.0.7": ids["mesa 25.0.7"][-2:]}
    assert sorted(pruned.runs) == sorted(ids["nightly"][:4] + ids["mesa 25.0.7"][:1]) and pruned.kept == 4
    after = counts(database_url)
    assert after["runs"] == 4 and after["results"] == before["results"] - 5 * 2 == 8
    assert after["run_targets"] == 4
    assert pruned.messages == 2 and after["messages"] == before["messages"] - 2          # "only in run 0/1"
    assert pruned.cases == 1 and after["cases"] == before["cases"] - 1                  # tess/old-0


def test_keep_days_and_both_rules(database_url, tmp_path):
    ids = build(database_url, tmp_path)
    with store.open_store(database_url).begin() as connection:
        # the mesa lane's runs are all older than 5 days: its newest is kept all the same
        assert sorted(prune.doomed(connection, 5, None, NOW)) == sorted(ids["nightly"][:3] + ids["mesa 25.0.7"][:2])
        # both: a run either rule keeps is kept (the mesa lane's newest three are its only ones)
        assert prune.doomed(connection, 5, 3, NOW) == ids["nightly"][:3]
        prune.prune(connection, keep_days=5, keep_runs=None, now=NOW)
    assert lanes(database_url) == {"nightly": ids["nightly"][3:], "mesa 25.0.7": ids["mesa 25.0.7"][-1:]}
    assert counts(database_url)["results"] == 6 + 2


def test_a_lane_that_lines_cite_keeps_its_newest_run(database_url, tmp_path):
    """The baseline and flakes lines `history lines` writes cite their lane. A lane no longer run
    (`weekly`: every run a month old) keeps its newest run through `prune --keep-days 7`, the run
    its baseline line's "last seen" names, while the rules take the rest."""
    made = []
    for number, age in enumerate((40, 35, 30)):
        made.append(run(tmp_path / f"w{number}", [record("tess/w", Status.FAIL)],
                        (NOW - datetime.timedelta(days=age)).isoformat(), ci_pipeline_id=str(number), ci_job_name="weekly"))
    for number, age in enumerate((20, 10, 1)):
        made.append(run(tmp_path / f"n{number}", [record("tess/n", Status.CRASH)],
                        (NOW - datetime.timedelta(days=age)).isoformat(), ci_pipeline_id=str(10 + number),
                        ci_job_name="nightly"))
    ingest.ingest(store.open_store(database_url), sources.runs(made))
    before = lanes(database_url)
    with store.open_store(database_url, readonly=True).connect() as connection:
        written = lines.baseline_lines(queries.rates(connection))
    cited = {m[1] for line in written if (m := re.search(r"; lane (.*); Bug Report", line))}
    assert cited == {"weekly", "nightly"}, written
    done = harness("--store", database_url, "prune", "--keep-days", "7")
    assert done.returncode == 0, done.stderr
    after = lanes(database_url)
    assert after == {"weekly": before["weekly"][-1:], "nightly": before["nightly"][-1:]}
    assert all(after[lane][-1] == before[lane][-1] for lane in cited)


def test_the_command_line(database_url, tmp_path):
    ids = build(database_url, tmp_path)
    before = counts(database_url)
    dry = harness("--store", database_url, "prune", "--keep-runs", "1", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    said = json.loads(dry.stdout)
    assert sorted(said["runs"]) == sorted(ids["nightly"][:5] + ids["mesa 25.0.7"][:2]) and said["dry_run"] and said["kept"] == 2
    assert counts(database_url) == before
    done = harness("--store", database_url, "prune", "--keep-runs", "1")
    assert done.returncode == 0 and done.stdout.startswith("deleted 7 runs") and "kept 2 runs" in done.stdout, done.stdout
    assert lanes(database_url) == {"nightly": ids["nightly"][-1:], "mesa 25.0.7": ids["mesa 25.0.7"][-1:]}
    for bad, says in ((["prune"], "--keep-days N, --keep-runs N"), (["prune", "--keep-runs", "0"], "--keep-runs 0"),
                      (["prune", "--keep-days", "-1"], "--keep-days -1")):
        refused = harness("--store", database_url, *bad)
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1 and says in refused.stderr, refused.stderr
