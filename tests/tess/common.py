"""What the tessellation sub-families share: domains, spacings, level sets and their id tokens,
the reference tessellator's counts as the cases use them, and the templates beside this file."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence, cast

from harness.glsl.templates import render
from harness.oracle.tessellator import Domain, Spacing, primitives_generated, used_levels

HERE = Path(__file__).parent
FAMILY = "tess"
DOMAINS: tuple[Domain, ...] = ("triangles", "quads", "isolines")
SPACINGS: tuple[Spacing, ...] = ("equal_spacing", "fractional_even_spacing", "fractional_odd_spacing")
SHORT_SPACING = {"equal_spacing": "equal", "fractional_even_spacing": "fractional_even",
                 "fractional_odd_spacing": "fractional_odd"}
PATCHES_PER_DRAW = 2
SPEC_MAX_LEVEL = 64          # the GL minimum for GL_MAX_TESS_GEN_LEVEL; every known driver uses it

# (outer[4], inner[2]): the full default arrays; each domain reads only its own share.
Outer = tuple[float, float, float, float]
Inner = tuple[float, float]
Levels = tuple[Outer, Inner]
# A RecordGroup's expected values: (quantity, value), a tuple value compared on its first components.
Value = float | tuple[float, ...]
Values = tuple[tuple[str, Value], ...]
LEVELS: dict[str, Levels] = {
    "ones": ((1, 1, 1, 1), (1, 1)),
    "integer": ((2, 3, 4, 5), (6, 7)),
    "fractional": ((2.5, 1.25, 3.75, 4.5), (3.5, 2.25)),
    "inner_one": ((3, 2, 4, 1), (1, 1)),
    "outer_one": ((1, 1, 1, 1), (2.5, 3)),
    "clamped": ((70, 0.5, 2, 9), (0.25, 5)),
}
INITIAL: Levels = ((1.0, 1.0, 1.0, 1.0), (1.0, 1.0))     # GL's initial default levels
INITIAL_PATCH_VERTICES = 3

XFB_PRIMITIVE = {"triangles": "TRIANGLES", "quads": "TRIANGLES", "isolines": "LINES"}
WINDINGS = ("ccw", "cw")


def shader(template: str, **params: object) -> str:
    """A stage's GLSL, from the template file of that name beside this module."""
    return render(HERE / template, **params)


def _num(value: float) -> str:
    return f"{value:g}"


def level_token(domain: Domain, levels: Levels) -> str:
    n_outer, n_inner = used_levels(domain)
    outer, inner = levels
    token = "o" + "_".join(_num(v) for v in outer[:n_outer])
    return token + ("-i" + "_".join(_num(v) for v in inner[:n_inner]) if n_inner else "")


def glsl_float(value: float) -> str:
    """A GLSL float expression for any level, NaN and infinities included."""
    if math.isnan(value):
        return "uintBitsToFloat(0x7fc00000u)"
    if math.isinf(value):
        return "uintBitsToFloat(0x7f800000u)" if value > 0 else "uintBitsToFloat(0xff800000u)"
    text = repr(float(value))
    return text if "e" not in text else f"{float(value):.9e}"


def needs_max_level(levels: Levels) -> bool:
    """Whether the expected result depends on GL_MAX_TESS_GEN_LEVEL being exactly 64."""
    return any(not math.isnan(v) and v > SPEC_MAX_LEVEL - 2 for part in levels for v in part)


def per_patch(domain: Domain, spacing: Spacing, point_mode: bool, outer: Sequence[float],
              inner: Sequence[float]) -> int:
    return primitives_generated(domain, spacing, point_mode, outer, inner, SPEC_MAX_LEVEL)


def vertices_per_primitive(domain: Domain, point_mode: bool) -> int:
    return 1 if point_mode else (2 if domain == "isolines" else 3)


def xfb_primitive(domain: Domain, point_mode: bool) -> str:
    return "POINTS" if point_mode else XFB_PRIMITIVE[domain]


def spacing_token(spacing: Spacing) -> str:
    return SHORT_SPACING[spacing]


# The default levels as DrawState holds them (glPatchParameterfv's floats; the level sets hold
# ints too). The casts keep the length each set has: tuple(map(...)) is only typed as tuple[float, ...].
def as_outer(outer: Sequence[float]) -> Outer:
    return cast(Outer, tuple(map(float, outer)))


def as_inner(inner: Sequence[float]) -> Inner:
    return cast(Inner, tuple(map(float, inner)))
