"""The first schema: runs, their targets, cases, messages and results.

Revision ID: 0001
Revises:
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("started", sa.DateTime, nullable=False),
        sa.Column("ingested", sa.DateTime, nullable=False),
        *(sa.Column(name, sa.String(size), nullable=False, server_default="")
          for name, size in (("pipeline", 64), ("job", 255), ("commit", 64), ("ref", 255), ("harness_version", 64),
                             ("harness_commit", 64), ("mesa", 255), ("mesa_commit", 64), ("machine", 255))),
        *(sa.Column(name, sa.Text, nullable=False, server_default="") for name in ("job_ids", "url", "source")),
        sa.UniqueConstraint("fingerprint", name="uq_runs_fingerprint"),
    )
    op.create_index("ix_runs_started", "runs", ["started"])
    op.create_index("ix_runs_pipeline", "runs", ["pipeline"])
    op.create_table(
        "run_targets",
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE",
                                                      name="fk_run_targets_run_id_runs"), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("renderer", sa.Text, nullable=False, server_default=""),
        sa.Column("gl_version", sa.Text, nullable=False, server_default=""),
        sa.Column("platform", sa.String(64), nullable=False, server_default=""),
        *(sa.Column(name, sa.Integer, nullable=False) for name in ("passed", "skipped", "flaked", "failed", "known")),
        sa.PrimaryKeyConstraint("run_id", "target", name="pk_run_targets"),
    )
    op.create_table(
        "cases",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(512), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.UniqueConstraint("name", "target", name="uq_cases_name_target"),
    )
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.UniqueConstraint("digest", name="uq_messages_digest"),
    )
    op.create_table(
        "results",
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE",
                                                      name="fk_results_run_id_runs"), nullable=False),
        sa.Column("case_id", sa.Integer, sa.ForeignKey("cases.id", name="fk_results_case_id_cases"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("judged", sa.String(24), nullable=False),
        sa.Column("failure", sa.Boolean, nullable=False),
        sa.Column("duration", sa.Float, nullable=False),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("messages.id", name="fk_results_message_id_messages"),
                  nullable=True),
        sa.Column("expected", sa.String(32), nullable=False, server_default=""),
        sa.Column("reproducer", sa.Text, nullable=False, server_default=""),
        sa.PrimaryKeyConstraint("run_id", "case_id", name="pk_results"),
    )
    op.create_index("ix_results_case", "results", ["case_id", "run_id"])
    op.create_index("ix_results_failure", "results", ["case_id", "run_id"],
                    sqlite_where=sa.text("failure"), postgresql_where=sa.text("failure"))


def downgrade() -> None:
    for table in ("results", "messages", "cases", "run_targets", "runs"):
        op.drop_table(table)
