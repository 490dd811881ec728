"""`python -m harness dashboard`: the results history (harness/history) as web pages, served
locally from the store (read-only; 127.0.0.1 unless --host says otherwise), or written once as a
static site with relative links (`--static OUT`: opens from file://, or publish it on GitLab Pages).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.cli.history_args import days, last_runs_argument, store_argument, store_of
from harness.history import dashboard, serve
from harness.history.store import StoreError, open_store, shown

PROG = "python -m harness dashboard"


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.description = __doc__
    store_argument(cmd)
    cmd.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    cmd.add_argument("--port", type=int, default=8045, help="the port (default 8045; 0: any free one)")
    cmd.add_argument("--static", type=Path, default=None, metavar="OUT",
                     help="write every page under OUT and exit, instead of serving")
    last_runs_argument(cmd, None, "the index, and with --static the run and regressions pages; a long "
                                  "history's static export takes minutes; ")
    cmd.add_argument("--days", type=days, default=dashboard.DEFAULT_DAYS,
                     help=f"the flakes page's window: the last N days (default {dashboard.DEFAULT_DAYS:g})")


def run(args: argparse.Namespace) -> int:
    store = store_of(args)
    try:
        engine = open_store(store, readonly=True)
        if args.static is not None:
            pages = dashboard.export(engine, args.static, args.days, limit=args.last_runs)
            print(f"{pages} pages: {args.static / 'index.html'}")
            return 0
        server = serve.Server(engine, (args.host, args.port), args.days, args.last_runs)
    except StoreError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:                  # the port is taken, OUT cannot be written
        print(f"{PROG}: {exc.strerror or exc}{': ' + str(exc.filename) if exc.filename else ''}", file=sys.stderr)
        return 2
    print(f"serving {shown(store)} at {server.url} (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
