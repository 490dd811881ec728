"""Times with their zone, and a result's status and judgement from closed sets.

- runs.started, runs.ingested and culprits.recorded become `timestamp with time zone` on
  PostgreSQL, their values read as the UTC they always were (`AT TIME ZONE 'UTC'`: without it
  PostgreSQL would read them in the session's zone). SQLite has no zone type: its values, UTC
  wall clocks, stay as they are (harness/history/timestamps.py attaches the zone on reading).
- CHECK constraints on results.status and results.judged: the values of harness.model's Status
  and Judged at this revision, written out here (a migration must not change with the model).
  SQLite adds a constraint by copying the table (batch mode); the copy gets back the partial
  index ix_results_failure as 0004 made it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

STATUSES = ("pass", "skip", "flake", "order-dependent", "fail", "timeout", "crash", "error")
JUDGED = ("as-is", "expected fail", "unexpected pass", "unexpected improvement")
TIMES = (("runs", "started"), ("runs", "ingested"), ("culprits", "recorded"))


def _one_of(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _zones(aware: bool) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column in TIMES:
        op.alter_column(table, column, type_=sa.DateTime(timezone=aware), existing_type=sa.DateTime(timezone=not aware),
                        existing_nullable=False, postgresql_using=f"{column} AT TIME ZONE 'UTC'")


def _failure_index() -> None:
    """ix_results_failure as 0004 left it on SQLite (a batch copy reflects no partial index)."""
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP INDEX IF EXISTS ix_results_failure")
    op.create_index("ix_results_failure", "results", ["case_id", "run_id"], sqlite_where=sa.text("failure = 1"))


def upgrade() -> None:
    _zones(aware=True)
    with op.batch_alter_table("results") as batch:
        batch.create_check_constraint("ck_results_status", _one_of("status", STATUSES))
        batch.create_check_constraint("ck_results_judged", _one_of("judged", JUDGED))
    _failure_index()


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_constraint("ck_results_judged", type_="check")
        batch.drop_constraint("ck_results_status", type_="check")
    _failure_index()
    _zones(aware=False)
