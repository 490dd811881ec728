"""The store's password is never shown nor written: every history and dashboard command (taken
from their parsers, so a new one cannot be left out) is run with a PostgreSQL URL that carries it,
on a real PostgreSQL that checks it (tests/selftest/postgres.py, scram-sha-256), and then with a
wrong password, a host where nothing listens, a database that does not exist and a password with
an unescaped '@'. The password is in none of their output, nor in any file they or a conformance
run under $HARNESS_HISTORY wrote (run.json, the lines files' headers, the KCIDB export, the static
dashboard), nor in the served dashboard's log when the store goes away under it."""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from harness.__main__ import command_parser, main as harness_main
from harness.history import store
from make import MESA, series

ROOT = Path(__file__).resolve().parents[3]
SECRET = "SECRETPASSWORD"                   # the store's password
WRONG = "WRONGSECRETPASSWORD"               # a password the server refuses: not shown either
SUPERUSER = "selftest-superuser-pw"          # the server's own, for making the role and databases
ROLE = "ci"
CONFORMANCE_CASES = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"


def with_password(url: str, password: str = SECRET) -> str:
    return make_url(url).set(password=password).render_as_string(hide_password=False)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]                 # free once closed: nothing listens there


def harness(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m harness ARGS` of this checkout, in `cwd` (where a command's default files land)."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": path, **(env or {})}, timeout=300)


@pytest.fixture(scope="module")
def password_server():
    """A PostgreSQL whose TCP connections must give the right password; role `ci` has SECRET."""
    if os.environ.get("HARNESS_NO_POSTGRES") == "1":
        pytest.skip("HARNESS_NO_POSTGRES=1: the PostgreSQL self-tests are skipped")
    from postgres import Server
    server = Server(password=SUPERUSER)
    server.start()
    try:
        server.create_role(ROLE, SECRET)
        yield server
    finally:
        server.stop()


def commands(work: Path) -> dict[str, list[str]]:
    """Each history command and the dashboard, with arguments that make it do its work on the
    store `work/` is about (files written under `work/`)."""
    return {
        "ingest": ["history", "ingest", str(work / "runs"), str(work / "conformance")],
        "runs": ["history", "runs", "--json"],
        "case": ["history", "case", "tess/b[llvmpipe]"],
        "flakes": ["history", "flakes", "--all"],
        "diff": ["history", "diff", "1", "2"],
        "lines": ["history", "lines", "--mesa-version", MESA, "--baseline-out", str(work / "baseline.txt"),
                  "--flakes-out", str(work / "flakes.txt")],
        "export": ["history", "export", "--format", "kcidb", "--days", "36500", "-o", str(work / "kcidb.json")],
        "culprit": ["history", "culprit", "tess/b[llvmpipe]", "--mesa-version", MESA, "--component", "zink",
                    "--reason", "the selftest says so"],
        "bisect": ["history", "bisect", "tess/b[llvmpipe]", "--tree", str(work / "mesa"), "--dry-run"],
        "prune": ["history", "prune", "--keep-runs", "1000"],
        "dashboard": ["dashboard", "--static", str(work / "site")],
    }


def every_command() -> set[str]:
    """The history's subcommands as its parser has them, and the dashboard."""
    parser = command_parser("history")
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(sub.choices) | {"dashboard"}


def test_the_table_names_every_command(tmp_path):
    assert set(commands(tmp_path)) == every_command()


def test_shown_hides_a_password_and_keeps_a_path():
    assert store.shown("/var/h/history.sqlite") == "/var/h/history.sqlite"
    assert store.shown(f"postgresql+psycopg://ci:{SECRET}@db.example:5432/h") == "postgresql+psycopg://ci:***@db.example:5432/h"
    assert store.shown("postgresql+psycopg://ci:p%40ss@db/h") == "postgresql+psycopg://ci:***@db/h"
    for unreadable in ("postgresql+psycopg://ci:pa@ss@db/h", "postgresql+psycopg://ci:pass@[::1/h", "no such://x:y@z"):
        assert "pa" not in store.shown(unreadable).partition("://")[2] and "ss" not in store.shown(unreadable), unreadable


def _leaks(text: str) -> list[str]:
    return [secret for secret in (SECRET, WRONG) if secret in text]


def _files_leaking(folder: Path) -> tuple[list[Path], list[str]]:
    """Every file below `folder`, and those holding a password."""
    found = sorted(p for p in folder.rglob("*") if p.is_file())
    return found, [f"{p.relative_to(folder)}: {_leaks(p.read_text(errors='replace'))}"
                   for p in found if _leaks(p.read_text(errors="replace"))]


def test_no_command_shows_or_writes_the_password(password_server, tmp_path):
    database = password_server.create_database(owner=ROLE)
    url = f"postgresql+psycopg://{ROLE}:{SECRET}@127.0.0.1:{password_server.port}/{database}"
    env = {"HARNESS_HISTORY": url}
    work = tmp_path / "work"
    series(work / "runs", {"tess/a": "F.F.F.", "tess/b": "....FF"})
    (work / "mesa").mkdir()
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
                          "tests/tess", "--target", "llvmpipe", "-k", CONFORMANCE_CASES,
                          "--results-dir", str(work / "conformance")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, **env})
    assert run.returncode == 0 and (work / "conformance" / "run.json").is_file(), run.stdout[-2000:] + run.stderr
    assert not _leaks(run.stdout + run.stderr)
    for name, argv in commands(work).items():       # ingest first: the others read what it stored
        done = harness(work, *argv, env=env)
        said = done.stdout + done.stderr
        assert not _leaks(said), (name, said)
        assert done.returncode == (2 if name == "bisect" else 0), (name, said)   # bisect: one Mesa, no range
        assert "Traceback" not in said, (name, said)
    header = (work / "baseline.txt").read_text().splitlines()[0]
    assert f"({store.shown(url)})" in header and ":***@" in header, header
    _served_and_its_log(password_server, database, url, work)
    files, leaking = _files_leaking(work)
    written = {p.relative_to(work).as_posix() for p in files}
    assert {"baseline.txt", "flakes.txt", "kcidb.json", "site/index.html", "conformance/run.json",
            "conformance/junit.xml", "dashboard.log"} <= written, sorted(written)
    assert not leaking, leaking


def _served_and_its_log(server, database: str, url: str, work: Path) -> None:
    """The served dashboard: its serving line, a page, and its log once the store is gone
    (dropped under it: each request after that is 503, and the server's stderr says why)."""
    served = subprocess.Popen([sys.executable, "-m", "harness", "dashboard", "--port", "0"], cwd=ROOT,
                              env={**os.environ, "HARNESS_HISTORY": url},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = served.stdout.readline()
        assert line.startswith("serving ") and ":***@" in line and not _leaks(line), line
        address = line.split(" at ")[1].split()[0]
        with urllib.request.urlopen(address, timeout=60) as page:
            assert not _leaks(page.read().decode())
        server.drop_database(database)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(address, timeout=60)
        assert refused.value.code == 503 and not _leaks(refused.value.read().decode())
    finally:
        served.terminate()
        out, err = served.communicate(timeout=30)
    (work / "dashboard.log").write_text(line + out + err)
    assert "python -m harness dashboard: /: " in err, err


def failing_urls(server) -> dict[str, tuple[str, str]]:
    """A store URL that cannot be opened, and what its one line must say besides ***."""
    here = f"127.0.0.1:{server.port}"
    return {"a wrong password": (f"postgresql+psycopg://{ROLE}:{WRONG}@{here}/postgres", "password authentication failed"),
            "nothing listening": (f"postgresql+psycopg://{ROLE}:{SECRET}@127.0.0.1:{closed_port()}/h", "127.0.0.1"),
            "no such database": (f"postgresql+psycopg://{ROLE}:{SECRET}@{here}/absent_db", "absent_db"),
            "an @ in the password": (f"postgresql+psycopg://{ROLE}:pa@{SECRET}@{here}/h", "%40")}


@pytest.mark.parametrize("why", ["a wrong password", "nothing listening", "no such database", "an @ in the password"])
def test_a_store_that_cannot_be_opened_is_one_line_without_the_password(password_server, tmp_path, why, capfd,
                                                                         monkeypatch):
    """Every command, in this process (a command's whole path to its exit status, but no
    interpreter start for each of the 44), with the URL once as --store and once as $HARNESS_HISTORY."""
    url, says = failing_urls(password_server)[why]
    with pytest.raises(store.StoreError) as raised:
        store.open_store(url, readonly=True)
    assert not _leaks(str(raised.value)) and "***" in str(raised.value) and says in str(raised.value), raised.value
    work = tmp_path / "work"
    for folder in ("runs", "conformance"):              # what ingest reads before it opens the store
        series(work / folder, {"tess/a": "F."})
    monkeypatch.chdir(work)
    for name, argv in commands(work).items():
        for how in ("--store", "$HARNESS_HISTORY"):
            monkeypatch.setenv("HARNESS_HISTORY", url if how != "--store" else "")
            status = harness_main(argv[:1] + (["--store", url] if how == "--store" else []) + argv[1:])
            out, err = capfd.readouterr()
            assert not _leaks(out + err), (name, how, out + err)
            assert status == 2 and len(err.splitlines()) == 1, (name, how, status, err)
            assert "***" in err and says in err, (name, how, err)
    files, leaking = _files_leaking(work)
    assert files and not leaking, leaking
