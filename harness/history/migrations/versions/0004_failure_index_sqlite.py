"""SQLite's ix_results_failure made usable: its WHERE `failure = 1`, the term SQLAlchemy writes for
`results.failure` on SQLite (0001's `WHERE failure` is another term to SQLite, which then scanned
every result for the flakes page, a cost that grows with the store; bench/results/2026-11-28-history.md).
PostgreSQL's index (`WHERE failure`, as it writes it there) stays.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _recreate(where: str) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.drop_index("ix_results_failure", table_name="results")
    op.create_index("ix_results_failure", "results", ["case_id", "run_id"], sqlite_where=sa.text(where))


def upgrade() -> None:
    _recreate("failure = 1")


def downgrade() -> None:
    _recreate("failure")
