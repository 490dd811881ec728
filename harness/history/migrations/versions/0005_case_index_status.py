"""ix_results_case holds each result's failure, status and judgement: the flakes page counts the
series that fail in every run, and tells the known ones, from this index alone, without reading
the results table row by row (at 1,000 runs of 13,000 results that read was most of its time).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _recreate(*columns: str) -> None:
    op.drop_index("ix_results_case", table_name="results")
    op.create_index("ix_results_case", "results", list(columns))


def upgrade() -> None:
    _recreate("case_id", "run_id", "failure", "status", "judged")


def downgrade() -> None:
    _recreate("case_id", "run_id")
