"""The results history's tables, in SQLAlchemy Core: what the queries and the ingest are written
against. The schema in a database is made and changed by the Alembic migrations beside this file
(harness/history/migrations/versions), never by `metadata.create_all`; a self-test checks that
the migrated schema and these tables agree.

- `runs`: one run of the suite (a results folder, or a sharded job's shards together): its CI
  pipeline, job and commit, its lane (migration 0007), the harness's commit, the Mesa version and build commit, the machine
  and when it ran. `fingerprint` (sha256 of the run's identity and every result) makes a second
  ingest of the same run add nothing.
- `run_targets`: per run and target, the renderer and the counts the timeline plots.
- `cases`: one row per case id and target, the unit every history is about.
- `results`: per run and case, the status, how the baseline judged it (`known`: an expected
  failure), the duration and the message (deduplicated in `messages`: the same failure text
  comes back run after run).
- `culprits`: `harness blame`'s verdict on a case (the component at fault), for the KCIDB export.

Times are aware UTC (harness/history/timestamps.py); a result's status and judgement are CHECKed
against the model's closed sets (migration 0006: a new Status or Judged member needs a migration,
and tests/selftest/history/test_schema.py fails until it has one).
"""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import (Boolean, CheckConstraint, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table,
                        Text, UniqueConstraint, text)

from harness.history.timestamps import UTCDateTime
from harness.model.outcome import Judged
from harness.model.status import Status

def one_of(column: str, values: Iterable[object]) -> str:
    """A CHECK's condition: `column` holds one of `values`."""
    return f"{column} IN ({', '.join(repr(str(v)) for v in values)})"


metadata = MetaData(naming_convention={"ix": "ix_%(table_name)s_%(column_0_name)s",
                                       "uq": "uq_%(table_name)s_%(column_0_name)s",
                                       "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
                                       "pk": "pk_%(table_name)s"})

runs = Table(
    "runs", metadata,
    Column("id", Integer, primary_key=True),
    Column("fingerprint", String(64), nullable=False, unique=True),
    Column("started", UTCDateTime, nullable=False),
    Column("ingested", UTCDateTime, nullable=False),
    Column("pipeline", String(64), nullable=False, server_default=""),      # CI_PIPELINE_ID
    Column("job", String(255), nullable=False, server_default=""),          # CI_JOB_NAME less its shard suffix
    # the sequence of runs a history is read along (sources.Run.lane: the job, else "mesa " and
    # the Mesa version), stored so that a lane's runs and a run's previous one are index lookups
    Column("lane", String(260), nullable=False, server_default=""),
    Column("job_ids", Text, nullable=False, server_default=""),             # CI_JOB_ID of each shard
    Column("commit", String(64), nullable=False, server_default=""),        # CI_COMMIT_SHA
    Column("ref", String(255), nullable=False, server_default=""),          # CI_COMMIT_REF_NAME
    Column("url", Text, nullable=False, server_default=""),                 # CI_PIPELINE_URL
    Column("harness_version", String(64), nullable=False, server_default=""),
    Column("harness_commit", String(64), nullable=False, server_default=""),
    Column("mesa", String(255), nullable=False, server_default=""),         # the version its drivers report
    Column("mesa_commit", String(64), nullable=False, server_default=""),   # a bin/build-mesa build's commit
    Column("machine", String(255), nullable=False, server_default=""),
    Column("source", Text, nullable=False, server_default=""),              # the files ingested
    Index("ix_runs_started", "started"),
    Index("ix_runs_pipeline", "pipeline"),
    Index("ix_runs_lane", "lane", "started", "id"),        # a lane's runs in the order they ran
)

run_targets = Table(
    "run_targets", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("target", String(64), primary_key=True),
    Column("renderer", Text, nullable=False, server_default=""),
    Column("gl_version", Text, nullable=False, server_default=""),
    Column("platform", Text, nullable=False, server_default=""),   # lavapipe's says its Vulkan paths: 520 characters
    Column("passed", Integer, nullable=False),
    Column("skipped", Integer, nullable=False),
    Column("flaked", Integer, nullable=False),          # flake and order-dependent
    Column("failed", Integer, nullable=False),          # new failures: fail, timeout, crash, error, unexpected passes
    Column("known", Integer, nullable=False),           # expected failures (baselined)
)

cases = Table(
    "cases", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(512), nullable=False),        # the canonical case id
    Column("target", String(64), nullable=False),
    UniqueConstraint("name", "target", name="uq_cases_name_target"),
)

messages = Table(
    "messages", metadata,
    Column("id", Integer, primary_key=True),
    Column("digest", String(64), nullable=False, unique=True),     # sha256 of the text
    Column("text", Text, nullable=False),
)

results = Table(
    "results", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("case_id", Integer, ForeignKey("cases.id"), primary_key=True),
    Column("status", String(16), nullable=False),       # harness.model.status.Status
    Column("judged", String(24), nullable=False),       # harness.model.outcome.Judged
    # the driver failed this time (fail, timeout, crash, or a flake's first try): what rates count
    Column("failure", Boolean, nullable=False),
    Column("duration", Float, nullable=False),
    Column("message_id", Integer, ForeignKey("messages.id"), nullable=True),
    Column("expected", String(32), nullable=False, server_default=""),
    Column("reproducer", Text, nullable=False, server_default=""),
    # a case's results in run order, with their verdicts: a case's history, and the flakes page's
    # counts of the series that fail every run, read from this index alone (migration 0005)
    Index("ix_results_case", "case_id", "run_id", "failure", "status", "judged"),
    # the failures alone, so that the flakes page reads thousands of rows, not millions. Its WHERE
    # is the very term the queries' `T.c.failure` renders as (SQLite: `failure = 1`, PostgreSQL:
    # `failure`): SQLite uses a partial index only for a query with its WHERE's own terms.
    Index("ix_results_failure", "case_id", "run_id", sqlite_where=text("failure = 1"), postgresql_where=text("failure")),
    CheckConstraint(one_of("status", Status), name="ck_results_status"),
    CheckConstraint(one_of("judged", Judged), name="ck_results_judged"),
)

culprits = Table(
    "culprits", metadata,
    Column("case_id", Integer, ForeignKey("cases.id"), primary_key=True),
    Column("mesa", String(255), primary_key=True),
    Column("component", String(64), nullable=False),    # harness blame's verdict: zink, lavapipe, the layer...
    Column("reason", Text, nullable=False, server_default=""),
    Column("recorded", UTCDateTime, nullable=False),
)
