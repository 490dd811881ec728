"""The executor's framing (harness/executor/protocol.py): requests go to the child as pickles, replies come
back as JSON with raw blobs after it, a reply is never unpickled, and one whose lengths do not add
up is refused whole."""
from __future__ import annotations

import dataclasses
import json
import os
import pickle
import struct
import threading
import time

import numpy as np
import pytest

from harness.sources import catalog
from harness.executor import protocol
from harness.model.facts import Facts, Known, Profile
from harness.model.observation import Observation, Step
from harness.model.status import Reply, Result


def _pipe_round_trip(write, read, message):
    r, w = os.pipe()
    try:
        write(w, message)
        os.close(w)
        w = -1
        return read(r)
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_a_request_carries_the_case_itself():
    case = catalog.cases("tess")[0]
    got = _pipe_round_trip(protocol.send_request, protocol.recv_request, protocol.Request("run", case, batch="new"))
    assert got == protocol.Request("run", case, batch="new") and got.case is not case


def test_a_reply_is_json_and_a_pickled_one_is_refused():
    reply = {"status": "ok", "observation": {"steps": [{"counts": {"primitives_generated": 3}}]}}
    assert _pipe_round_trip(protocol.send, protocol.recv, reply) == (reply, [])
    with pytest.raises(ValueError):            # BadReply or json's error, never an unpickled object
        _pipe_round_trip(protocol.send_request, protocol.recv, protocol.Request("info"))


PROFILE = Profile("llvmpipe", "Mesa", "4.5 (Core Profile) Mesa 25.0.7", (4, 5), "4.50",
                  {"GL_MAX_PATCH_VERTICES": 32}, ("GL_ARB_a", "GL_ARB_b"))
FACTS = Facts("llvmpipe", "Mesa", "4.5", "egl", {"core": dataclasses.replace(PROFILE, extensions=None)},
              vk_paths={"vk_path": "native"}, mesa="25.0.7", mesa_libraries=("/usr/lib/libEGL_mesa.so.0",))


@pytest.mark.parametrize("result", [
    Result(Reply.OK, info=FACTS, known=Known({"core": PROFILE, "compat": PROFILE})),
    Result(Reply.OK),
    Result(Reply.SKIP, "needs GL 4.6"),
    Result(Reply.FAIL, "GL error", duration=0.25),
])
def test_a_reply_comes_back_the_result_the_child_sent(result):
    got = _pipe_round_trip(protocol.send_reply, lambda fd: protocol.recv_reply(fd, 30.0), result)
    assert got == result and Result.from_json(result.to_json()) == result


def test_a_reply_without_a_duration_took_the_parents_time():
    r, w = os.pipe()
    try:
        protocol.send_reply(w, Result(Reply.SKIP, "no"))
        got = protocol.recv_reply(r, 30.0, since=time.perf_counter() - 5)
    finally:
        os.close(r)
        os.close(w)
    assert got.status is Reply.SKIP and got.duration >= 5


@pytest.mark.parametrize("reply", [
    {"status": "ok", "message": 3}, {"status": "ok", "duration": "1"}, {"status": "ok", "info": []},
    {"status": "ok", "info": {"renderer": 1}}, {"status": "ok", "known": {"facts": {"core": 2}}},
])
def test_a_reply_that_is_no_result_is_refused(reply):
    with pytest.raises(protocol.BadReply):
        _pipe_round_trip(lambda fd, m: protocol.send(fd, m), lambda fd: protocol.recv_reply(fd, 30.0), reply)


OBSERVED = Observation([
    Step(counts={"xfb_vertices": 2}, xfb=np.arange(8, dtype="<f4").tobytes(), image=b""),
    Step(counts={"gl_error": 0}, image=np.linspace(0, 1, 64, dtype="<f4").tobytes()),
    Step(queries={"a": {"glGetActiveUniformsiv": 1}, "b": None}, storage={2: b"\x01\x02\x03", 5: None}),
    Step(),
])


def _body(reply, blobs):
    """The body of the frame protocol.send writes."""
    r, w = os.pipe()
    try:
        protocol.send(w, reply, blobs)
        os.close(w)
        w = -1
        return os.read(r, 1 << 20)[4:]
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_an_observations_bytes_travel_raw_and_come_back_the_same():
    assert _pipe_round_trip(protocol.send_reply, protocol.recv_reply,
                            Result(Reply.OK, observation=OBSERVED)) == Result(Reply.OK, observation=OBSERVED)
    blobs: list[bytes] = []
    reply = {"status": "ok", "observation": OBSERVED.to_json(protocol.packer(blobs))}
    assert len(blobs) == 4 and [reply["observation"]["steps"][0][k] for k in ("image", "xfb")] == [0, 1]
    got, got_blobs = _pipe_round_trip(lambda fd, m: protocol.send(fd, m, blobs), protocol.recv, reply)
    assert got == reply and got_blobs == blobs
    assert Observation.from_json(got["observation"], protocol.unpacker(got_blobs)) == OBSERVED
    head = json.dumps(reply | {"blobs": [len(blob) for blob in blobs]}, separators=(",", ":")).encode()
    assert _body(reply, blobs) == _framed(head, b"".join(blobs))    # the JSON, then the bytes once, as they are


def _framed(head: bytes, tail: bytes = b"") -> bytes:
    return struct.pack(">I", len(head)) + head + tail


@pytest.mark.parametrize("body", [
    b"", b"\x00\x00",                                                    # shorter than its header
    _framed(b'{"blobs":[]}')[:-1],                                       # JSON cut short
    struct.pack(">I", 1000) + b'{"blobs":[]}',                           # JSON longer than the body
    _framed(b'{"blobs":[4]}', b"abc"),                                   # a blob cut short
    _framed(b'{"blobs":[2]}', b"abc"),                                   # bytes left over
    _framed(b'{"status":"ok"}'),                                         # no lengths
    _framed(b'[1, 2]'), _framed(b'{"blobs":[-1]}', b"a"), _framed(b'{"blobs":[1.0]}', b"a"),
    _framed(b'{"blobs":[true]}', b"a"), _framed(b'{"blobs":"1"}', b"a"),
    _framed(b'\xff{"blobs":[]}'),                                        # not UTF-8
])
def test_a_garbled_reply_is_refused_whole(body):
    with pytest.raises(ValueError):
        protocol.split(body)


@pytest.mark.parametrize("ref", [4, -1, True, "0", 0.0, None, [0]])
def test_a_value_that_names_no_blob_is_refused(ref):
    unpack = protocol.unpacker([b"a", b"b", b"c", b"d"])
    assert unpack(3) == b"d"
    with pytest.raises(protocol.BadReply):
        unpack(ref)


def test_a_reply_of_the_wrong_kind_of_value_is_refused_not_decoded():
    body = _framed(b'{"status":"ok","observation":{"steps":[{"counts":{},"image":"AAAA"}]},"blobs":[]}')
    reply, blobs = protocol.split(body)
    with pytest.raises(protocol.BadReply):       # base64 where a blob's number belongs
        Observation.from_json(reply["observation"], protocol.unpacker(blobs))


def test_a_reply_larger_than_a_pipe_buffer_arrives_whole():
    blobs = [bytes(range(256)) * 4096, b"x" * 70000]                   # 1 MiB and a bit
    r, w = os.pipe()
    writer = threading.Thread(target=lambda: (protocol.send(w, {"status": "ok"}, blobs), os.close(w)), daemon=True)
    writer.start()
    try:
        assert protocol.recv(r, timeout=60) == ({"status": "ok"}, blobs)
    finally:
        writer.join(timeout=60)
        os.close(r)
    assert not writer.is_alive()


def test_a_request_larger_than_a_pipe_buffer_arrives_whole():
    big = protocol.Request("adopt", known=Known({"core": dataclasses.replace(     # 700 KiB and more
        PROFILE, extensions=tuple(f"GL_EXT_{n:06}" for n in range(50000)))}))
    r, w = os.pipe()
    # the writer blocks until the reader drains; a thread, not a fork: a fork of a multi-threaded
    # process (an xdist worker) may deadlock in the child (Python 3.13 warns so, Debian 13)
    writer = threading.Thread(target=lambda: (protocol.send_request(w, big), os.close(w)), daemon=True)
    writer.start()
    try:
        assert protocol.recv_request(r) == big
    finally:
        writer.join(timeout=60)
        os.close(r)
    assert not writer.is_alive()
    assert len(pickle.dumps(big)) > 1 << 16


def test_a_reply_cut_short_by_the_childs_death_is_a_child_gone():
    """The executor's crash verdict: the pipe closed before the frame's length was read."""
    blobs = [b"x" * 100]
    head = json.dumps({"status": "ok", "blobs": [100]}).encode()
    frame = struct.pack(">I", 4 + len(head) + 100) + _framed(head, blobs[0])
    with pytest.raises(protocol.ChildGone):
        _pipe_round_trip(lambda fd, _: os.write(fd, frame[:-1]), protocol.recv, None)
    assert _pipe_round_trip(lambda fd, _: os.write(fd, frame), protocol.recv, None) == ({"status": "ok"}, blobs)
