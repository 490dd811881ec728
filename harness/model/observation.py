"""What a backend observes of a case (Observation: one Step per step of the case, in order),
its JSON form in a failure's observation file and on the child's pipe, and how transform-feedback
bytes are decoded.

The JSON form is {"steps": [{"counts": {name: int}, "image": base64, "xfb": base64,
"queries": {label: {call: int} | null}, "storage": {"binding": base64 | null}}, ...]}; a step
holds "counts" always and the other keys only where it read that back. In a file the bytes are
base64; on the child's pipe each is the number of a raw blob sent after the JSON instead
(`pack`/`unpack`, harness/executor/protocol.py). The bytes: transform-feedback records
interleaved in the order of the case's captures, 4 bytes per component; an image as RGBA32F
little-endian, bottom row first (GL's glReadPixels order), which the oracle views with
np.frombuffer without a copy.
"""
from __future__ import annotations

import base64
import functools
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from harness.model.case import CAPTURE_TYPES, Capture

# Vertices per primitive that transform feedback records: the xfb_vertices count.
XFB_VERTICES = {"POINTS": 1, "LINES": 2, "TRIANGLES": 3}

Answers = dict[str, int]                   # a program query's answer by each call that gave one
Pack = Callable[[bytes], Any]              # the JSON value that stands for some bytes
Unpack = Callable[[Any], bytes]            # the bytes a JSON value stands for


@dataclass
class Step:
    """What one step read back. `counts`: query results and counts by name (primitives_generated,
    xfb_primitives_written, xfb_vertices, gl_error, link_failed, atomic counter N). The rest is
    None where the step did not read it: `image` and `xfb` raw bytes; `queries` by label, None
    for a name the program lacks; `storage` a buffer's bytes by binding, None where none is bound."""
    counts: dict[str, int] = field(default_factory=dict)
    image: bytes | None = None
    xfb: bytes | None = None
    queries: dict[str, Answers | None] | None = None
    storage: dict[int, bytes | None] | None = None

    def to_json(self, pack: Pack | None = None) -> dict[str, Any]:
        """The step's JSON object, its bytes base64 (or what `pack` makes of them); its keys in
        the order the runners have always written them."""
        pack = pack or encode_records
        out: dict[str, Any] = {"counts": self.counts}
        if self.image is not None:
            out["image"] = pack(self.image)
        if self.xfb is not None:
            out["xfb"] = pack(self.xfb)
        if self.queries is not None:
            out["queries"] = self.queries
        if self.storage is not None:
            out["storage"] = {str(b): None if raw is None else pack(raw) for b, raw in self.storage.items()}
        return out

    @classmethod
    def from_json(cls, data: Any, unpack: Unpack | None = None) -> "Step":
        """The step of a JSON object, its bytes base64 (or what `unpack` takes); anything but an
        object is an empty step (nothing observed)."""
        if not isinstance(data, dict):
            return cls()
        unpack = unpack or base64.b64decode

        def raw(value: Any) -> bytes | None:
            return None if value is None else unpack(value)
        storage = data.get("storage")
        return cls(counts=dict(data.get("counts") or {}),
                   image=raw(data.get("image")), xfb=raw(data.get("xfb")),
                   queries=data.get("queries"),
                   storage=None if storage is None else {int(b): raw(value) for b, value in storage.items()})


@dataclass
class Observation:
    """What a backend observed of a case: its steps' readbacks, in the case's step order."""
    steps: list[Step] = field(default_factory=list)

    def to_json(self, pack: Pack | None = None) -> dict[str, Any]:
        return {"steps": [step.to_json(pack) for step in self.steps]}

    @classmethod
    def from_json(cls, data: Any, unpack: Unpack | None = None) -> "Observation":
        """The observation of a reply's (or an observation file's) JSON; no steps where it has none."""
        steps = steps_of(data)
        return cls([Step.from_json(step, unpack) for step in steps] if isinstance(steps, list) else [])


def steps_of(observation: Any) -> list[Any] | None:
    """The per-step JSON objects; those written before the case had steps call them "draws"."""
    if not isinstance(observation, dict):
        return None
    steps = observation.get("steps", observation.get("draws"))
    return steps if isinstance(steps, list) else None


@functools.lru_cache(maxsize=64)          # one dtype per capture layout, not one per judged draw
def record_dtype(captures: tuple[Capture, ...]) -> np.dtype[Any]:
    fields = []
    for cap in captures:
        base, n = CAPTURE_TYPES[cap.type]
        fields.append((cap.quantity, "<" + base, (n,)))
    return np.dtype(fields)


def encode_records(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def decode_records(captures: tuple[Capture, ...], raw: bytes | str | None) -> np.ndarray[Any, Any]:
    """The records of a step's transform-feedback bytes (or their base64); a partial record at
    the end is dropped."""
    if raw is None:
        raw = b""
    elif isinstance(raw, str):
        raw = base64.b64decode(raw)
    dtype = record_dtype(captures)
    usable = len(raw) - len(raw) % dtype.itemsize
    return np.frombuffer(raw[:usable], dtype=dtype)
