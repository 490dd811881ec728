"""run_targets.platform as text: a target's platform line is not short (lavapipe's names its
Vulkan paths, 520 characters), and PostgreSQL refused it as VARCHAR(64) (SQLite never checked).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("run_targets") as batch:
        batch.alter_column("platform", type_=sa.Text, existing_type=sa.String(64), existing_nullable=False,
                           existing_server_default="")


def downgrade() -> None:
    with op.batch_alter_table("run_targets") as batch:
        batch.alter_column("platform", type_=sa.String(64), existing_type=sa.Text, existing_nullable=False,
                           existing_server_default="")
