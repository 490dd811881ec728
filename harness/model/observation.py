"""What a backend sends back for a case, and how its transform-feedback bytes are decoded.

An observation is JSON: {"steps": [{"counts": {name: int}, "xfb": base64}, ...]}, one object
per step of the case, in order. The records are interleaved in the order of the case's
captures, 4 bytes per component.
"""
from __future__ import annotations

import base64
import functools

import numpy as np

from harness.model.case import CAPTURE_TYPES, Capture


def steps_of(observation) -> list | None:
    """The per-step observations; those written before the case had steps call them "draws"."""
    if not isinstance(observation, dict):
        return None
    return observation.get("steps", observation.get("draws"))


@functools.lru_cache(maxsize=64)          # one dtype per capture layout, not one per judged draw
def record_dtype(captures: tuple[Capture, ...]) -> np.dtype:
    fields = []
    for cap in captures:
        base, n = CAPTURE_TYPES[cap.type]
        fields.append((cap.quantity, "<" + base, (n,)))
    return np.dtype(fields)


def encode_records(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def decode_records(captures: tuple[Capture, ...], text: str) -> np.ndarray:
    raw = base64.b64decode(text)
    dtype = record_dtype(captures)
    usable = len(raw) - len(raw) % dtype.itemsize
    return np.frombuffer(raw[:usable], dtype=dtype)
