"""Opening the results history: an SQLite file (the default, no setup) or a PostgreSQL database
by URL, its schema brought to this harness's by the Alembic migrations (harness/history/migrations)
in one transaction, one process at a time; read-only for the dashboard.

Writers serialize as each database lets them: SQLite takes its write lock when a transaction
begins (BEGIN IMMEDIATE, and waits up to a minute for it; WAL journal, so readers never wait),
PostgreSQL takes an advisory lock for a migration and relies on unique keys and
`ON CONFLICT DO NOTHING` for ingests running at once (harness/history/ingest.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from harness.base.errors import UsageError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LOCK = 4_545_045                      # PostgreSQL advisory lock key of a migration
WAIT_S = 60                           # how long a writer waits for SQLite's lock
CHUNK = 500                           # values in one IN (...): well under SQLite's variable limit


Item = TypeVar("Item")


def chunks(items: list[Item], size: int = CHUNK) -> list[list[Item]]:
    """`items` in lists of at most `size`, for queries with an IN (...) of them."""
    return [items[i:i + size] for i in range(0, len(items), size)]


class StoreError(UsageError):
    """A store that cannot be opened or used: one line for the user."""


def shown(store: str | Path) -> str:
    """`store` as a message, a log or a written file may show it: a URL with its password as ***
    (SQLAlchemy's own rendering), a file path as it is. A URL SQLAlchemy cannot read is shown by
    its scheme alone: where its password starts is unknown."""
    text_ = str(store)
    if "://" not in text_:
        return text_
    try:
        url = make_url(text_)
    except (ArgumentError, ValueError):
        return f"{text_.partition('://')[0]}://… (not a database URL)"
    if "@" in (url.host or ""):             # `user:p@ss@host`: the password's tail was read as the host
        return f"{url.drivername}://{url.username or ''}:***@…"
    return url.render_as_string(hide_password=True)


def scrubbed(message: str, password: str | None) -> str:
    """A driver's message with the store's password taken out, should the driver echo it (libpq
    quotes a bad connection string's pieces)."""
    return message.replace(password, "***") if password else message


def url_of(store: str | Path) -> str:
    """A database URL for `store`: a URL as it is, a file path as an SQLite URL."""
    text_ = str(store)
    if "://" in text_:
        return text_
    return f"sqlite:///{Path(text_).expanduser().resolve()}"


def _config(connection: Connection | None) -> Config:
    from alembic.config import Config
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The schema revision this harness writes."""
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(_config(None)).get_current_head() or ""


def revision(connection: Connection) -> str | None:
    """The store's schema revision (None: no schema yet)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if found is None else str(found)


def _check_known(found: str | None, where: str) -> None:
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError
    if found is None:
        return
    try:
        ScriptDirectory.from_config(_config(None)).get_revision(found)
    except CommandError:
        raise StoreError(f"{where}: its schema is revision {found}, which this harness does not know "
                         f"(it writes {head()}): a newer harness made it") from None


def open_store(store: str | Path, readonly: bool = False) -> Engine:
    """An engine on the store, its schema at head (made or migrated, unless `readonly`: then a
    store of another revision is refused). StoreError says what is wrong, in one line."""
    url, where = url_of(store), shown(store)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise StoreError(f"{where}: not a database URL or file path") from None
    if "@" in (parsed.host or ""):
        raise StoreError(f"{where}: an '@' in the password (write it as %40)")
    sqlite = parsed.get_backend_name() == "sqlite"
    if sqlite and readonly and not Path(parsed.database or "").is_file():
        raise StoreError(f"{parsed.database}: no such history store (run `harness history ingest` first)")
    if sqlite and not readonly:
        Path(parsed.database or "").parent.mkdir(parents=True, exist_ok=True)
    try:
        engine = _engine(parsed, sqlite, readonly)
        with engine.connect() as connection:
            found = revision(connection)
        _check_known(found, where)
        if readonly and found != head():
            raise StoreError(f"{where}: schema revision {found}, this harness reads {head()} "
                             f"(run `harness history ingest` once, which migrates it)")
        if not readonly and found != head():
            _migrate(engine, sqlite, where)
    except OperationalError as exc:
        raise StoreError(f"{where}: {scrubbed(str(exc.orig).strip().splitlines()[0], parsed.password)}") from None
    except SQLAlchemyError as exc:
        raise StoreError(f"{where}: {type(exc).__name__}: {scrubbed(str(exc).splitlines()[0], parsed.password)}") from None
    return engine


def engine_as_is(store: str | Path) -> Engine:
    """A writing engine on the store as it is, its schema neither checked nor migrated: for
    Alembic's own command line (harness/history/migrations/env.py)."""
    parsed = make_url(url_of(store))
    return _engine(parsed, parsed.get_backend_name() == "sqlite", readonly=False)


def _engine(url: URL, sqlite: bool, readonly: bool) -> Engine:
    if not sqlite:
        options = "-c default_transaction_read_only=on" if readonly else ""
        return create_engine(url, connect_args={"options": options} if options else {}, pool_pre_ping=True)
    database = Path(url.database or "")
    engine = create_engine(f"sqlite:///file:{database}?mode={'ro' if readonly else 'rwc'}&uri=true",
                           connect_args={"timeout": WAIT_S})

    @event.listens_for(engine, "connect")
    def _connect(dbapi: Any, _record: object) -> None:
        dbapi.isolation_level = None        # pysqlite's own BEGIN would be deferred: ours below
        if not readonly:
            dbapi.execute("PRAGMA journal_mode=WAL")
        dbapi.execute("PRAGMA foreign_keys=ON")
        dbapi.execute(f"PRAGMA busy_timeout={WAIT_S * 1000}")

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")
    return engine


def _migrate(engine: Engine, sqlite: bool, where: str) -> None:
    from alembic import command
    with engine.begin() as connection:
        if not sqlite:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
        _check_known(revision(connection), where)       # another process may have migrated meanwhile
        command.upgrade(_config(connection), "head")
