"""The history's schema, on SQLite and a real PostgreSQL: the migrations make what
harness/history/schema.py describes (Alembic's compare_metadata: tables, columns, types,
nullability, defaults, indexes, unique and foreign keys; the CHECK constraints by name, which
Alembic does not compare), a result's status and judgement come from the model's closed sets,
times are aware UTC both ways (also where the database's zone is not UTC), and `alembic` works
from the checkout (alembic.ini)."""
from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import CheckConstraint, DateTime, create_engine, inspect, insert, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from harness.history import ingest, queries, schema, sources, store
from harness.history.migrations import COMPARE
from harness.model.outcome import Judged
from harness.model.status import Status
from make import series

ROOT = Path(__file__).resolve().parents[3]
UTC = datetime.UTC


def differences(connection) -> list:
    return compare_metadata(MigrationContext.configure(connection, opts=COMPARE), schema.metadata)


def test_migrated_schema_matches_the_tables(database_url):
    engine = store.open_store(database_url)
    with engine.connect() as connection:
        assert differences(connection) == []
    found = inspect(engine)
    for table in schema.metadata.sorted_tables:
        checks = {c.name for c in table.constraints if isinstance(c, CheckConstraint)}
        assert {c["name"] for c in found.get_check_constraints(table.name)} == checks, table.name


def test_the_comparison_sees_columns_types_and_nullability(database_url):
    """The comparison is not blind: a column added, and on PostgreSQL a type and a NOT NULL
    changed, each show."""
    engine = store.open_store(database_url)
    postgres = engine.dialect.name == "postgresql"
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE runs ADD COLUMN extra TEXT"))
        if postgres:
            connection.execute(text("ALTER TABLE runs ALTER COLUMN machine DROP NOT NULL"))
            connection.execute(text("ALTER TABLE runs ALTER COLUMN job TYPE text"))
    with engine.connect() as connection:
        found = differences(connection)
    flat = [d if isinstance(d, tuple) else d[0] for d in found]
    kinds = {(d[0], d[3]) if d[0].startswith("modify") else (d[0], d[3].name) for d in flat}
    assert ("remove_column", "extra") in kinds, found
    if postgres:
        assert {("modify_nullable", "machine"), ("modify_type", "job")} <= kinds, found


def test_status_and_judged_are_the_models_closed_sets(database_url, tmp_path):
    engine = store.open_store(database_url)
    ingest.ingest(engine, sources.runs(series(tmp_path, {"tess/a": "."})))
    with engine.begin() as connection:
        run_id = connection.execute(select(schema.runs.c.id)).scalar_one()
        rows = [{"name": f"c/{s}/{j}", "target": "t"} for s in Status for j in Judged]
        connection.execute(insert(schema.cases), rows)
        ids = dict(connection.execute(select(schema.cases.c.name, schema.cases.c.id)).all())
        connection.execute(insert(schema.results), [
            {"run_id": run_id, "case_id": ids[f"c/{s}/{j}"], "status": s.value, "judged": j.value,
             "failure": False, "duration": 0.0} for s in Status for j in Judged])
    for column, value in (("status", "Sometimes"), ("judged", "maybe")):
        good = {"status": "pass", "judged": "as-is"}
        with pytest.raises(IntegrityError, match="ck_results_" + column + "|CHECK constraint failed"):
            with engine.begin() as connection:
                connection.execute(insert(schema.results).values(
                    run_id=run_id, case_id=ids["c/pass/as-is"] + 10_000, failure=False, duration=0.0,
                    **{**good, column: value}))


def test_times_are_aware_utc(database_url, tmp_path):
    engine = store.open_store(database_url)
    found = series(tmp_path, {"tess/a": "."}, started="2026-11-02T08:00:00+02:00")
    ingest.ingest(engine, sources.runs(found))
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SET TIME ZONE 'Asia/Tokyo'"))       # read back in UTC all the same
        (run,) = queries.runs(connection)
        assert run.started == datetime.datetime(2026, 11, 2, 6, tzinfo=UTC) and run.started.tzinfo is UTC
        ingested = connection.execute(select(schema.runs.c.ingested)).scalar_one()
        assert ingested.tzinfo is UTC and abs(datetime.datetime.now(UTC) - ingested) < datetime.timedelta(minutes=5)
        assert [r.id for r in queries.runs(connection, since=datetime.datetime(2026, 11, 2, 7, 30, tzinfo=UTC)
                                           .astimezone(datetime.timezone(datetime.timedelta(hours=2))))] == []
        assert len(queries.runs(connection, since=datetime.datetime(2026, 11, 2, 5, 59, tzinfo=UTC))) == 1
    if engine.dialect.name == "postgresql":
        types = {c["name"]: c["type"] for c in inspect(engine).get_columns("runs")}
        assert isinstance(types["started"], DateTime) and types["started"].timezone, types["started"]


def test_a_0005_store_keeps_its_times_through_0006_and_back(database_url):
    """A store of revision 0005 holding a naive UTC time, in a database whose zone is Tokyo's:
    migrated to 0006 the time is the same instant, down again the same wall clock."""
    engine = create_engine(database_url)
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text(f'ALTER DATABASE "{make_url(database_url).database}" SET timezone TO \'Asia/Tokyo\''))
    with engine.begin() as connection:
        command.upgrade(store._config(connection), "0005")
        connection.execute(text("INSERT INTO runs (id, fingerprint, started, ingested) "
                                "VALUES (1, 'f', '2026-11-01 06:00:00.000000', '2026-11-01 07:00:00.000000')"))
    engine.dispose()
    with store.open_store(database_url).connect() as connection:
        assert store.revision(connection) == store.head()
        (run,) = queries.runs(connection)
    assert run.started == datetime.datetime(2026, 11, 1, 6, tzinfo=UTC)
    with engine.begin() as connection:
        command.downgrade(store._config(connection), "0005")
        assert str(connection.execute(text("SELECT started FROM runs")).scalar()).startswith("2026-11-01 06:00:00")
    engine.dispose()


def test_a_0006_store_gets_its_runs_lanes_through_0007_and_back(database_url):
    """A store of revision 0006 with runs of a CI job, of a Mesa without a job and of neither,
    and their results (times as SQLAlchemy writes them to SQLite): migrated, each run has the lane ingest gives such a run (sources.Run.lane),
    every result is still there (runs is altered in place, not copied), and the lanes are
    what runs(lane=) and previous() go by; down again, the column is gone and the rows stay."""
    engine = create_engine(database_url)
    with engine.begin() as connection:
        command.upgrade(store._config(connection), "0006")
        connection.execute(text("INSERT INTO runs (id, fingerprint, started, ingested, job, mesa) VALUES "
                                "(1, 'a', '2026-11-01 06:00:00.000000', '2026-11-01 07:00:00.000000', 'nightly', '22.3.6'), "
                                "(2, 'b', '2026-11-02 06:00:00.000000', '2026-11-02 07:00:00.000000', '', '25.0.7'), "
                                "(3, 'c', '2026-11-03 06:00:00.000000', '2026-11-03 07:00:00.000000', 'nightly', '25.0.7'), "
                                "(4, 'd', '2026-11-04 06:00:00.000000', '2026-11-04 07:00:00.000000', '', '')"))
        connection.execute(text("INSERT INTO cases (id, name, target) VALUES (1, 'tess/a', 'llvmpipe')"))
        connection.execute(text("INSERT INTO results (run_id, case_id, status, judged, failure, duration) VALUES "
                                "(1, 1, 'pass', 'as-is', false, 0.1), (2, 1, 'fail', 'as-is', true, 0.1), "
                                "(3, 1, 'pass', 'as-is', false, 0.1), (4, 1, 'pass', 'as-is', false, 0.1)"))
    engine.dispose()
    expected = {1: "nightly", 2: "mesa 25.0.7", 3: "nightly", 4: "mesa "}
    assert {i: sources.Run({"ci_job_name": job, "mesa": mesa}, []).lane
            for i, job, mesa in ((1, "nightly", "22.3.6"), (2, "", "25.0.7"), (3, "nightly 2/3", "25.0.7"),
                                 (4, "", ""))} == expected
    with store.open_store(database_url).connect() as connection:
        assert store.revision(connection) == "0007"
        assert {r.id: r.lane for r in queries.runs(connection)} == expected
        assert [r.id for r in queries.runs(connection, lane="nightly")] == [3, 1]
        later = queries.run(connection, 3)
        assert later is not None and getattr(queries.previous(connection, later), "id", None) == 1
        assert connection.execute(text("SELECT count(*) FROM results")).scalar() == 4
    with engine.begin() as connection:
        command.downgrade(store._config(connection), "0006")
        assert "lane" not in {c["name"] for c in inspect(connection).get_columns("runs")}
        assert connection.execute(text("SELECT count(*) FROM results")).scalar() == 4
    engine.dispose()


def alembic(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "alembic", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_alembic_command_line_from_the_checkout(tmp_path):
    """alembic.ini: `alembic heads`, `upgrade` and `check` (the autogenerate comparison, what
    `revision --autogenerate` drafts from) on a scratch store, as docs/history.md says."""
    heads = alembic("heads")
    assert heads.returncode == 0 and heads.stdout.split() == [store.head(), "(head)"], heads.stderr
    scratch = f"store={tmp_path / 'scratch.sqlite'}"
    done = alembic("-x", scratch, "upgrade", "head")
    assert done.returncode == 0, done.stderr
    done = alembic("-x", scratch, "check")
    assert done.returncode == 0 and "No new upgrade operations detected" in done.stdout + done.stderr, done.stderr
    missing = alembic("check")
    assert missing.returncode != 0 and "-x store=" in missing.stdout + missing.stderr
