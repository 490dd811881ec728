"""The history's store and ingest, on SQLite and on a real PostgreSQL (database_url): every run
once, a CI job's shards as one run, one transaction, bad input refused with nothing stored, and
stores of an older schema migrated, of a newer one refused (the schema itself: test_schema.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.exc import IntegrityError

from harness.history import ingest, queries, schema, sources, store
from harness.model.status import Status
from harness.results.files import ResultsError
from make import record, run, series

ROOT = Path(__file__).resolve().parents[3]


def count(url: str) -> dict[str, int]:
    engine = store.open_store(url)
    with engine.connect() as connection:
        return {table.name: connection.execute(select(func.count()).select_from(table)).scalar()
                for table in (schema.runs, schema.results, schema.cases, schema.messages, schema.run_targets)}


def harness(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=cwd or ROOT)


def test_ingest_stores_each_run_once(database_url, tmp_path):
    folders = series(tmp_path, {"tess/a": "..F", "tess/b": ".C."})
    engine = store.open_store(database_url)
    stored = ingest.ingest(engine, sources.runs(folders))
    assert [s.added for s in stored] == [True, True, True]
    again = ingest.ingest(engine, sources.runs([folders[1]]))
    assert [s.added for s in again] == [False] and again[0].run_id == stored[1].run_id
    assert count(database_url)["runs"] == 3 and count(database_url)["results"] == 6
    with engine.connect() as connection:
        newest = queries.runs(connection)[0]
        assert newest.targets["llvmpipe"]["failed"] == 1 and newest.targets["llvmpipe"]["passed"] == 1
        assert newest.mesa == "22.3.6-1+deb12u2" and newest.machine == "selftest"
        records = {r.key: r for r in queries.records(connection, newest.id)}
    assert records["tess/a[llvmpipe]"].status is Status.FAIL
    assert "expected (2, 3, 4, 5)" in records["tess/a[llvmpipe]"].message


def test_messages_are_stored_once(database_url, tmp_path):
    ingest.ingest(store.open_store(database_url), sources.runs(series(tmp_path, {"tess/a": "FFFF"})))
    assert count(database_url)["messages"] == 1 and count(database_url)["results"] == 4


def test_shards_and_their_merged_folder_are_one_run(database_url, tmp_path):
    ci = {"ci_pipeline_id": "7", "ci_commit_sha": "abc"}
    one = run(tmp_path / "a" / "results", [record("tess/a"), record("tess/b", Status.FAIL)], "2026-11-02T06:00:00",
              ci_job_name="conformance 1/2", ci_job_id="71", **ci)
    two = run(tmp_path / "b" / "results", [record("tess/c")], "2026-11-02T06:01:00",
              ci_job_name="conformance 2/2", ci_job_id="72", **ci)
    engine = store.open_store(database_url)
    (stored,) = ingest.ingest(engine, sources.runs([tmp_path]))      # a pipeline's artifacts folder as it is
    assert len(stored.run.records) == 3 and stored.run.job == "conformance"
    from harness.results import files
    files.merge([one, two], tmp_path / "merged")
    (again,) = ingest.ingest(engine, sources.runs([tmp_path / "merged"]))
    assert not again.added and again.run_id == stored.run_id
    with engine.connect() as connection:
        (only,) = queries.runs(connection)
    assert (only.pipeline, only.job, only.commit, only.job_ids) == ("7", "conformance", "abc", "71,72")


@pytest.mark.parametrize("name", ["conformance 2/3", "conformance: [2/3]", "conformance"])
def test_a_shard_suffix_is_not_part_of_the_job(name):
    from harness.results.files import job_group
    assert job_group(name) == "conformance"


def test_runs_without_ci_ids_are_one_each_unless_one_run(tmp_path):
    folders = series(tmp_path, {"tess/a": ".."})
    assert len(sources.runs(folders)) == 2
    with pytest.raises(ResultsError, match="differs between"):          # the same case twice, two verdicts
        sources.runs(series(tmp_path / "x", {"tess/a": ".F"}), one_run=True)


def test_one_transaction_nothing_stored_when_a_run_fails(database_url, tmp_path):
    good, bad = sources.runs(series(tmp_path, {"tess/a": ".F"}))
    bad.records.append(bad.records[0])                                 # the same case twice in one run
    with pytest.raises(IntegrityError):                                # the second run's results
        ingest.ingest(store.open_store(database_url), [good, bad])
    assert count(database_url)["runs"] == 0 and count(database_url)["results"] == 0


BAD_INPUTS = {
    "truncated": ("results.json", '{"schema": 1, "results": [{"id": "tess/a", "tar', "not a results.json"),
    "schema": ("results.json", json.dumps({"schema": 99, "results": []}), "schema 99"),
    "status": ("results.csv", "tess/a[llvmpipe],Pass,0.1\ntess/b[llvmpipe],Sometimes,0.2\n", "results.csv:2"),
    "bomb": ("junit.xml", '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
             + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10))
             + ']>\n<testsuites><testsuite name="x"><testcase name="tess/a[llvmpipe]">&lol9;</testcase>'
             '</testsuite></testsuites>', "entities"),
}


@pytest.mark.parametrize("kind", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_and_nothing_is_stored(kind, tmp_path):
    name, content, says = BAD_INPUTS[kind]
    good = series(tmp_path / "good", {"tess/a": "."})[0]
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / name).write_text(content)
    db = tmp_path / "h.sqlite"
    done = harness("history", "--store", str(db), "ingest", str(good), str(tmp_path / "bad"))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and str(tmp_path / "bad") in lines[0], done.stderr
    assert not db.exists() or count(str(db))["runs"] == 0                       # the good run is not stored either


def test_results_csv_is_read_with_its_verdicts(tmp_path):
    (tmp_path / "results.csv").write_text("tess/a[zink],Pass,0.5\ntess/b[zink],ExpectedFail,1\n"
                                          "tess/c[zink],UnexpectedImprovement(Pass),2\ntess/d[zink],Crash,3\n")
    (found,) = sources.runs([tmp_path / "results.csv"], {"mesa": "26.2.6-1"})
    labels = {r.id: r.outcome.label for r in found.records}
    assert labels == {"tess/a": "pass", "tess/b": "expected fail", "tess/c": "unexpected pass", "tess/d": "crash"}
    assert found.mesa == "26.2.6-1"


def test_junit_alone_is_a_run_with_its_run_properties(database_url, tmp_path):
    folder = run(tmp_path / "r", [record("tess/a", Status.CRASH)], "2026-11-03T00:00:00", ci_pipeline_id="99",
                 ci_job_id="5", ci_job_name="gate")
    (folder / "results.json").unlink()
    (folder / "run.json").unlink()
    (found,) = sources.runs([folder / "junit.xml"])
    assert found.pipeline == "99" and found.records[0].status is Status.CRASH


def test_an_older_store_is_migrated_and_keeps_its_runs(tmp_path):
    """A store made at revision 0001 (before culprits) with a run in it: opening it migrates it to
    head, and its run is still there."""
    from alembic import command
    db = tmp_path / "old.sqlite"
    with create_engine(f"sqlite:///{db}").begin() as connection:
        command.upgrade(store._config(connection), "0001")
        connection.execute(text("INSERT INTO runs (id, fingerprint, started, ingested) "
                                "VALUES (1, 'f', '2026-11-01 00:00:00', '2026-11-01 00:00:00')"))
        assert store.revision(connection) == "0001"
    assert count(str(db))["runs"] == 1                  # count() opens the store: migrated
    with create_engine(f"sqlite:///{db}").connect() as connection:
        assert store.revision(connection) == store.head() == "0007"


def test_a_newer_store_is_refused(tmp_path):
    db = tmp_path / "new.sqlite"
    store.open_store(db)
    with create_engine(f"sqlite:///{db}").begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    done = harness("history", "--store", str(db), "runs")
    assert done.returncode == 2 and "revision 0999" in done.stderr and len(done.stderr.splitlines()) == 1


def test_readonly_store_writes_nothing(tmp_path):
    db = tmp_path / "h.sqlite"
    ingest.ingest(store.open_store(db), sources.runs(series(tmp_path, {"tess/a": "."})))
    with pytest.raises(Exception, match="readonly|read-only"):
        with store.open_store(db, readonly=True).begin() as connection:
            connection.execute(text("DELETE FROM results"))
    with pytest.raises(store.StoreError, match="no such history store"):
        store.open_store(tmp_path / "absent.sqlite", readonly=True)


def test_four_ingests_at_once_store_each_run_once(database_url, tmp_path):
    """Four processes ingesting at once into one store, two of them the same runs and all of them
    a run in common: every run stored once, none lost, no ingest failing."""
    folders = series(tmp_path, {"tess/a": "..F.C.", "tess/b": "F....."})
    shares = [folders[0:2] + folders[5:], folders[2:4] + folders[5:], folders[4:5] + folders[5:], folders[0:2]]
    started = [subprocess.Popen([sys.executable, "-m", "harness", "history", "--store", database_url, "ingest",
                                 *map(str, share)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for share in shares]
    for process in started:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
    assert count(database_url)["runs"] == 6 and count(database_url)["results"] == 12
    assert count(database_url)["cases"] == 2
