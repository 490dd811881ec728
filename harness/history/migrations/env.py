"""Alembic's environment for the history: run on the connection harness/history/store.py hands
over, inside its transaction (so that an upgrade is all or nothing, and one at a time)."""
from alembic import context

from harness.history.schema import metadata

context.configure(connection=context.config.attributes["connection"], target_metadata=metadata,
                  render_as_batch=True)         # SQLite alters a table by copying it
with context.begin_transaction():
    context.run_migrations()
