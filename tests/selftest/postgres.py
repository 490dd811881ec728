"""A real PostgreSQL server for the self-tests: Debian's, started by the tests themselves in a
temporary folder (the history self-tests' fixtures, tests/selftest/history/conftest.py).

`Server.start()` runs `initdb` (the newest /usr/lib/postgresql/<version>/bin) into a new folder
under the temporary directory and `pg_ctl start`s it on 127.0.0.1, on a free port, with its unix
socket in that folder, trust authentication, and no durability (fsync, full_page_writes and
synchronous_commit off: a test's data lives as long as the test). `Server(password=...)` makes
TCP connections check passwords (scram-sha-256; the superuser `postgres` gets that password, the
unix socket stays trust), for tests of what a wrong password says. `stop()` stops it
(`pg_ctl stop -m immediate`) and removes the folder. PostgreSQL refuses to run as root: as root,
initdb and pg_ctl run as the `postgres` system user (Debian's package creates it; created here
with `useradd --system` where it is missing), the folder given to it.

One server per process: under pytest-xdist each worker starts its own (about a second), so no
worker waits on, or outlives, another. A server whose pytest was killed before it could stop it
is stopped and removed by the next start (its folder names the pid that started it).
Nothing here imports the harness.
"""
from __future__ import annotations

import functools
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

PREFIX = "harness-pg-"              # the servers' folders: <tmp>/harness-pg-<random>, owner.pid inside
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "fsync": "off",
    "full_page_writes": "off",
    "synchronous_commit": "off",
    "max_connections": "50",
    "shared_buffers": "32MB",
}


class PostgresMissing(RuntimeError):
    """PostgreSQL's server binaries are not installed."""


class PostgresError(RuntimeError):
    """The server did not start (the message carries the command's output and the server's log)."""


def bindir() -> Path:
    """The newest installed PostgreSQL's bin folder (Debian: /usr/lib/postgresql/<major>/bin)."""
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    if not found:
        raise PostgresMissing("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
                              "apt-get install postgresql, as bin/selftest does")
    return max(found, key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parent.name.split(".")])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@functools.cache
def _as_server_user() -> list[str]:
    """The command prefix that runs a server command as a user PostgreSQL accepts."""
    if os.geteuid() != 0:
        return []
    try:
        subprocess.run(["id", "-u", "postgres"], check=True, capture_output=True)
    except subprocess.CalledProcessError:
        subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                        "--shell", "/usr/sbin/nologin", "postgres"], check=True, capture_output=True)
    return ["runuser", "-u", "postgres", "--"]


def _env() -> dict[str, str]:
    """This environment without the libpq/server variables (PGDATA, PGPORT, ...) that would steer the commands."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PG")} | {"LC_ALL": "C"}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap(bin_path: Path, tmp: Path) -> None:
    """Stops and removes the servers left by processes that no longer exist (a killed pytest)."""
    for folder in tmp.glob(f"{PREFIX}*"):
        try:
            owner = int((folder / "owner.pid").read_text())
        except (OSError, ValueError):
            continue                                # being set up, or not ours
        if _alive(owner):
            continue
        if (folder / "data" / "postmaster.pid").exists():
            subprocess.run([*_as_server_user(), str(bin_path / "pg_ctl"), "stop", "-D", str(folder / "data"),
                            "-m", "immediate", "-w", "-t", "10"], capture_output=True, env=_env())
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Server:
    """One server: `start()`, then `create_database()` as often as wanted, then `stop()`."""
    bin: Path = field(default_factory=bindir)
    folder: Path | None = None
    port: int = 0
    started_in: float = 0.0                     # seconds initdb and pg_ctl start took
    password: str = ""                          # '' (trust), or the superuser's, checked on TCP
    _names: itertools.count = field(default_factory=itertools.count)

    @property
    def data(self) -> Path:
        assert self.folder is not None
        return self.folder / "data"

    def url(self, database: str = "postgres", driver: str = "postgresql+psycopg") -> str:
        """An SQLAlchemy URL of one of this server's databases, as the superuser `postgres` (with
        its password, where the server checks one)."""
        secret = f":{quote(self.password, safe='')}" if self.password else ""
        return f"{driver}://postgres{secret}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str, timeout: float = 60) -> subprocess.CompletedProcess:
        proc = subprocess.run([*_as_server_user(), *command], capture_output=True, text=True, env=_env(),
                              timeout=timeout, cwd=self.folder)
        if proc.returncode != 0:
            log = self.folder / "server.log" if self.folder else None
            tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
            raise PostgresError(f"{' '.join(command)} exited with {proc.returncode}:\n{proc.stdout[-2000:]}"
                                f"{proc.stderr[-2000:]}" + (f"\nserver log ({log}):\n{tail}" if tail else ""))
        return proc

    def start(self, attempts: int = 3) -> Server:
        begun = time.monotonic()
        tmp = Path(tempfile.gettempdir())
        reap(self.bin, tmp)
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=tmp))
        (self.folder / "owner.pid").write_text(str(os.getpid()))
        if os.geteuid() == 0:
            _as_server_user()                       # the user, created where missing
            shutil.chown(self.folder, "postgres", "postgres")
        auth = ["--auth=trust"]
        if self.password:
            pwfile = self.folder / "pwfile"
            pwfile.write_text(self.password + "\n")
            if os.geteuid() == 0:
                shutil.chown(pwfile, "postgres", "postgres")
            auth = ["--auth-local=trust", "--auth-host=scram-sha-256", f"--pwfile={pwfile}"]
        try:
            self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", *auth,
                      "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
        finally:
            (self.folder / "pwfile").unlink(missing_ok=True)
        settings = SETTINGS | {"unix_socket_directories": f"'{self.folder}'"}
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("\n# tests/selftest/postgres.py\n" + "".join(f"{k} = {v}\n" for k, v in settings.items()))
        for attempt in range(attempts):             # another process may take the free port first
            self.port = _free_port()
            try:
                self._run(str(self.bin / "pg_ctl"), "start", "-D", str(self.data), "-l", str(self.folder / "server.log"),
                          "-o", f"-p {self.port}", "-w", "-t", "60", timeout=90)
                break
            except PostgresError:
                if attempt == attempts - 1:
                    self.stop()
                    raise
        self.started_in = time.monotonic() - begun
        return self

    def stop(self) -> None:
        """Stops the server at once (nothing in it is kept) and removes its folder."""
        if self.folder is None:
            return
        if (self.data / "postmaster.pid").exists():
            proc = subprocess.run([*_as_server_user(), str(self.bin / "pg_ctl"), "stop", "-D", str(self.data),
                                   "-m", "immediate", "-w", "-t", "30"], capture_output=True, env=_env())
            if proc.returncode != 0:                # pg_ctl gone wrong: the postmaster's pid, first line
                try:
                    os.kill(int((self.data / "postmaster.pid").read_text().split()[0]), signal.SIGQUIT)
                except (OSError, ValueError, IndexError):
                    pass
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def _execute(self, sql: str) -> None:
        import psycopg
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="postgres",
                             password=self.password or None, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql)

    def create_database(self, stem: str = "test", owner: str = "") -> str:
        """A new, empty database's name (unique on this server), owned by `owner` if given."""
        name = f"{stem}_{next(self._names)}"
        self._execute(f'CREATE DATABASE "{name}"' + (f' OWNER "{owner}"' if owner else ""))
        return name

    def create_role(self, name: str, password: str) -> None:
        """A role that logs in with `password` and may create databases."""
        self._execute(f"CREATE ROLE \"{name}\" LOGIN CREATEDB PASSWORD '{password.replace(chr(39), chr(39) * 2)}'")

    def drop_database(self, name: str) -> None:
        """Drops a database, closing the connections a test left open to it."""
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
