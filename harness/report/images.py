"""PNG images of a read-back RGBA32F image: what the case expects, what the target drew, and
where the two differ.

The image of an observation is base64 of RGBA32F little-endian, `width` x `height` from
case.readback.image, rows bottom-up (GL order); the PNGs show it the right way up, each pixel
scaled up to a block (16 x 16 for the small images the cases read back).

Colours: each of R, G and B is scaled over the values the case expects in that channel (the
lowest expected value dark, the highest bright), so a value the case does not expect in that
channel stands out as too dark, too bright (saturated far outside the range) or black (the
clear value). A is not drawn in the expected and observed images; the diff shows it. The diff
splits every pixel's block in four, R G over B A: red where |observed - expected| > the case's
tolerance, grey where the case does not care about that channel, black where it matches.
"""
from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from harness.model.case import Expectation
from harness.base.errors import UsageError

MAX_SCALE = 16             # each pixel at most a 16 x 16 block
MAX_SIDE = 1024            # ... and a PNG no wider or taller than this where the image allows
LOW, HIGH = 48, 208        # the lowest and highest expected value of a channel, in 0..255
EQUAL = (0, 0, 0)
WRONG = (255, 0, 0)
DONT_CARE = (128, 128, 128)
LEGEND = ("Images are shown the right way up, each pixel a block. R, G and B are each scaled over "
          "the values the case expects in that channel; A is not drawn. The diff splits each pixel "
          "in four, R G over B A: red = outside the tolerance, black = as expected, "
          "grey = don't care.")


class ImageError(UsageError, ValueError):
    """An observed image that cannot be shown (not base64, or not width x height RGBA32F)."""


@dataclass(frozen=True)
class DrawImages:
    """The three PNGs of one draw, and what the diff found."""
    draw: int
    expected: Path
    observed: Path
    diff: Path
    width: int             # of the GL image, in pixels
    height: int
    scale: int             # each GL pixel is a scale x scale block in the PNGs
    wrong: int             # channels out of tolerance
    checked: int           # channels the case expects a value in


def scale_for(width: int, height: int) -> int:
    """An even block size (the diff halves it), at most MAX_SCALE, keeping the PNG within
    MAX_SIDE where it can; 1 for images too large for even that."""
    fit = MAX_SIDE // max(width, height, 1)
    if fit < 2:
        return 1
    return min(MAX_SCALE, fit - fit % 2)


def decode(text: str, width: int, height: int) -> np.ndarray:
    """The observed image as a (height, width, 4) float array, row 0 the bottom row (GL order)."""
    try:
        raw = base64.b64decode(text or "", validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ImageError(f"the observed image is not base64: {exc}") from None
    want = width * height * 4 * 4
    if len(raw) != want:
        raise ImageError(f"the observed image has {len(raw)} bytes, expected {want} "
                         f"({width} x {height} RGBA32F)")
    return np.frombuffer(raw, dtype="<f4").reshape(height, width, 4).astype(np.float64)


def expected(expectation: Expectation, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """(values, care), both (height, width, 4): the expected value of each channel, and whether
    the case expects one there at all (a channel it does not name is "don't care")."""
    values = np.zeros(width * height * 4, dtype=np.float64)
    care = np.zeros(width * height * 4, dtype=bool)
    for pixel in expectation.pixels:
        if 0 <= pixel.index < values.size:
            values[pixel.index] = pixel.value
            care[pixel.index] = True
    return values.reshape(height, width, 4), care.reshape(height, width, 4)


def compare(observed: np.ndarray, values: np.ndarray, care: np.ndarray, tolerance: float) -> np.ndarray:
    """Per channel: True where the case expects a value and the observed one is not within the
    tolerance (an expected NaN is matched by an observed NaN, as in the verdict)."""
    with np.errstate(invalid="ignore"):
        close = (observed == values) | (np.abs(observed - values) <= tolerance) \
            | (np.isnan(values) & np.isnan(observed))
    wrong: np.ndarray = care & ~close
    return wrong


def colours(data: np.ndarray, values: np.ndarray, care: np.ndarray, show: np.ndarray) -> np.ndarray:
    """(height, width, 3) uint8 of R, G, B, each scaled over the expected values of its channel
    to LOW..HIGH and clamped; channels where `show` is False, and NaNs, are 0."""
    out = np.zeros(data.shape[:2] + (3,), dtype=np.float64)
    for channel in range(3):
        wanted = values[..., channel][care[..., channel]]
        wanted = wanted[np.isfinite(wanted)]
        if not wanted.size:
            continue
        lo, hi = float(wanted.min()), float(wanted.max())
        plane = data[..., channel]
        with np.errstate(invalid="ignore", over="ignore"):
            if hi > lo:
                level = LOW + (plane - lo) / (hi - lo) * (HIGH - LOW)
            else:                    # one expected value: it in the middle, others at the ends
                level = np.where(plane == lo, (LOW + HIGH) / 2, np.where(plane < lo, 0.0, 255.0))
        level = np.where(show[..., channel] & np.isfinite(level), level, 0.0)
        out[..., channel] = np.clip(level, 0.0, 255.0)
    return np.rint(out).astype(np.uint8)


def upscale(rgb: np.ndarray, scale: int) -> Image.Image:
    """GL rows bottom-up to PNG rows top-down, each pixel a scale x scale block."""
    rgb = np.flipud(rgb)
    rgb = np.repeat(np.repeat(rgb, scale, axis=0), scale, axis=1)
    return Image.fromarray(np.ascontiguousarray(rgb), mode="RGB")


def diff_image(wrong: np.ndarray, care: np.ndarray, scale: int) -> Image.Image:
    """Each pixel's block split in four (R G over B A), one state per channel; at scale 1 one
    state per pixel (wrong if any channel is, else equal if any is checked, else don't care)."""
    state = np.zeros(wrong.shape + (3,), dtype=np.uint8)
    state[...] = EQUAL
    state[~care] = DONT_CARE
    state[wrong] = WRONG
    height, width = wrong.shape[:2]
    if scale < 2:
        pixel = np.zeros((height, width, 3), dtype=np.uint8)
        pixel[...] = DONT_CARE
        pixel[care.any(axis=2)] = EQUAL
        pixel[wrong.any(axis=2)] = WRONG
        return upscale(pixel, 1)
    # (h, w, 4, 3) -> (h, w, 2, 2, 3): quadrants [[R, G], [B, A]]; rows of a block go top-down,
    # so they are laid out in reverse before the whole image is flipped.
    quads = state.reshape(height, width, 2, 2, 3)[:, :, ::-1]
    grid = quads.transpose(0, 2, 1, 3, 4).reshape(height * 2, width * 2, 3)
    return upscale(grid, scale // 2)


def write_draw(expectation: Expectation, draw: dict[str, Any], size: tuple[int, int], tolerance: float,
               folder: Path, prefix: str) -> DrawImages:
    """The three PNGs of one draw's image under `folder`, named `<prefix>-expected.png` etc."""
    width, height = size
    observed = decode(draw.get("image", ""), width, height)
    values, care = expected(expectation, width, height)
    wrong = compare(observed, values, care, tolerance)
    scale = scale_for(width, height)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {name: folder / f"{prefix}-{name}.png" for name in ("expected", "observed", "diff")}
    upscale(colours(values, values, care, care), scale).save(paths["expected"])
    everywhere = np.ones_like(care)
    upscale(colours(observed, values, care, everywhere), scale).save(paths["observed"])
    diff_image(wrong, care, scale).save(paths["diff"])
    return DrawImages(draw=expectation.step, width=width, height=height, scale=scale,
                      wrong=int(wrong.sum()), checked=int(care.sum()), **paths)
