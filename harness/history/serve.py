"""`harness dashboard`'s local server: the dashboard's pages (harness/history/dashboard.py) at the
paths the static export writes them to, built on each request from a read-only store. GET and
HEAD only (anything else: 501), 127.0.0.1 unless told otherwise, 404 for any other path. Besides
the export's pages it answers regressions.html?old=ID&new=ID for any two runs.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
import sys
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from harness.history import dashboard
from harness.history.store import scrubbed
from harness.base.errors import UsageError


Query = dict[str, list[str]]          # a query string, as parse_qs reads it


class BadRequest(UsageError, ValueError):
    """A query string the page cannot use: one line for the user."""


def _number(query: Query, name: str) -> int:
    values = query.get(name, [""])
    if len(values) != 1 or not values[0].isdigit():
        raise BadRequest(f"{name}: expected one run id, got {', '.join(values)!r}")
    return int(values[0])


@dataclass(frozen=True)
class Settings:
    days: float = dashboard.DEFAULT_DAYS        # the flakes page's window
    runs: int | None = None                     # the index's newest runs (None: all)


def _regressions(connection: Connection, _match: re.Match[str], query: Query, settings: Settings) -> str | None:
    if "old" in query or "new" in query:
        return dashboard.regressions(connection, _number(query, "old"), _number(query, "new"))
    return dashboard.regressions_index(connection, live=True, limit=settings.runs)


def _case(connection: Connection, match: re.Match[str], _query: Query, _settings: Settings) -> str | None:
    name = dashboard.case_named(connection, match[1])
    return None if name is None else dashboard.case(connection, name)


# path -> the page: its function of (connection, the path's match, the query string, the Settings)
Page = Callable[[Connection, "re.Match[str]", Query, Settings], "str | None"]
ROUTES: list[tuple[re.Pattern[str], Page]] = [
    (re.compile(r"/(index\.html)?"), lambda c, m, q, s: dashboard.index(c, limit=s.runs)),
    (re.compile(r"/flakes\.html"), lambda c, m, q, s: dashboard.flakes(c, s.days)),
    (re.compile(r"/regressions\.html"), _regressions),
    (re.compile(r"/runs/([0-9]{1,18})\.html"), lambda c, m, q, s: dashboard.run(c, int(m[1]))),
    (re.compile(r"/regressions/([0-9]{1,18})\.html"), lambda c, m, q, s: dashboard.lane_regressions(c, int(m[1]))),
    (re.compile(r"/cases/([A-Za-z0-9._~+=-]{1,200})\.html"), _case),
]


def _message(status: int, text: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{status}</title></head>"
            f"<body><p>{html.escape(text)}</p><p><a href=\"/\">the dashboard</a></p></body></html>\n")


class Server(ThreadingHTTPServer):
    """The dashboard over `engine` (read-only), listening on `address`."""
    daemon_threads = True

    def __init__(self, engine: Engine, address: tuple[str, int], days: float = dashboard.DEFAULT_DAYS,
                 runs: int | None = None):
        self.engine, self.settings = engine, Settings(days, runs)
        super().__init__(address, Handler)

    @property
    def url(self) -> str:
        address, port = self.server_address[:2]
        host = address.decode() if isinstance(address, bytes) else str(address)
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def page(self, target: str) -> tuple[int, str]:
        """The status and HTML of a request's path and query."""
        parts = urlsplit(target)
        path, query = unquote(parts.path), parse_qs(parts.query, keep_blank_values=True)
        for pattern, build in ROUTES:
            match = pattern.fullmatch(path)
            if match is None:
                continue
            try:
                with self.engine.connect() as connection:
                    text = build(connection, match, query, self.settings)
            except BadRequest as exc:
                return 400, _message(400, str(exc))
            except SQLAlchemyError as exc:          # the store went away or broke: say so, keep serving
                said = scrubbed(str(exc).splitlines()[0], self.engine.url.password)
                print(f"python -m harness dashboard: {path}: {type(exc).__name__}: {said}", file=sys.stderr)
                return 503, _message(503, "the history store could not be read (the server's log says why)")
            return (404, _message(404, f"{path}: not in the history")) if text is None else (200, text)
        return 404, _message(404, f"{path}: no such page")


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "harness-dashboard"

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def _answer(self, body: bool) -> None:
        status, text = self.server.page(self.path)
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-store")          # each request reads the store as it is now
        self.end_headers()
        if body:
            self.wfile.write(data)
