"""The history self-tests' database fixtures (conftest.py here): a real PostgreSQL server, a fresh
database for each test, and the same tests on SQLite."""
from __future__ import annotations

import sqlalchemy as sa

TABLE = "fixture_probe"


def _tables(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_postgres_url_is_a_real_postgresql(postgres_url, postgres_server):
    assert postgres_url.startswith(f"postgresql+psycopg://postgres@127.0.0.1:{postgres_server.port}/")
    engine = sa.create_engine(postgres_url)
    try:
        with engine.connect() as conn:
            assert "PostgreSQL" in conn.execute(sa.text("select version()")).scalar_one()
            assert conn.execute(sa.text("select current_database()")).scalar_one() == postgres_url.rsplit("/", 1)[1]
            assert conn.execute(sa.text("show fsync")).scalar_one() == "off"
    finally:
        engine.dispose()


def _another(database_url: str, request, tmp_path) -> str:
    """A second fresh database of the same backend, as the fixture makes them."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'other.sqlite'}"
    server = request.getfixturevalue("postgres_server")
    return server.url(server.create_database())


def test_each_database_url_is_fresh_and_empty(database_url, request, tmp_path):
    """A table created in one database is absent from another (one test asks for two)."""
    assert _tables(database_url) == set()
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(f"create table {TABLE} (id integer primary key, name text)"))
            conn.execute(sa.text(f"insert into {TABLE} values (1, 'one')"))
        with engine.connect() as conn:                              # left open: the drop closes it
            assert conn.execute(sa.text(f"select name from {TABLE}")).scalar_one() == "one"
            other = _another(database_url, request, tmp_path)
            assert TABLE in _tables(database_url) and _tables(other) == set()
    finally:
        engine.dispose()


def test_a_table_of_an_earlier_test_is_gone(database_url):
    """Runs after test_each_database_url_is_fresh_and_empty (in one worker, or another): still empty."""
    assert TABLE not in _tables(database_url)


def test_database_url_covers_both_backends(database_url, request, tmp_path):
    backend = request.node.callspec.params["database_url"]
    assert request.node.name.endswith(f"[{backend}]")
    if backend == "sqlite":
        assert database_url == f"sqlite:///{tmp_path / 'history.sqlite'}"
    engine = sa.create_engine(database_url)
    try:
        assert engine.dialect.name == backend
        with engine.connect() as conn:
            assert conn.execute(sa.text("select 1 + 1")).scalar_one() == 2
    finally:
        engine.dispose()
