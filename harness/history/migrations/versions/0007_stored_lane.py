"""The lane stored with each run, and indexed with its start: a lane's runs, and the run before
one on its lane, are then index lookups, not a scan of every run computing each one's lane.

The lane of a run already stored is filled in as the harness computes it at ingest
(harness/history/sources.py, Run.lane), written out here: its CI job (its name less the shard
suffix, as stored), else "mesa " and its Mesa version. The column is added in place (SQLite's
ADD COLUMN with a default), never by copying `runs`: the tables referring to it would lose their
rows to ON DELETE CASCADE were it dropped and made again.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("lane", sa.String(260), nullable=False, server_default=""))
    op.execute("UPDATE runs SET lane = CASE WHEN job <> '' THEN job ELSE 'mesa ' || mesa END")
    op.create_index("ix_runs_lane", "runs", ["lane", "started", "id"])


def downgrade() -> None:
    op.drop_index("ix_runs_lane", table_name="runs")
    with op.batch_alter_table("runs", recreate="never") as batch:       # SQLite >= 3.35 drops in place
        batch.drop_column("lane")
