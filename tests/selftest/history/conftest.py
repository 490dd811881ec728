"""Fixtures for the results history's self-tests: its databases, on SQLite and on a real
PostgreSQL (Debian's, started by the tests themselves: tests/selftest/postgres.py).

- `database_url`: an SQLAlchemy URL of a fresh, empty database, once per backend (test ids
  `[sqlite]` and `[postgresql]`): `sqlite:///<tmp_path>/history.sqlite`, or
  `postgresql+psycopg://postgres@127.0.0.1:<port>/<new database>`.
- `postgres_url`: the same on PostgreSQL only (concurrency tests, say); `postgres_server`: the
  server itself (`.url(name)`, `.create_database()`, `.port`), for tests that need several.

One server per pytest process (per xdist worker), started the first time a test asks for one,
stopped and removed at the session's end; each test's database is dropped after it.
Without PostgreSQL's binaries the PostgreSQL tests fail, saying so (bin/selftest installs the
`postgresql` package); HARNESS_NO_POSTGRES=1 skips them instead.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import sys
from pathlib import Path

import pytest

from postgres import PostgresError, PostgresMissing, Server

# This folder is a package (history/__init__.py), so that this conftest is `history.conftest`: as a
# second top-level `conftest` it would take the name from tests/selftest/conftest.py, and every
# self-test's `from conftest import ROOT` collected after this folder would find this file. Its
# helpers stay importable by their bare names (`from make import ...`), as in tests/selftest.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def postgres_server():
    if os.environ.get("HARNESS_NO_POSTGRES") == "1":
        pytest.skip("HARNESS_NO_POSTGRES=1: the PostgreSQL self-tests are skipped")
    problem = ""
    try:
        server = Server()
        atexit.register(server.stop)                # should the session end without its teardown
        server.start()
    except PostgresMissing as e:
        problem = f"{e}, or HARNESS_NO_POSTGRES=1 to skip the PostgreSQL self-tests"
    except PostgresError as e:
        problem = f"PostgreSQL did not start: {e}"
    if problem:                                     # failed, not skipped: a missing install step shows
        pytest.fail(problem, pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty PostgreSQL database's SQLAlchemy URL, dropped after the test."""
    name = postgres_server.create_database()
    yield postgres_server.url(name)
    with contextlib.suppress(Exception):            # a server the test broke: its removal cleans up
        postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty database's SQLAlchemy URL, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'history.sqlite'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless chromium for a module's page tests (browser.chromium), one per module."""
    from browser import chromium
    driver = chromium(tmp_path_factory.mktemp("profile"))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
