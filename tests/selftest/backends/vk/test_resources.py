"""A case's Vulkan resources (harness/backends/vk/resources.py), as pure logic: the colour target
read back as glReadPixels gives it (RGBA32F, bottom row first; an RGBA8 target's bytes as floats)."""
from __future__ import annotations

import numpy as np

from harness.backends.vk.resources import CaseResources


class Copied:
    """The buffer the target was copied into: its bytes, top row first (Vulkan's order)."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, size=None) -> bytes:
        return self.data


def target(width: int, height: int, format_name: str) -> CaseResources:
    res = CaseResources.__new__(CaseResources)          # no device: only what the readback reads
    res.width, res.height, res.format_name = width, height, format_name
    return res


def test_rows_come_back_bottom_row_first():
    rows = np.arange(2 * 3 * 4, dtype="<f4").reshape(3, 2 * 4)        # 3 rows of 2 RGBA texels
    got = np.frombuffer(target(2, 3, "RGBA32F").image_bytes(Copied(rows.tobytes())), dtype="<f4")
    assert got.reshape(3, 8).tolist() == rows[::-1].tolist()


def test_an_rgba8_target_reads_back_as_unorm_floats():
    data = bytes([0, 255, 51, 255, 255, 0, 0, 255])                  # 2 rows of 1 texel
    got = np.frombuffer(target(1, 2, "RGBA8").image_bytes(Copied(data)), dtype="<f4")
    assert got.tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 1.0, np.float32(0.2), 1.0]
