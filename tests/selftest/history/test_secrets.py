"""The store's password never shown: a PostgreSQL URL's password is *** in every store
error, on the dashboard's serving line and in the header of the baseline and flakes files
`history lines` writes (files meant to be committed). On a real PostgreSQL (trust authentication:
a password in the URL is accepted and never checked) and a port nothing listens on."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from harness.history import ingest, sources, store
from make import series

ROOT = Path(__file__).resolve().parents[3]
SECRET = "Sup3r-s3cret-pw"


def with_password(url: str, password: str = SECRET) -> str:
    return make_url(url).set(password=password).render_as_string(hide_password=False)


def harness(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=120)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]                 # free once closed: nothing listens there


def test_shown_hides_a_password_and_keeps_a_path():
    assert store.shown("/var/h/history.sqlite") == "/var/h/history.sqlite"
    assert store.shown(f"postgresql+psycopg://ci:{SECRET}@db.example:5432/h") == "postgresql+psycopg://ci:***@db.example:5432/h"
    assert store.shown("postgresql+psycopg://ci:p%40ss@db/h") == "postgresql+psycopg://ci:***@db/h"
    for unreadable in ("postgresql+psycopg://ci:pa@ss@db/h", "postgresql+psycopg://ci:pass@[::1/h", "no such://x:y@z"):
        assert "pa" not in store.shown(unreadable).partition("://")[2] and "ss" not in store.shown(unreadable), unreadable


def test_store_errors_hide_the_password(postgres_server):
    urls = {"no such database": with_password(postgres_server.url("absent_db")),
            "nothing listening": with_password(f"postgresql+psycopg://ci@127.0.0.1:{closed_port()}/h"),
            "an @ in the password": f"postgresql+psycopg://ci:pa@{SECRET}@127.0.0.1:{postgres_server.port}/h"}
    for why, url in urls.items():
        with pytest.raises(store.StoreError) as raised:
            store.open_store(url, readonly=True)
        assert SECRET not in str(raised.value) and "***" in str(raised.value), (why, str(raised.value))
        for how in (["--store", url], []):           # the option, and $HARNESS_HISTORY
            done = harness("history", *how, "runs", env={"HARNESS_HISTORY": url})
            assert done.returncode == 2, (why, done.stderr)
            assert SECRET not in done.stdout + done.stderr, (why, how, done.stderr)
            assert len(done.stderr.splitlines()) == 1 and "***" in done.stderr, (why, done.stderr)


def test_lines_files_and_dashboard_hide_the_password(postgres_url, tmp_path):
    url = with_password(postgres_url)
    ingest.ingest(store.open_store(url), sources.runs(series(tmp_path, {"tess/a": "F.F.F.", "tess/b": "FFFFFF"})))
    baseline, flakes = tmp_path / "baseline.txt", tmp_path / "flakes.txt"
    done = harness("history", "lines", "--mesa", "22.3.6-1+deb12u2", "--baseline-out", str(baseline),
                   "--flakes-out", str(flakes), env={"HARNESS_HISTORY": url})
    assert done.returncode == 0, done.stderr
    for written in (baseline, flakes):
        header = written.read_text().splitlines()[0]
        assert SECRET not in written.read_text(), written.name
        assert f"({store.shown(url)})" in header and ":***@" in header, header
    assert "tess/b[llvmpipe],Fail" in baseline.read_text() and "tess/a" in flakes.read_text()
    server = subprocess.Popen([sys.executable, "-m", "harness", "dashboard", "--store", url, "--port", "0"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert line.startswith("serving ") and SECRET not in line and ":***@" in line, line
