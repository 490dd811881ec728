"""The executor's framing (harness/executor/protocol.py): requests go to the child as pickles, replies come
back as JSON, and a reply is never unpickled."""
from __future__ import annotations

import os
import pickle
import threading

import pytest

from harness.sources import catalog
from harness.executor import protocol


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
    got = _pipe_round_trip(protocol.send_request, protocol.recv_request, {"op": "run", "case": case})
    assert got["op"] == "run" and got["case"] == case and got["case"] is not case


def test_a_reply_is_json_and_a_pickled_one_is_refused():
    reply = {"status": "ok", "observation": {"steps": [{"counts": {"primitives_generated": 3}}]}}
    assert _pipe_round_trip(protocol.send, protocol.recv, reply) == reply
    with pytest.raises(ValueError):            # json.JSONDecodeError, not an unpickled object
        _pipe_round_trip(protocol.send_request, protocol.recv, reply)


def test_a_request_larger_than_a_pipe_buffer_arrives_whole():
    big = {"op": "run", "blob": bytes(range(256)) * 2048}       # 512 KiB
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
