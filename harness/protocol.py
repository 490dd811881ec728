"""Framing between the executor and its child: 4-byte big-endian length, then UTF-8 JSON."""
from __future__ import annotations

import json
import os
import select
import struct
import time

_HEADER = struct.Struct(">I")


class ChildGone(Exception):
    """The other end closed the pipe (the child exited or crashed)."""


class ChildTimeout(Exception):
    """No complete reply before the deadline."""


def send(fd: int, message: dict) -> None:
    body = json.dumps(message, separators=(",", ":")).encode()
    data = _HEADER.pack(len(body)) + body
    while data:
        data = data[os.write(fd, data):]


def recv(fd: int, timeout: float | None = None) -> dict:
    deadline = None if timeout is None else time.monotonic() + timeout
    (size,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size, deadline))
    return json.loads(_read_exactly(fd, size, deadline))


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
