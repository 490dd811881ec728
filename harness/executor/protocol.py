"""Framing between the executor and its child: 4-byte big-endian length, then the body.

A reply's body (child to executor) is a 4-byte big-endian length, that many bytes of UTF-8 JSON
(an object whose "blobs" lists the lengths of the raw byte strings after it), then those byte
strings, back to back; a value in the JSON stands for a blob by its number (`packer`,
`unpacker`: an observation's readbacks). The child runs a driver that may have corrupted its
heap, so the executor decodes nothing richer than JSON and plain bytes from it: a blob is only
ever sliced out and read as numbers (np.frombuffer), and a reply whose lengths do not add up is
refused whole (BadReply, naming what was received: the executor then kills the child, whose
pipe is out of step, and the case is `error`). Requests (executor to child) are pickles: both ends are this harness on
one interpreter, and a request costs a third of its JSON as a pickle
(docs/decisions.md#pickle-requests). A request is a Request; a reply is a
harness.model.status.Result in its JSON form, decoded here (`recv_reply`) and nowhere else.
"""
from __future__ import annotations

import json
import os
import pickle
import select
import struct
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from harness.base.profiling import section
from harness.base.errors import CaseOutcome, HarnessFault
from harness.model.case import Case
from harness.model.facts import Known
from harness.model.status import Result

_HEADER = struct.Struct(">I")
_PICKLE = pickle.HIGHEST_PROTOCOL
# The largest reply frame read (replies measured: 3.4 MB at most). A length over it is not one: a
# driver that wrote text to the reply pipe, whose first four bytes, read as a length, are 512 MiB
# or more for any printable ASCII.
MAX_REPLY = 1 << 28
SHOWN = 120                 # bytes of a refused reply quoted in its message


@dataclass(frozen=True)
class Request:
    """What the executor asks its child. `op`: "info" (the first request: start, and answer the
    target's facts), "adopt" (a replacement child's first: start, taking `known`, the first child's
    facts), "run" (`case`; `batch`: "new" or "keep", in the child's batch context, or "" alone)."""
    op: str
    case: Case | None = None
    batch: str = ""
    known: Known | None = None


class ChildGone(CaseOutcome):
    """The other end closed the pipe (the child exited or crashed)."""


class ChildTimeout(CaseOutcome):
    """No complete reply before the deadline."""


class BadReply(HarnessFault, ValueError):
    """A reply that is not a JSON object with blobs whose lengths add up to its body's, or whose
    observation is not one: nothing of it is used, and the message quotes what was received."""


def send(fd: int, message: dict[str, Any], blobs: Sequence[bytes] = ()) -> None:
    """A reply: `message` (its "blobs" key is the framing's) and the blobs its values number."""
    with section("pipe.send"):
        head = json.dumps(message | {"blobs": [len(blob) for blob in blobs]}, separators=(",", ":")).encode()
        _write(fd, _HEADER.pack(len(head)), head, *blobs)


def recv(fd: int, timeout: float | None = None) -> tuple[dict[str, Any], list[bytes]]:
    """A reply and its blobs, within `timeout` seconds (ChildTimeout) or however long it takes;
    BadReply, quoting what was received, for a body that is not one."""
    with section("pipe.recv"):
        body = _read(fd, timeout, MAX_REPLY)
        with section("json.loads"):
            try:
                return split(body)
            except ValueError as exc:       # BadReply, json's JSONDecodeError, invalid UTF-8
                raise BadReply(f"{exc}; received {received(body)}") from None


def send_reply(fd: int, result: Result) -> None:
    """A child's reply: the result's JSON, its observation's bytes raw after it."""
    blobs: list[bytes] = []
    send(fd, result.to_json(packer(blobs)), blobs)


def recv_reply(fd: int, timeout: float | None = None, since: float | None = None) -> Result:
    """A reply decoded (recv), within `timeout` seconds; BadReply for one that is not a Result's
    JSON. One that names no duration took the time since `since` (time.perf_counter; 0 if None)."""
    reply, blobs = recv(fd, timeout)
    took = 0.0 if since is None else time.perf_counter() - since
    try:
        return Result.from_json(reply, unpacker(blobs), took)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:    # the shapes JSON can take instead
        raise BadReply(f"a reply that is not one ({exc}); received {received(json.dumps(reply).encode())}") from None


def received(data: bytes) -> str:
    """Bytes that came down the pipe, for a message: how many, and the first SHOWN of them."""
    return f"{len(data)} bytes: {data[:SHOWN]!r}{'...' if len(data) > SHOWN else ''}"


def split(body: bytes) -> tuple[dict[str, Any], list[bytes]]:
    """A reply's JSON object (less "blobs") and its blobs; BadReply (or json's ValueError) if
    the body is not one."""
    if len(body) < _HEADER.size:
        raise BadReply(f"a reply of {len(body)} bytes, shorter than its header")
    (size,) = _HEADER.unpack_from(body)
    end = _HEADER.size + size
    if end > len(body):
        raise BadReply(f"a reply's JSON of {size} bytes in a body of {len(body)}")
    reply = json.loads(body[_HEADER.size:end])
    lengths = reply.pop("blobs", None) if isinstance(reply, dict) else None
    if not isinstance(lengths, list) or not all(type(n) is int and n >= 0 for n in lengths):
        raise BadReply(f"a reply that is not a JSON object listing its blobs' lengths: {body[:200]!r}")
    if end + sum(lengths) != len(body):
        raise BadReply(f"a reply's blobs of {sum(lengths)} bytes after its JSON, {len(body) - end} there")
    blobs = []
    for n in lengths:
        blobs.append(body[end:end + n])
        end += n
    return reply, blobs


def packer(blobs: list[bytes]) -> Callable[[bytes], int]:
    """What stands for some bytes in a reply's JSON: the number of the blob they become."""
    def pack(raw: bytes) -> int:
        blobs.append(raw)
        return len(blobs) - 1
    return pack


def unpacker(blobs: list[bytes]) -> Callable[[Any], bytes]:
    """The blob a value in a reply's JSON stands for; BadReply if it is not one's number."""
    def unpack(ref: Any) -> bytes:
        if type(ref) is not int or not 0 <= ref < len(blobs):
            raise BadReply(f"a reply names blob {ref!r} of {len(blobs)}")
        return blobs[ref]
    return unpack


def send_request(fd: int, request: Request) -> None:
    _write(fd, pickle.dumps(request, protocol=_PICKLE))


def recv_request(fd: int) -> Request:
    body = _read(fd, None)
    with section("pickle.loads"):
        request = pickle.loads(body)
    if not isinstance(request, Request):
        raise TypeError(f"a request of type {type(request).__name__}")
    return request


def _write(fd: int, *body: bytes) -> None:
    """One frame of the body's parts joined (one copy: a pipe's write wants one buffer)."""
    data = memoryview(b"".join([_HEADER.pack(sum(map(len, body))), *body]))
    while data:
        data = data[os.write(fd, data):]


def _read(fd: int, timeout: float | None, limit: int | None = None) -> bytes:
    deadline = None if timeout is None else time.monotonic() + timeout
    header = _read_exactly(fd, _HEADER.size, deadline)
    (size,) = _HEADER.unpack(header)
    if limit is not None and size > limit:      # not a length: quote it and what follows it now
        more = os.read(fd, SHOWN) if select.select([fd], [], [], 0)[0] else b""
        raise BadReply(f"a frame's length of {size} bytes, over the {limit} a reply may have; "
                       f"received {received(header + more)}")
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
