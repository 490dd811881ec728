"""Framing between the executor and its child: 4-byte big-endian length, then the body.

Replies (child to executor) are UTF-8 JSON: the child runs a driver that may have corrupted its
heap, and the executor decodes nothing richer than JSON from it. Requests (executor to child)
are pickles: both ends are this harness on one interpreter, and a request costs a third of
its JSON as a pickle (docs/decisions.md#pickle-requests).
"""
from __future__ import annotations

import json
import os
import pickle
import select
import struct
import time
from typing import Any

from harness.base.profiling import section
from harness.base.errors import CaseOutcome

_HEADER = struct.Struct(">I")
_PICKLE = pickle.HIGHEST_PROTOCOL


class ChildGone(CaseOutcome):
    """The other end closed the pipe (the child exited or crashed)."""


class ChildTimeout(CaseOutcome):
    """No complete reply before the deadline."""


def send(fd: int, message: dict[str, Any]) -> None:
    """A reply."""
    with section("pipe.send"):
        _write(fd, json.dumps(message, separators=(",", ":")).encode())


def recv(fd: int, timeout: float | None = None) -> dict[str, Any]:
    """A reply, within `timeout` seconds (ChildTimeout) or however long it takes."""
    with section("pipe.recv"):
        body = _read(fd, timeout)
        with section("json.loads"):
            reply: dict[str, Any] = json.loads(body)
            return reply


def send_request(fd: int, message: dict[str, Any]) -> None:
    _write(fd, pickle.dumps(message, protocol=_PICKLE))


def recv_request(fd: int) -> dict[str, Any]:
    body = _read(fd, None)
    with section("pickle.loads"):
        request: dict[str, Any] = pickle.loads(body)
        return request


def _write(fd: int, body: bytes) -> None:
    data = _HEADER.pack(len(body)) + body
    while data:
        data = data[os.write(fd, data):]


def _read(fd: int, timeout: float | None) -> bytes:
    deadline = None if timeout is None else time.monotonic() + timeout
    (size,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size, deadline))
    return _read_exactly(fd, size, deadline)


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes:
    chunks, missing = [], size
    while missing:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise ChildTimeout()
        chunk = os.read(fd, min(missing, 1 << 20))
        if not chunk:
            raise ChildGone()
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)
