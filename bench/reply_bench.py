"""CPU of a child's replies through a pipe, both ends: the JSON reply with base64 bytes inside
it (json+base64), harness/executor/protocol.py's JSON with the bytes raw after it, built and read
as a plain dict (json+blobs), and the same framing as the child and the executor use it now, a
harness.model.status.Result through protocol.send_reply and recv_reply (result).

Inputs: (case id, Result) pairs that bench/collect_observations.py saved from a run. The forms
carry the same observations in this one process, interleaved reply by reply (the order rotated
every round), so that a loaded machine slows them alike; the child's side (from the Observation
to the pipe) runs on a thread of its own and the parent's (from the pipe to the Observation) on
the main one, each timed with its thread's CPU clock; a reply's time is its least over the
rounds. Each side's Observation is checked equal to the one sent.

    .venv/bin/python bench/collect_observations.py /tmp/judge_obs.pickle
    .venv/bin/python bench/reply_bench.py /tmp/judge_obs.pickle [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.executor import protocol  # noqa: E402
from harness.model.observation import Observation  # noqa: E402
from harness.model.status import Reply, Result  # noqa: E402

FRAME = struct.Struct(">I")


def json_send(fd: int, observation: Observation) -> None:
    """The reply as the child wrote it before: one JSON, the bytes base64 inside it."""
    body = json.dumps({"status": "ok", "observation": observation.to_json(), "duration": 0.001},
                      separators=(",", ":")).encode()
    data = memoryview(FRAME.pack(len(body)) + body)
    while data:
        data = data[os.write(fd, data):]


def json_recv(fd: int) -> Observation:
    (size,) = FRAME.unpack(_read(fd, FRAME.size))
    return Observation.from_json(json.loads(_read(fd, size))["observation"])


def blob_send(fd: int, observation: Observation) -> None:
    blobs: list[bytes] = []
    protocol.send(fd, {"status": "ok", "observation": observation.to_json(protocol.packer(blobs)),
                       "duration": 0.001}, blobs)


def blob_recv(fd: int) -> Observation:
    reply, blobs = protocol.recv(fd)
    return Observation.from_json(reply["observation"], protocol.unpacker(blobs))


def result_send(fd: int, observation: Observation) -> None:
    protocol.send_reply(fd, Result(Reply.OK, observation=observation, duration=0.001))


def result_recv(fd: int) -> Observation:
    observation = protocol.recv_reply(fd).observation
    assert observation is not None
    return observation


def _read(fd: int, size: int) -> bytes:
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def one(observation: Observation, send: Callable[[int, Observation], None],
        recv: Callable[[int], Observation]) -> tuple[float, float]:
    """The sender's and the receiver's CPU seconds for one reply."""
    r, w = os.pipe()
    sent = [0.0]

    def child() -> None:
        start = time.thread_time()
        send(w, observation)
        sent[0] = time.thread_time() - start

    writer = threading.Thread(target=child)
    writer.start()
    start = time.thread_time()
    got = recv(r)
    took = time.thread_time() - start
    writer.join()
    os.close(r)
    os.close(w)
    if got != observation:
        sys.exit("an observation came back different")
    return sent[0], took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pairs")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with open(args.pairs, "rb") as f:
        observations = [r.observation for _, r in pickle.load(f)["pairs"] if r.observation is not None]
    forms: dict[str, Any] = {"json+base64": (json_send, json_recv), "json+blobs": (blob_send, blob_recv),
                             "result": (result_send, result_recv)}
    best = {name: [[float("inf")] * 2 for _ in observations] for name in forms}
    for round_ in range(args.rounds):
        order = list(forms)[round_ % len(forms):] + list(forms)[:round_ % len(forms)]     # rotated each round
        for i, observation in enumerate(observations):
            for name in order:
                times = one(observation, *forms[name])
                best[name][i] = [min(a, b) for a, b in zip(best[name][i], times)]
    sizes = [len(json.dumps(o.to_json())) for o in observations]
    print(f"{len(observations)} replies, JSON+base64 {sum(sizes) / len(sizes) / 1e3:.0f} KB on average, "
          f"{max(sizes) / 1e6:.1f} MB at most; least CPU of {args.rounds} rounds, ms a reply:")
    for name in forms:
        child = sum(t[0] for t in best[name]) / len(observations) * 1e3
        parent = sum(t[1] for t in best[name]) / len(observations) * 1e3
        print(f"  {name:12} child {child:.3f}  parent {parent:.3f}  both {child + parent:.3f}")


if __name__ == "__main__":
    main()
