"""Alembic's environment for the history: run on the connection harness/history/store.py hands
over, inside its transaction (so that an upgrade is all or nothing, and one at a time); or, from
the `alembic` command (alembic.ini at the checkout's root, docs/history.md), on the store that
`-x store=FILE|URL` names, for a developer's `upgrade` and `revision --autogenerate`."""
from alembic import context

from harness.history.migrations import COMPARE
from harness.history.schema import metadata

OPTIONS = {"target_metadata": metadata, "render_as_batch": True, **COMPARE}    # batch: SQLite alters a table by copying it


def _command_line() -> None:
    from harness.history import store
    named = context.get_x_argument(as_dictionary=True).get("store")
    if not named:
        raise SystemExit("alembic: give -x store=FILE|URL, a scratch store (docs/history.md, 'The schema')")
    with store.engine_as_is(named).begin() as connection:
        context.configure(connection=connection, **OPTIONS)
        with context.begin_transaction():
            context.run_migrations()


if "connection" in context.config.attributes:
    context.configure(connection=context.config.attributes["connection"], **OPTIONS)
    with context.begin_transaction():
        context.run_migrations()
else:
    _command_line()
