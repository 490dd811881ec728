"""harness blame's verdicts, per case and Mesa: the culprit of the KCIDB export.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "culprits",
        sa.Column("case_id", sa.Integer, sa.ForeignKey("cases.id", name="fk_culprits_case_id_cases"), nullable=False),
        sa.Column("mesa", sa.String(255), nullable=False),
        sa.Column("component", sa.String(64), nullable=False),
        sa.Column("reason", sa.Text, nullable=False, server_default=""),
        sa.Column("recorded", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("case_id", "mesa", name="pk_culprits"),
    )


def downgrade() -> None:
    op.drop_table("culprits")
