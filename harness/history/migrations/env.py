"""Alembic's environment for the history: run on the connection harness/history/store.py hands
over, inside its transaction (so that an upgrade is all or nothing, and one at a time); or, from
the `alembic` command (alembic.ini at the checkout's root, docs/history.md), on the store that
`-x store=FILE|URL` names, for a developer's `upgrade` and `revision --autogenerate`."""
from alembic import context
from sqlalchemy import Connection

from harness.history.migrations import COMPARE, same_default
from harness.history.schema import metadata


def _configure(connection: Connection) -> None:
    # batch: SQLite alters a table by copying it; the comparison's options are COMPARE's
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True,
                      compare_type=COMPARE["compare_type"], compare_server_default=same_default)


def _command_line() -> None:
    from harness.history import store
    named = context.get_x_argument(as_dictionary=True).get("store")
    if not named:
        raise SystemExit("alembic: give -x store=FILE|URL, a scratch store (docs/history.md, 'The schema')")
    with store.engine_as_is(named).begin() as connection:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()


if "connection" in context.config.attributes:
    _configure(context.config.attributes["connection"])
    with context.begin_transaction():
        context.run_migrations()
else:
    _command_line()
