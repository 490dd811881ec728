"""The tessellation family: the primitive generator, TCS-less programs, real TCSs, and programs
that switch between them.

A GL-on-Vulkan layer must inject a TCS for VS + TES programs (Vulkan has no default levels): it
copies every VS output and writes the levels from a push constant updated per draw. Cases ids:
  tess/no-tcs/<domain>/<spacing>/...   one program without a TCS (default levels)
  tess/tcs/<domain>/<spacing>/...      one program with a TCS
  tess/seq/<domain>/<spacing>/...      draw sequences that switch programs (with, without a TCS,
                                       without tessellation; one TES shared by several programs)
What each TES invocation saw goes to transform feedback (or an RGBA32F image for gl_FrontFacing);
expected values come from the case parameters and the reference tessellator
(harness/oracle/tessellator.py), never from a driver.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from harness.case import (Attribute, Capture, Case, Draw, DrawEntry, DrawExpectation, DrawState,
                          ExpectedPixel, Readback, RecordGroup, Requirements, TessCoordCheck, ValueSet)
from harness.glsl import render
from harness.oracle.tessellator import primitives_generated, tess_coords, used_levels

HERE = Path(__file__).parent
FAMILY = "tess"
DOMAINS = ("triangles", "quads", "isolines")
SPACINGS = ("equal_spacing", "fractional_even_spacing", "fractional_odd_spacing")
SHORT_SPACING = {"equal_spacing": "equal", "fractional_even_spacing": "fractional_even",
                 "fractional_odd_spacing": "fractional_odd"}
PATCHES_PER_DRAW = 2
SPEC_MAX_LEVEL = 64          # the GL minimum for GL_MAX_TESS_GEN_LEVEL; every known driver uses it

# (outer[4], inner[2]): the full default arrays; each domain reads only its own share.
LEVELS = {
    "ones": ((1, 1, 1, 1), (1, 1)),
    "integer": ((2, 3, 4, 5), (6, 7)),
    "fractional": ((2.5, 1.25, 3.75, 4.5), (3.5, 2.25)),
    "inner_one": ((3, 2, 4, 1), (1, 1)),
    "outer_one": ((1, 1, 1, 1), (2.5, 3)),
    "clamped": ((70, 0.5, 2, 9), (0.25, 5)),
}
INITIAL = ((1.0, 1.0, 1.0, 1.0), (1.0, 1.0))     # GL's initial default levels
INITIAL_PATCH_VERTICES = 3

CAPTURES = (
    Capture("x_primitive_id", "int", "gl_PrimitiveID"),
    Capture("x_patch_vertices", "int", "gl_PatchVerticesIn"),
    Capture("x_outer", "vec4", "gl_TessLevelOuter"),
    Capture("x_inner", "vec2", "gl_TessLevelInner"),
    Capture("x_vertex_ids", "ivec4", "v_in[].vertex_id (sum, weighted sum, first, last)"),
    Capture("x_attr_sum", "vec4", "sum of v_in[].attr"),
    Capture("x_pair_sum", "vec2", "sum of v_in[].pair[0..1]"),
    Capture("x_position_sum", "vec4", "sum of gl_in[].gl_Position"),
)
XFB_PRIMITIVE = {"triangles": "TRIANGLES", "quads": "TRIANGLES", "isolines": "LINES"}


@dataclass(frozen=True)
class Step:
    """One draw: the patch size and default levels it sets (None: leaves them as they are)."""
    patch_vertices: int | None
    levels: tuple | None


def attribute(vertex: int) -> tuple[float, float, float, float]:
    """a_attr of a vertex: distinct per vertex, exact in float32, so sums compare exactly."""
    return (vertex + 0.5, 2 * vertex + 0.25, 1000.0 - vertex, vertex * 0.125)


def _num(value: float) -> str:
    return f"{value:g}"


def level_token(domain: str, levels) -> str:
    n_outer, n_inner = used_levels(domain)
    outer, inner = levels
    token = "o" + "_".join(_num(v) for v in outer[:n_outer])
    return token + ("-i" + "_".join(_num(v) for v in inner[:n_inner]) if n_inner else "")


def step_token(domain: str, step: Step) -> str:
    if step.patch_vertices is None and step.levels is None:
        return "initial"
    parts = []
    if step.patch_vertices is not None:
        parts.append(f"pv{step.patch_vertices}")
    if step.levels is not None:
        parts.append(level_token(domain, step.levels))
    return "/".join(parts)


def make_case(domain: str, spacing: str, point_mode: bool, steps: tuple[Step, ...]) -> Case:
    path = ["tess", "no-tcs", domain, SHORT_SPACING[spacing]] + (["points"] if point_mode else [])
    id_ = "/".join(path) + "/" + "/then/".join(step_token(domain, s) for s in steps)
    n_outer, n_inner = used_levels(domain)
    shaders = (("vs", render(HERE / "no_tcs.vert")),
               ("tes", render(HERE / "no_tcs.tese", domain=domain, spacing=spacing, point_mode=point_mode)))

    draws, expects = [], []
    patch_vertices, levels, first = INITIAL_PATCH_VERTICES, INITIAL, 0
    for index, step in enumerate(steps):
        patch_vertices = step.patch_vertices or patch_vertices
        levels = step.levels or levels
        outer, inner = levels
        count = PATCHES_PER_DRAW * patch_vertices
        state = DrawState(patch_vertices=step.patch_vertices,
                          default_outer=tuple(map(float, outer)) if step.levels else None,
                          default_inner=tuple(map(float, inner)) if step.levels else None)
        label = f"draw {index} (glDrawArrays(GL_PATCHES, {first}, {count}))"
        draws.append(Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state, label=label))
        per_patch = primitives_generated(domain, spacing, point_mode, outer, inner, SPEC_MAX_LEVEL)
        generated = per_patch * PATCHES_PER_DRAW
        vertices_per_prim = 1 if point_mode else (2 if domain == "isolines" else 3)
        groups = tuple(
            _patch_group(patch, first + patch * patch_vertices, patch_vertices,
                         outer[:n_outer], inner[:n_inner])
            for patch in range(PATCHES_PER_DRAW) if per_patch)
        expects.append(DrawExpectation(index, counts=(
            ("primitives_generated", generated),
            ("xfb_primitives_written", generated),
            ("xfb_vertices", generated * vertices_per_prim)), groups=groups))
        first += count + 1          # the next draw reads other vertices, from a non-zero first

    limits = [("GL_MAX_PATCH_VERTICES", ">=", max(s.patch_vertices or 0 for s in steps))]
    if any(v > SPEC_MAX_LEVEL - 1 for s in steps if s.levels for part in s.levels for v in part):
        limits.append(("GL_MAX_TESS_GEN_LEVEL", "==", SPEC_MAX_LEVEL))
    most = max(e.counts[2][1] for e in expects)
    return Case(
        id=id_, family=FAMILY, shaders=shaders,
        requires=Requirements(gl_version=(4, 0), profile="core", limits=tuple(limits)),
        vertices=first,
        attributes=(Attribute(0, 4, tuple(c for v in range(first) for c in attribute(v))),),
        draws=tuple(draws),
        readback=Readback(CAPTURES, XFB_PRIMITIVE[domain] if not point_mode else "POINTS",
                          max_records=2 * most + 64),
        expect=tuple(expects),
        description=f"VS+TES without a TCS, {domain}, {spacing}"
                    f"{', point_mode' if point_mode else ''}, {len(steps)} draw(s)",
        params=(("domain", domain), ("spacing", spacing), ("point_mode", point_mode)),
    )


def _patch_group(patch: int, first_vertex: int, size: int, outer, inner) -> RecordGroup:
    vertices = range(first_vertex, first_vertex + size)
    attrs = [attribute(v) for v in vertices]
    return RecordGroup(
        key="gl_PrimitiveID", key_value=patch, label=f"patch {patch}, TES",
        values=(
            ("gl_PatchVerticesIn", size),
            ("gl_TessLevelOuter", tuple(map(float, outer))),
            ("gl_TessLevelInner", tuple(map(float, inner))),
            ("v_in[].vertex_id (sum, weighted sum, first, last)",
             (sum(vertices), sum((i + 1) * v for i, v in enumerate(vertices)), vertices[0], vertices[-1])),
            ("sum of v_in[].attr", tuple(sum(a[c] for a in attrs) for c in range(4))),
            ("sum of v_in[].pair[0..1]", (sum(2.0 * v for v in vertices), sum(2.0 * v + 1 for v in vertices))),
            ("sum of gl_in[].gl_Position", tuple(sum(a[c] for a in attrs) for c in (3, 2, 1, 0))),
        ))


def default_level_cases() -> list[Case]:
    """The first cases of the family (ids pinned by baselines and self-tests)."""
    cases = []
    one = lambda pv, name: (Step(pv, LEVELS[name]),)          # noqa: E731
    # Every domain x spacing x level set, with the patch size the TES sees most often.
    for domain in DOMAINS:
        for spacing in SPACINGS:
            for name in LEVELS:
                cases.append(make_case(domain, spacing, False, one(4, name)))
    # Patch sizes from 1 to the GL maximum, with integer levels.
    for domain in DOMAINS:
        for pv in (1, 3, 16, 32):
            cases.append(make_case(domain, "equal_spacing", False, one(pv, "integer")))
    # Point mode: one point per distinct vertex.
    for domain in DOMAINS:
        for spacing in SPACINGS:
            for name in ("integer", "fractional"):
                cases.append(make_case(domain, spacing, True, one(4, name)))
    # The same program drawn again with other state: stale levels or patch size show here.
    for domain in DOMAINS:
        for spacing in SPACINGS:
            cases.append(make_case(domain, spacing, False,
                                   (Step(4, LEVELS["integer"]), Step(None, LEVELS["fractional"]))))
        cases.append(make_case(domain, "equal_spacing", False,
                               (Step(4, LEVELS["integer"]), Step(16, None))))
        cases.append(make_case(domain, "equal_spacing", False,
                               (Step(3, LEVELS["integer"]), Step(None, LEVELS["ones"]),
                                Step(None, LEVELS["integer"]))))
        cases.append(make_case(domain, "fractional_odd_spacing", False,
                               (Step(32, LEVELS["fractional"]), Step(1, None))))
        # Nothing set: GL's initial patch size (3) and default levels (1.0) must apply.
        cases.append(make_case(domain, "equal_spacing", False, (Step(None, None),)))
    # Level sets that differ only in levels a domain does not read give the same case: keep one.
    unique = {}
    for case in cases:
        unique.setdefault(case.id, case)
    return list(unique.values())


# =============================================================================================
# Beyond the default levels: where the vertices are, real TCSs, types, sequences of programs.
# Ids: tess/<no-tcs|tcs>/<domain>/<spacing>/... for one program (with or without a TCS);
# tess/seq/<domain>/<spacing>/... for draw sequences that switch programs.
# =============================================================================================

NAN, INF = math.nan, math.inf
# Drivers tessellate in fixed point: Mesa's tessellator (the D3D11 reference design) steps by
# 1/n rounded to 16 fraction bits, so after up to 64 steps a vertex is off by up to 64 * 2^-16
# (1e-3). Distinct vertices lie at least 1/64 * 2/3 apart, so 2e-3 still tells them apart.
COORD_TOLERANCE = 2e-3
WINDINGS = ("ccw", "cw")
TCS_PRESENCE = ("no-tcs", "tcs")

# Level sets for the coordinate cases: (outer[4], inner[2]). Each domain reads its own share,
# and sets that differ only in unread levels give one case.
LEVEL_GRID = (
    ((1, 1, 1, 1), (1, 1)),                  # a single triangle or quad
    ((2, 3, 4, 5), (6, 7)),
    ((2.5, 1.25, 3.75, 4.5), (3.5, 2.25)),   # fractional: rounding per spacing
    ((3.015625, 4.984375, 5.5, 6), (2.015625, 3.984375)),   # just above / below integers
    ((3, 2, 4, 1), (1, 1)),                  # inner 1 with outer > 1: inner becomes 1 + epsilon
    ((2, 2, 2, 2), (1, 1)),
    ((5, 1, 1, 1), (1, 1)),
    ((1, 1, 1, 1), (2.5, 3)),                # outer 1, inner > 1
    ((1, 1, 1, 1), (1, 4)),                  # one inner level 1, the other not
    ((6, 1, 3, 1), (8, 2)),                  # asymmetric: pins which inner level cuts which axis
    ((1, 7, 1, 2), (2, 9)),
    ((5, 3, 1, 1), (3, 1)),                  # isolines: 5 lines of 3 segments
    ((4, 4, 4, 4), (4, 4)),
    ((5, 5, 5, 5), (5, 5)),
    ((0.5, 0.25, 0.75, 0.125), (0.5, 0.375)),  # below 1: clamped up
    ((70, 0.5, 2, 9), (0.25, 5)),            # above GL_MAX_TESS_GEN_LEVEL: clamped down
    ((INF, 2, 3, 2), (2, 2)),                # +inf clamps to the maximum
    ((64, 64, 64, 64), (64, 64)),            # the maximum
    ((63.5, 62.125, 64, 63), (63.875, 33)),  # near the maximum: odd spacing stops at 63
    ((3, 3, 3, 3), (NAN, NAN)),              # NaN inner: clamped to the minimum, never discards
    ((3, 3, 3, 3), (-2, -1)),                # negative inner: clamped
    ((0, 2, 2, 2), (2, 2)),                  # zero outer: the patch is discarded
    ((2, -1, 2, 2), (2, 2)),                 # negative outer: discarded
    ((2, 2, NAN, 2), (2, 2)),                # NaN outer[2]: discarded, except for isolines
    ((2, 2, 2, 0), (2, 2)),                  # outer[3] = 0: discards quads only
    ((2, 2, 2, 2), (2, 2)),
)


def glsl_float(value: float) -> str:
    """A GLSL float expression for any level, NaN and infinities included."""
    if math.isnan(value):
        return "uintBitsToFloat(0x7fc00000u)"
    if math.isinf(value):
        return "uintBitsToFloat(0x7f800000u)" if value > 0 else "uintBitsToFloat(0xff800000u)"
    text = repr(float(value))
    return text if "e" not in text else f"{float(value):.9e}"


def needs_max_level(levels) -> bool:
    """Whether the expected result depends on GL_MAX_TESS_GEN_LEVEL being exactly 64."""
    return any(not math.isnan(v) and v > SPEC_MAX_LEVEL - 2 for part in levels for v in part)


def per_patch(domain, spacing, point_mode, outer, inner) -> int:
    return primitives_generated(domain, spacing, point_mode, outer, inner, SPEC_MAX_LEVEL)


def vertices_per_primitive(domain: str, point_mode: bool) -> int:
    return 1 if point_mode else (2 if domain == "isolines" else 3)


def xfb_primitive(domain: str, point_mode: bool) -> str:
    return "POINTS" if point_mode else XFB_PRIMITIVE[domain]


def spacing_token(spacing: str) -> str:
    return SHORT_SPACING[spacing]


COORD_CAPTURES = (
    Capture("x_patch", "int", "gl_PrimitiveID"),
    Capture("x_coord", "vec3", "gl_TessCoord"),
    Capture("x_outer", "vec4", "gl_TessLevelOuter"),
    Capture("x_inner", "vec2", "gl_TessLevelInner"),
    Capture("x_vertices", "ivec3", "(gl_PatchVerticesIn, sum of v_in[].vertex, v_in[0].vertex)"),
)


def coords_tese(domain, spacing, winding, point_mode) -> str:
    return render(HERE / "coords.tese", domain=domain, spacing=spacing, winding=winding,
                  point_mode=point_mode)


def coords_vs(offset: int = 0) -> str:
    return render(HERE / "coords.vert", offset=offset)


def coords_tcs(out_vertices: int, levels, all_invocations: bool = False) -> str:
    outer, inner = levels
    return render(HERE / "coords.tesc", out_vertices=out_vertices, all_invocations=all_invocations,
                  outer=[glsl_float(v) for v in outer], inner=[glsl_float(v) for v in inner])


def tess_expectation(index: int, domain: str, spacing: str, point_mode: bool, winding: str,
                     levels, patches: list[tuple[int, int, int]], tcs: bool,
                     patch_label: str = "patch") -> DrawExpectation:
    """What a coords-TES draw must give: counts from the oracle; per patch (gl_PrimitiveID,
    first vertex, patch size the TES sees) the levels as written and, with equal spacing, the
    exact set of gl_TessCoord; the per-record rules of gl_TessCoord."""
    outer, inner = levels
    n_outer, n_inner = used_levels(domain)
    each = per_patch(domain, spacing, point_mode, outer, inner)
    generated = each * len(patches)
    groups, sets = [], []
    coords = tess_coords(domain, spacing, outer, inner, SPEC_MAX_LEVEL) if spacing == "equal_spacing" else ()
    offset = 1000 if tcs else 0
    for primitive, first, size in patches:
        if not each:
            break
        label = f"{patch_label} {primitive}, TES"
        vertices = [first + (i % size) for i in range(size)]   # a TCS may repeat its input
        groups.append(RecordGroup(
            key="gl_PrimitiveID", key_value=primitive, label=label,
            values=(("gl_TessLevelOuter", tuple(float(v) for v in outer[:n_outer])),
                    ("gl_TessLevelInner", tuple(float(v) for v in inner[:n_inner])),
                    (COORD_CAPTURES[4].quantity,
                     (size, sum(vertices) + offset * size, vertices[0] + offset)))))
        if coords:
            sets.append(ValueSet("gl_TessCoord", coords, label, key="gl_PrimitiveID", key_value=primitive,
                                 each=1 if point_mode else 0, tolerance=COORD_TOLERANCE))
    return DrawExpectation(
        index,
        counts=(("primitives_generated", generated), ("xfb_primitives_written", generated),
                ("xfb_vertices", generated * vertices_per_primitive(domain, point_mode))),
        groups=tuple(groups), value_sets=tuple(sets),
        tess_coord=TessCoordCheck("gl_TessCoord", domain,
                                  winding=winding if not point_mode and domain != "isolines" else "",
                                  key="gl_PrimitiveID"))


def coords_case(tcs: bool, domain: str, spacing: str, point_mode: bool, winding: str, levels) -> Case:
    """Two patches of 3 vertices, tessellated with the levels of `levels`: default levels
    without a TCS, written by a TCS with one."""
    n_outer, n_inner = used_levels(domain)
    outer, inner = levels
    path = ["tess", "tcs" if tcs else "no-tcs", domain, spacing_token(spacing)]
    path += ["points"] if point_mode else []
    path += [winding] if winding else []
    id_ = "/".join(path + ["coords", level_token(domain, levels)])
    size, first = 3, 2
    shaders = [("vs", coords_vs())]
    if tcs:
        shaders.append(("tcs", coords_tcs(size, levels)))
    shaders.append(("tes", coords_tese(domain, spacing, winding, point_mode)))
    state = DrawState(patch_vertices=size,
                      default_outer=None if tcs else tuple(map(float, outer)),
                      default_inner=None if tcs else tuple(map(float, inner)))
    count = PATCHES_PER_DRAW * size
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {first}, {count}))")
    patches = [(p, first + p * size, size) for p in range(PATCHES_PER_DRAW)]
    expect = tess_expectation(0, domain, spacing, point_mode, winding, levels, patches, tcs)
    limits = [("GL_MAX_TESS_GEN_LEVEL", "==", SPEC_MAX_LEVEL)] if needs_max_level(levels) else []
    records = expect.counts[2][1]
    return Case(
        id=id_, family=FAMILY, shaders=tuple(shaders),
        requires=Requirements(gl_version=(4, 0), limits=tuple(limits)),
        vertices=first + count, attributes=(), draws=(draw,),
        readback=Readback(COORD_CAPTURES, xfb_primitive(domain, point_mode), max_records=records + 64),
        expect=(expect,),
        description=f"gl_TessCoord and levels, {domain}, {spacing}{', point_mode' if point_mode else ''}"
                    f"{', ' + winding if winding else ''}, levels {levels} "
                    f"{'written by a TCS' if tcs else 'from the defaults (no TCS)'}",
        params=(("domain", domain), ("spacing", spacing), ("point_mode", point_mode),
                ("winding", winding), ("tcs", tcs)),
    )


def coords_cases() -> list[Case]:
    cases = []
    for tcs in (False, True):
        for domain in DOMAINS:
            for spacing in SPACINGS:
                for levels in LEVEL_GRID:
                    cases.append(coords_case(tcs, domain, spacing, True, "", levels))
                    for winding in (WINDINGS if domain != "isolines" else ("",)):
                        cases.append(coords_case(tcs, domain, spacing, False, winding, levels))
    return cases


# -- per-vertex outputs of every type, TCS-less -----------------------------------------------
#
# The layer's injected TCS must copy every VS output. Each case carries one or a few outputs
# from the VS to the TES: every scalar component k of vertex v holds a value unique to (v, k)
# (component_value), the TES sums each component over the patch (and weights it by the vertex
# index), and the expected sums follow from the same formula.

DOUBLE_FRACTION = 2.0 ** -32


def component_value(kind: str, base: int, k: int) -> float:
    r = base * 64 + k + 1
    if kind == "float":
        return r * 0.25
    if kind == "int":
        return -r
    if kind == "uint":
        return r + 256
    if kind == "colour":                 # stays in [0, 1]: legacy colours may be clamped
        return (base * 16 + k + 1) / 4096.0
    if kind == "double":
        return r + (k + 1) * DOUBLE_FRACTION
    raise ValueError(kind)


def component_glsl(kind: str, base: str, k: str) -> str:
    r = f"({base} * 64 + {k} + 1)"
    return {"float": f"float{r} * 0.25", "int": f"-{r}", "uint": f"uint{r} + 256u",
            "colour": f"float({base} * 16 + {k} + 1) / 4096.0",
            "double": f"double{r} + double({k} + 1) * 2.3283064365386963e-10LF"}[kind]


SCALAR_KIND = {"float": "float", "int": "int", "uint": "uint", "double": "double"}
VECTOR_BASE = {"vec": "float", "ivec": "int", "uvec": "uint", "dvec": "double"}
STRUCT_S = "struct S { vec3 a; float b; mat2 c; int d; };"


def scalars_of(glsl_type: str) -> list[tuple[str, str]]:
    """(accessor, kind) of every scalar component of a GLSL type, in a fixed order."""
    if glsl_type in SCALAR_KIND:
        return [("", SCALAR_KIND[glsl_type])]
    for prefix, kind in sorted(VECTOR_BASE.items(), key=lambda kv: -len(kv[0])):
        if glsl_type.startswith(prefix) and glsl_type[len(prefix):].isdigit():
            return [("." + "xyzw"[c], kind) for c in range(int(glsl_type[len(prefix):]))]
    for prefix, kind in (("dmat", "double"), ("mat", "float")):
        if glsl_type.startswith(prefix):
            shape = glsl_type[len(prefix):]
            cols, rows = (int(shape), int(shape)) if "x" not in shape else map(int, shape.split("x"))
            return [(f"[{c}][{r}]", kind) for c in range(cols) for r in range(rows)]
    if glsl_type == "S":
        return ([(".a." + c, "float") for c in "xyz"] + [(".b", "float")]
                + [(f".c[{c}][{r}]", "float") for c in range(2) for r in range(2)] + [(".d", "int")])
    raise ValueError(glsl_type)


@dataclass(frozen=True)
class Carried:
    """One VS output the TES reads per vertex: a user varying or a legacy/SPIR-V builtin."""
    name: str                      # GLSL name (user varyings get v_ prefixes per form)
    type: str                      # GLSL element type
    length: int = 0                # array length; 0: not an array
    dynamic: bool = False          # arrays written and read in loops (dynamic indices)
    builtin: bool = False          # written as gl_*, read through gl_in[]
    kind: str = ""                 # overrides the component kind (legacy colours)

    def elements(self) -> list[tuple[str, str]]:
        inner = scalars_of(self.type)
        if self.kind:
            inner = [(a, self.kind) for a, _ in inner]
        if not self.length:
            return inner
        return [(f"[{j}]{a}", kind) for j in range(self.length) for a, kind in inner]

    @property
    def flat(self) -> bool:
        return any(kind in ("int", "uint") for _, kind in scalars_of(self.type)) and not self.builtin


@dataclass(frozen=True)
class TypeSet:
    token: str                     # id token
    carried: tuple[Carried, ...]
    compat: bool = False
    forms: tuple[str, ...] = ("var", "block")


def _u(name, type_, length=0, dynamic=False):
    return Carried(name, type_, length, dynamic)


def _b(name, type_, length=0, kind=""):
    return Carried(name, type_, length, builtin=True, kind=kind)


TYPE_SETS = tuple(
    [TypeSet(t, (_u("x", t),)) for t in (
        "float", "vec2", "vec3", "vec4", "int", "ivec2", "ivec3", "ivec4", "uint", "uvec2", "uvec3",
        "uvec4", "mat2", "mat3", "mat4", "mat2x3", "mat2x4", "mat3x2", "mat3x4", "mat4x2", "mat4x3",
        "double", "dvec2", "dvec3", "dvec4", "dmat2", "dmat3", "dmat4", "dmat2x3", "dmat4x2")]
    + [TypeSet("float4-const", (_u("a", "float", 4),)),
       TypeSet("float4-dyn", (_u("a", "float", 4, dynamic=True),)),
       TypeSet("vec4x3-dyn", (_u("a", "vec4", 3, dynamic=True),)),
       TypeSet("ivec2x5-dyn", (_u("a", "ivec2", 5, dynamic=True),)),
       TypeSet("mat2x2-const", (_u("a", "mat2", 2),)),
       TypeSet("dvec2x3-dyn", (_u("a", "dvec2", 3, dynamic=True),)),
       TypeSet("struct", (_u("s", "S"),)),
       TypeSet("struct2", (_u("s", "S", 2),)),
       TypeSet("mix", (_u("f", "float"), _u("iv", "ivec3"), _u("m", "mat2"), _u("a", "vec3", 2, True),
                       _u("u", "uint"), _u("d", "double"))),
       TypeSet("pointsize", (_b("gl_PointSize", "float"),), forms=("gl_in",)),
       TypeSet("clipdistance2", (_b("gl_ClipDistance", "float", 2),), forms=("gl_in",)),
       TypeSet("clipdistance8", (_b("gl_ClipDistance", "float", 8),), forms=("gl_in",)),
       TypeSet("pointsize+clipdistance4+vec4", (_b("gl_PointSize", "float"), _b("gl_ClipDistance", "float", 4),
                                                _u("x", "vec4")), forms=("block",)),
       TypeSet("frontcolor", (_b("gl_FrontColor", "vec4", kind="colour"),), compat=True, forms=("gl_in",)),
       TypeSet("backcolor", (_b("gl_BackColor", "vec4", kind="colour"),), compat=True, forms=("gl_in",)),
       TypeSet("frontsecondarycolor", (_b("gl_FrontSecondaryColor", "vec4", kind="colour"),), compat=True,
               forms=("gl_in",)),
       TypeSet("texcoord1", (_b("gl_TexCoord", "vec4", 1),), compat=True, forms=("gl_in",)),
       TypeSet("texcoord4", (_b("gl_TexCoord", "vec4", 4),), compat=True, forms=("gl_in",)),
       TypeSet("texcoord7", (_b("gl_TexCoord", "vec4", 7),), compat=True, forms=("gl_in",)),
       TypeSet("fogfragcoord", (_b("gl_FogFragCoord", "float"),), compat=True, forms=("gl_in",)),
       TypeSet("frontcolor+texcoord2+fogfragcoord+vec4",
               (_b("gl_FrontColor", "vec4", kind="colour"), _b("gl_TexCoord", "vec4", 2),
                _b("gl_FogFragCoord", "float"), _u("x", "vec4")), compat=True, forms=("block",))])


def _glsl_decl(c: Carried, name: str, storage: str = "") -> str:
    qualifiers = ("flat " if c.flat else "") + (storage + " " if storage else "")
    return f"{qualifiers}{c.type} {name}{f'[{c.length}]' if c.length else ''}"


def _type_shaders(ts: TypeSet, form: str, domain: str):
    """VS and TES sources, and the expected results' layout: [(quantity, [(kind, k, what)])]."""
    users = [c for c in ts.carried if not c.builtin]
    builtins = [c for c in ts.carried if c.builtin]
    arrays_of_arrays = form == "var" and any(c.length for c in users)
    version = f"#version {430 if arrays_of_arrays else 400} {'compatibility' if ts.compat else 'core'}"
    vs_decl, tes_decl = [], []
    if any(c.type == "S" for c in users):
        vs_decl.append(STRUCT_S)
        tes_decl.append(STRUCT_S)
    if form == "block" and users:
        vs_decl += ["out VertexData {"] + [f"    {_glsl_decl(c, c.name)};" for c in users] + ["} v_out;"]
        tes_decl += ["in VertexData {"] + [f"    {_glsl_decl(c, c.name)};" for c in users] + ["} v_in[];"]
    else:
        for c in users:
            vs_decl.append(f"{_glsl_decl(c, 'v_' + c.name, 'out')};")
            decl = _glsl_decl(c, "v_" + c.name, "in")
            if c.length:          # an array per vertex: an array of arrays
                decl = decl.replace(f"[{c.length}]", f"[][{c.length}]")
            else:
                decl += "[]"
            tes_decl.append(f"{decl};")
    for c in builtins:
        if c.length:                                  # size the builtin array in the VS
            vs_decl.append(f"out {c.type} {c.name}[{c.length}];")

    def written(c: Carried) -> str:
        if c.builtin:
            return c.name
        return f"v_out.{c.name}" if form == "block" else f"v_{c.name}"

    def read(c: Carried) -> str:
        if c.builtin:
            return f"gl_in[i].{c.name}"
        return f"v_in[i].{c.name}" if form == "block" else f"v_{c.name}[i]"

    body, reads, layout = [], [], []
    floats = doubles = k = 0
    for c in ts.carried:
        elements = c.elements()
        if c.dynamic:
            inner = scalars_of(c.type)
            per = len(inner)
            body.append(f"for (int j = 0; j < {c.length}; j++) {{")
            reads.append(f"for (int j = 0; j < {c.length}; j++) {{")
            for a, kind in inner:
                index = f"{k} + j * {per} + {inner.index((a, kind))}"
                body.append(f"    {written(c)}[j]{a} = {component_glsl(kind, 'gl_VertexID', index)};")
            for a, kind in inner:
                offset = inner.index((a, kind))
                if kind == "double":
                    reads.append(f"    ds[{doubles} + j * {per} + {offset}] += {read(c)}[j]{a};")
                else:
                    reads.append(f"    s[{floats} + j * {per} + {offset}] += float({read(c)}[j]{a});")
                    reads.append(f"    w[{floats} + j * {per} + {offset}] += float(i + 1) * float({read(c)}[j]{a});")
            body.append("}")
            reads.append("}")
        else:
            for e, (a, kind) in enumerate(elements):
                body.append(f"{written(c)}{a} = {component_glsl(kind, 'gl_VertexID', str(k + e))};")
        for e, (a, kind) in enumerate(elements):
            what = f"{c.name}{a}" if c.builtin else f"{c.name}{a}"
            if kind == "double":
                if not c.dynamic:
                    reads.append(f"ds[{doubles}] += {read(c)}{a};")
                layout.append(("double", k + e, doubles, what))
                doubles += 1
            else:
                if not c.dynamic:
                    reads.append(f"s[{floats}] += float({read(c)}{a});")
                    reads.append(f"w[{floats}] += float(i + 1) * float({read(c)}{a});")
                layout.append((kind, k + e, floats, what))
                floats += 1
        k += len(elements)

    captures, finish, results = [], [], []
    singles = [item for item in layout if item[0] != "double"]
    for start in range(0, len(singles), 4):
        group = singles[start:start + 4]
        names = ", ".join(g[3] for g in group)
        for prefix, array, what in (("x_s", "s", "sum over the patch of"),
                                     ("x_w", "w", "vertex-weighted sum over the patch of")):
            var = f"{prefix}{start // 4}"
            captures.append(Capture(var, "vec4", f"{what} {names}"))
            parts = [f"{array}[{g[2]}]" for g in group] + ["0.0"] * (4 - len(group))
            finish.append(f"{var} = vec4({', '.join(parts)});")
            results.append((captures[-1].quantity, [(g[0], g[1], array) for g in group]))
    for kind, kk, index, what in layout:
        if kind != "double":
            continue
        var = f"x_d{index}"
        captures.append(Capture(var, "vec2", f"sum over the patch of {what} (whole part, fraction * 2^32)"))
        finish.append(f"{var} = vec2(float(floor(ds[{index}] + 0.5LF)), "
                      f"float((ds[{index}] - floor(ds[{index}] + 0.5LF)) * 4294967296.0LF));")
        results.append((captures[-1].quantity, [("double", kk, "d")]))
    vs = render(HERE / "types.vert", version=version, declarations=vs_decl, body=body)
    tes = render(HERE / "types.tese", version=version, domain=domain, declarations=tes_decl,
                 captures=[f"{'vec4' if c.type == 'vec4' else 'vec2'} {c.varying}" for c in captures],
                 floats=floats, doubles=doubles, reads=reads, finish=finish)
    return vs, tes, tuple(captures), results, (4, 3) if arrays_of_arrays else (4, 0)


TYPE_BASE_CAPTURES = (Capture("x_patch", "int", "gl_PrimitiveID"),
                      Capture("x_patch_vertices", "int", "gl_PatchVerticesIn"))


def expected_results(results, vertices: list[int]) -> tuple:
    values = []
    for quantity, parts in results:
        if parts[0][0] == "double":
            _, k, _ = parts[0]
            total = sum(Fraction(component_value("double", v, k)) for v in vertices)
            whole = math.floor(total + Fraction(1, 2))
            values.append((quantity, (float(whole), float((total - whole) / Fraction(DOUBLE_FRACTION)))))
            continue
        row = []
        for kind, k, array in parts:
            items = [component_value(kind, v, k) for v in vertices]
            row.append(sum(items) if array == "s" else sum((i + 1) * x for i, x in enumerate(items)))
        values.append((quantity, tuple(float(x) for x in row)))
    return tuple(values)


TYPE_LEVELS = ((1.0, 1.0, 1.0, 1.0), (1.0, 1.0))


def type_case(ts: TypeSet, form: str, domain: str, size: int) -> Case:
    id_ = f"tess/no-tcs/{domain}/equal/types/{form}/{ts.token}/pv{size}"
    vs, tes, captures, results, version = _type_shaders(ts, form, domain)
    captures = TYPE_BASE_CAPTURES + captures
    assert sum(CAPTURE_TYPES_COMPONENTS[c.type] for c in captures) <= 64, id_
    first = 1
    count = PATCHES_PER_DRAW * size
    outer, inner = TYPE_LEVELS
    state = DrawState(patch_vertices=size, default_outer=outer, default_inner=inner)
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {first}, {count}))")
    groups = []
    for patch in range(PATCHES_PER_DRAW):
        vertices = list(range(first + patch * size, first + (patch + 1) * size))
        values = (("gl_PatchVerticesIn", size),) + expected_results(results, vertices)
        for quantity, value in values[1:]:
            for x in np.atleast_1d(value):
                assert abs(x) < 2 ** 24, (id_, quantity)      # exact in single precision
        groups.append(RecordGroup("gl_PrimitiveID", patch, f"patch {patch}, TES", values))
    each = per_patch(domain, "equal_spacing", False, outer, inner)
    generated = each * PATCHES_PER_DRAW
    expect = DrawExpectation(0, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", generated),
        ("xfb_vertices", generated * vertices_per_primitive(domain, False))), groups=tuple(groups))
    return Case(
        id=id_, family=FAMILY, shaders=(("vs", vs), ("tes", tes)),
        requires=Requirements(gl_version=version, profile="compat" if ts.compat else "core",
                              limits=(("GL_MAX_PATCH_VERTICES", ">=", size),)),
        vertices=first + count, attributes=(), draws=(draw,),
        readback=Readback(captures, XFB_PRIMITIVE[domain], max_records=expect.counts[2][1] + 64),
        expect=(expect,),
        description=f"VS outputs {', '.join(c.name + ':' + c.type for c in ts.carried)} ({form}) reach a "
                    f"TCS-less TES, {domain}, patches of {size}",
        params=(("domain", domain), ("form", form), ("types", ts.token), ("patch_vertices", size)),
    )


CAPTURE_TYPES_COMPONENTS = {"int": 1, "vec2": 2, "vec3": 3, "vec4": 4, "ivec3": 3, "ivec4": 4}
# The domain does not change how outputs are carried; the patch size does. Each type set and
# form runs with the smallest, a middle and the largest patch, each on another domain.
TYPE_PATCH_SIZES = (("triangles", 1), ("quads", 3), ("isolines", 32))


def type_cases() -> list[Case]:
    cases = []
    for ts in TYPE_SETS:
        for form in ts.forms:
            for domain, size in TYPE_PATCH_SIZES:
                cases.append(type_case(ts, form, domain, size))
    # Every patch size from 1 to 32, for one user type in a block and one builtin.
    vec4 = next(ts for ts in TYPE_SETS if ts.token == "vec4")
    mixed = next(ts for ts in TYPE_SETS if ts.token == "mix")
    for domain in DOMAINS:
        for size in range(1, 33):
            cases.append(type_case(vec4, "block", domain, size))
            cases.append(type_case(mixed, "var", domain, size))
    return cases


# -- with a TCS: patch sizes, barrier(), gl_InvocationID, gl_PrimitiveID; a GS after the TES ------

CONTROL_LEVELS = ((2.0, 3.0, 2.0, 3.0), (2.0, 3.0))
KEY = "instance * 100000 + first vertex of the patch"


def control_attr(vertex: int, instance: int) -> tuple[float, float, float, float]:
    """v_out.attr of control.vert."""
    return (vertex + 0.5, 2.0 * vertex + 0.25, 1000.0 - vertex, float(instance))


@dataclass(frozen=True)
class Patch:
    entry: int                    # sub-draw of a multi-draw
    instance: int
    index: int                    # gl_PrimitiveID: patch number within the instance and sub-draw
    vertices: tuple[int, ...]     # gl_VertexID of its vertices

    @property
    def key(self) -> int:
        return self.instance * 100000 + self.vertices[0]

    def label(self, multi: bool) -> str:
        return (f"entry {self.entry}, " if multi else "") + f"instance {self.instance}, patch {self.index}"


@dataclass(frozen=True)
class DrawPlan:
    token: str
    command: str
    entries: tuple[DrawEntry, ...]
    indices: tuple[int, ...] = ()

    def patches(self, size: int) -> list[Patch]:
        out = []
        for n, e in enumerate(self.entries):
            for instance in range(e.instance_count):
                for p in range(e.count // size):          # a partial last patch is dropped
                    if "Elements" in self.command:
                        ids = tuple(self.indices[e.first + p * size + i] + e.base_vertex for i in range(size))
                    else:
                        ids = tuple(e.first + p * size + i for i in range(size))
                    out.append(Patch(n, instance, p, ids))
        return out

    def label(self) -> str:
        e = self.entries[0]
        if self.command == "DrawArrays":
            return f"glDrawArrays(GL_PATCHES, {e.first}, {e.count})"
        return f"gl{self.command}"


def draw_plans(size: int) -> list[DrawPlan]:
    shuffled = tuple(3 + ((7 * i) % (4 * size)) for i in range(4 * size))
    return [
        DrawPlan("arrays", "DrawArrays", (DrawEntry(5 * size, first=2),)),
        DrawPlan("partial", "DrawArrays", (DrawEntry(3 * size + size - 1, first=1),)),
        DrawPlan("instanced", "DrawArraysInstanced", (DrawEntry(3 * size, instance_count=3, first=1),)),
        DrawPlan("baseinstance", "DrawArraysInstancedBaseInstance",
                 (DrawEntry(2 * size, instance_count=2, first=0, base_instance=7),)),
        DrawPlan("elements", "DrawElements", (DrawEntry(4 * size, first=0),), shuffled),
        DrawPlan("elements-instanced-basevertex", "DrawElementsInstancedBaseVertex",
                 (DrawEntry(3 * size, instance_count=2, first=size, base_vertex=5),), shuffled),
        DrawPlan("multi", "MultiDrawArrays",
                 (DrawEntry(2 * size, first=0), DrawEntry(0, first=50), DrawEntry(3 * size, first=9 * size))),
        DrawPlan("indirect-instanced", "DrawArraysIndirect", (DrawEntry(2 * size, instance_count=2, first=4),)),
    ]


CONTROL_CAPTURES = (
    Capture("x_key", "int", KEY),
    Capture("x_patch", "int", "gl_PrimitiveID (TES)"),
    Capture("x_tcs", "ivec4", "(TCS gl_PrimitiveID, TCS gl_PatchVerticesIn, v_in[0].vertex, v_in[0].instance)"),
)
CONTROL_TCS_CAPTURES = CONTROL_CAPTURES + (
    Capture("x_outputs", "ivec4", "(TES gl_PatchVerticesIn, sum and weighted sum of t_in[].invocation "
                                  "(gl_InvocationID), t_in[last].inputs.y)"),
    Capture("x_attr", "vec4", "sum of t_in[].attr"),
    Capture("x_neighbours", "vec4", "sum of t_in[].neighbours (read after barrier())"),
)
GS_CAPTURES = CONTROL_CAPTURES + (Capture("x_gs_primitive", "int", "gl_PrimitiveIDIn (GS)"),)
GS_INPUT = {"triangles": "triangles", "quads": "triangles", "isolines": "lines"}


def control_values(patch: Patch, size: int, out_vertices: int | None, barrier: bool) -> tuple:
    """Expected TES captures of one patch (out_vertices None: no TCS)."""
    v = patch.vertices
    if out_vertices is None:
        return (("gl_PrimitiveID (TES)", patch.index),
                (CONTROL_CAPTURES[2].quantity, (-1, size, v[0], patch.instance)))
    m = out_vertices
    weighted_inputs = sum((i + 1) * x for i, x in enumerate(v))

    def attr(j):
        a = control_attr(v[j % size], patch.instance)
        return tuple(c + 1024.0 * j for c in a)

    attrs = [attr(j) for j in range(m)]
    if barrier:
        neighbours = [(attrs[(j + 1) % m][0], attrs[(j - 1) % m][1], float((j + 1) % m),
                       float(weighted_inputs)) for j in range(m)]
    else:
        neighbours = [(0.0,) * 4] * m
    return (("gl_PrimitiveID (TES)", patch.index),
            (CONTROL_CAPTURES[2].quantity, (patch.index, size, v[0], patch.instance)),
            (CONTROL_TCS_CAPTURES[3].quantity, (m, sum(range(m)), sum((j + 1) * j for j in range(m)),
                                                weighted_inputs)),
            ("sum of t_in[].attr", tuple(sum(a[c] for a in attrs) for c in range(4))),
            (CONTROL_TCS_CAPTURES[5].quantity, tuple(sum(n[c] for n in neighbours) for c in range(4))))


def control_case(tcs: bool, domain: str, spacing: str, size: int, out_vertices: int | None,
                 plan: DrawPlan, *, barrier: bool = False, gs: bool = False, point_mode: bool = False,
                 levels=CONTROL_LEVELS, path: tuple[str, ...] = ()) -> Case:
    id_ = "/".join(("tess", "tcs" if tcs else "no-tcs", domain, spacing_token(spacing)) + path)
    outer, inner = levels
    shaders = [("vs", render(HERE / "control.vert"))]
    if tcs:
        shaders.append(("tcs", render(HERE / "control.tesc", out_vertices=out_vertices, barrier=barrier,
                                      outer=[glsl_float(x) for x in outer],
                                      inner=[glsl_float(x) for x in inner])))
    shaders.append(("tes", render(HERE / "control.tese", domain=domain, spacing=spacing,
                                  point_mode=point_mode, tcs=tcs, gs=gs)))
    if gs:
        shaders.append(("gs", render(HERE / "control.geom",
                                     input="points" if point_mode else GS_INPUT[domain])))
    patches = plan.patches(size)
    each = per_patch(domain, spacing, point_mode, outer, inner)
    generated = each * len(patches)
    multi = len(plan.entries) > 1
    groups, sets = [], []
    for patch in patches:
        label = patch.label(multi) + (f", vertices {patch.vertices[0]}..{patch.vertices[-1]}")
        values = control_values(patch, size, out_vertices if tcs else None, barrier)
        if gs:
            values = values[:2]
            # GL 4.6 (11.3.4.5) counts "primitives processed by the geometry shader"; which ones
            # count after tessellation is unsettled (KhronosGroup/OpenGL-API#47). Mesa counts the
            # tessellator's primitives; NVIDIA (GL and Vulkan) gives the patch's number, as
            # D3D11's SV_PrimitiveID does. Both are accepted, nothing else.
            first = patch.index * each
            per_patch_id = ValueSet("gl_PrimitiveIDIn (GS)", ((float(patch.index),),),
                                    label + ", GS, the patch number for all its primitives",
                                    key=KEY, key_value=patch.key, each=each)
            sets.append(ValueSet("gl_PrimitiveIDIn (GS)", tuple((float(first + n),) for n in range(each)),
                                 label + ", GS", key=KEY, key_value=patch.key, each=1,
                                 alternatives=(per_patch_id,)))
        groups.append(RecordGroup(KEY, patch.key, label + (", GS" if gs else ", TES"), values))
    if gs:
        captured, primitive, per = GS_CAPTURES, "POINTS", 1
    else:
        captured = CONTROL_TCS_CAPTURES if tcs else CONTROL_CAPTURES
        primitive, per = xfb_primitive(domain, point_mode), vertices_per_primitive(domain, point_mode)
    expect = DrawExpectation(0, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", generated),
        ("xfb_vertices", generated * per)), groups=tuple(groups), value_sets=tuple(sets))
    state = DrawState(patch_vertices=size, default_outer=None if tcs else tuple(map(float, outer)),
                      default_inner=None if tcs else tuple(map(float, inner)))
    draw = Draw(plan.command, "PATCHES", plan.entries, state=state, label=f"draw 0 ({plan.label()})")
    vertices = max((max(p.vertices) for p in patches), default=0) + 1
    limits = [("GL_MAX_PATCH_VERTICES", ">=", max(size, out_vertices or 0))]
    if needs_max_level(levels):
        limits.append(("GL_MAX_TESS_GEN_LEVEL", "==", SPEC_MAX_LEVEL))
    return Case(
        id=id_, family=FAMILY, shaders=tuple(shaders),
        requires=Requirements(gl_version=(4, 2) if "BaseInstance" in plan.command else (4, 0),
                              limits=tuple(limits)),
        vertices=vertices, attributes=(), draws=(draw,),
        readback=Readback(captured, primitive, max_records=generated * per + 64),
        expect=(expect,), indices=plan.indices,
        description=f"{'TCS with output patches of ' + str(out_vertices) if tcs else 'no TCS'}, input "
                    f"patches of {size}, {domain}, {spacing}{', barrier()' if barrier else ''}"
                    f"{', GS after the TES' if gs else ''}, drawn with gl{plan.command} ({plan.token})",
        params=(("domain", domain), ("spacing", spacing), ("tcs", tcs), ("patch_vertices", size),
                ("out_vertices", out_vertices), ("draw", plan.token), ("gs", gs), ("point_mode", point_mode)),
    )


IN_SIZES = (1, 2, 3, 4, 5, 8, 16, 31, 32)
OUT_SIZES = (1, 2, 3, 4, 7, 16, 32)
BARRIER_SIZES = ((3, 3), (4, 2), (1, 5), (2, 7), (16, 32), (32, 32), (32, 3))


def control_cases() -> list[Case]:
    cases = []
    arrays = lambda size: draw_plans(size)[0]           # noqa: E731
    for domain in DOMAINS:
        # Output patch size against input patch size: every pair.
        for n in IN_SIZES:
            for m in OUT_SIZES:
                cases.append(control_case(True, domain, "equal_spacing", n, m, arrays(n),
                                          path=(f"in{n}-out{m}",)))
        # Invocations read each other's outputs after barrier().
        for n, m in BARRIER_SIZES:
            cases.append(control_case(True, domain, "equal_spacing", n, m, arrays(n), barrier=True,
                                      path=(f"in{n}-out{m}", "barrier")))
        # gl_PrimitiveID in TCS and TES through every kind of draw (restarts per instance and
        # per sub-draw), with and without a TCS; then through a GS after the TES.
        for plan in draw_plans(3):
            cases.append(control_case(True, domain, "equal_spacing", 3, 4, plan, barrier=True,
                                      path=("primitive-id", plan.token)))
            cases.append(control_case(False, domain, "equal_spacing", 3, None, plan,
                                      path=("primitive-id", plan.token)))
        for spacing in SPACINGS:
            for plan in (draw_plans(3)[0], draw_plans(3)[2], draw_plans(3)[6]):
                for point_mode in (False, True):
                    if plan.token == "multi" and (spacing != "equal_spacing" or point_mode):
                        continue            # the restart per sub-draw does not depend on them
                    tail = ("gs", plan.token) + (("points",) if point_mode else ())
                    levels = LEVELS["fractional"]
                    cases.append(control_case(True, domain, spacing, 3, 4, plan, gs=True,
                                              point_mode=point_mode, levels=levels, path=tail))
                    cases.append(control_case(False, domain, spacing, 3, None, plan, gs=True,
                                              point_mode=point_mode, levels=levels, path=tail))
    return cases


# -- per-patch outputs of every type; large per-vertex and per-patch arrays --------------------

PATCH_TYPES = ("float", "vec2", "vec3", "vec4", "int", "ivec2", "ivec4", "uint", "uvec3", "mat2", "mat3",
               "mat4", "mat2x3", "double", "dvec3", "dmat2")
PATCH_WRITERS = ("first", "last")


def _patch_type_case(domain: str, carried: Carried, token: str, writer: str, out_vertices: int) -> Case:
    """One per-patch output, written by the first or the last TCS invocation; its value depends
    on gl_PrimitiveID, so patches tell theirs apart."""
    id_ = f"tess/tcs/{domain}/equal/patch-out/{token}/{writer}-of-{out_vertices}"
    version = "#version 430 core" if carried.length and carried.dynamic else "#version 400 core"
    writer_id = 0 if writer == "first" else out_vertices - 1
    decl = f"{carried.type} p_{carried.name}{f'[{carried.length}]' if carried.length else ''}"
    structs = [STRUCT_S] if carried.type == "S" else []
    tcs_decl = structs + [f"patch out {decl};"]
    tes_decl = structs + [f"patch in {decl};"]
    body = [f"if (id == {writer_id}) {{"]
    elements = carried.elements()
    inner = scalars_of(carried.type)
    if carried.dynamic:
        body.append(f"    for (int j = 0; j < {carried.length}; j++) {{")
        for o, (a, kind) in enumerate(inner):
            body.append(f"        p_{carried.name}[j]{a} = "
                        f"{component_glsl(kind, 'gl_PrimitiveID', f'j * {len(inner)} + {o}')};")
        body.append("    }")
    else:
        for k, (a, kind) in enumerate(elements):
            body.append(f"    p_{carried.name}{a} = {component_glsl(kind, 'gl_PrimitiveID', str(k))};")
    body.append("}")
    captures, layout = [], []
    singles = [(k, a, kind) for k, (a, kind) in enumerate(elements) if kind != "double"]
    doubles = [(k, a, kind) for k, (a, kind) in enumerate(elements) if kind == "double"]
    tes_body = []
    if carried.dynamic:                       # read back through a dynamic index as well
        tes_body.append(f"float v[{len(elements)}];")
        tes_body.append(f"for (int j = 0; j < {carried.length}; j++) {{")
        for o, (a, kind) in enumerate(inner):
            tes_body.append(f"    v[j * {len(inner)} + {o}] = float(p_{carried.name}[j]{a});")
        tes_body.append("}")
        read = lambda k, a: f"v[{k}]"                                    # noqa: E731
    else:
        read = lambda k, a: f"float(p_{carried.name}{a})"                # noqa: E731
    for start in range(0, len(singles), 4):
        group = singles[start:start + 4]
        var = f"x_p{start // 4}"
        names = ", ".join(f"{carried.name}{a}" for _, a, _ in group)
        captures.append(Capture(var, "vec4", f"patch in {names}"))
        parts = [read(k, a) for k, a, _ in group] + ["0.0"] * (4 - len(group))
        tes_body.append(f"{var} = vec4({', '.join(parts)});")
        layout.append((captures[-1].quantity, [(kind, k) for k, _, kind in group]))
    for k, a, kind in doubles:
        var = f"x_d{k}"
        captures.append(Capture(var, "vec2", f"patch in {carried.name}{a} (whole part, fraction * 2^32)"))
        value = f"p_{carried.name}{a}"
        tes_body.append(f"{var} = vec2(float(floor({value} + 0.5LF)), "
                        f"float(({value} - floor({value} + 0.5LF)) * 4294967296.0LF));")
        layout.append((captures[-1].quantity, [("double", k)]))
    outer, inner_levels = CONTROL_LEVELS
    tcs = render(HERE / "patch.tesc", version=version, out_vertices=out_vertices, large=False,
                 declarations=tcs_decl, body=body, outer=[glsl_float(x) for x in outer],
                 inner=[glsl_float(x) for x in inner_levels])
    tes = render(HERE / "patch.tese", version=version, domain=domain, large=False, declarations=tes_decl,
                 captures=[f"{c.type} {c.varying}" for c in captures], body=tes_body)

    def expected(patch):
        values = []
        for quantity, parts in layout:
            if parts[0][0] == "double":
                exact = Fraction(component_value("double", patch, parts[0][1]))
                whole = math.floor(exact + Fraction(1, 2))
                values.append((quantity, (float(whole), float((exact - whole) / Fraction(DOUBLE_FRACTION)))))
            else:
                values.append((quantity, tuple(float(component_value(kind, patch, k)) for kind, k in parts)))
        return tuple(values)
    return _patch_case(id_, domain, out_vertices, tcs, tes, captures, expected, version,
                       f"patch out {decl}, written by the {writer} of {out_vertices} TCS invocations")


def _patch_case(id_, domain, out_vertices, tcs, tes, captures, expected, version, description,
                limits=()) -> Case:
    size, patches, first = 3, 3, 1
    count = size * patches
    outer, inner = CONTROL_LEVELS
    each = per_patch(domain, "equal_spacing", False, outer, inner)
    generated = each * patches
    groups = tuple(RecordGroup("gl_PrimitiveID", p, f"patch {p}, TES", expected(p)) for p in range(patches))
    expect = DrawExpectation(0, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", generated),
        ("xfb_vertices", generated * vertices_per_primitive(domain, False))), groups=groups)
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=DrawState(patch_vertices=size),
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {first}, {count}))")
    return Case(
        id=id_, family=FAMILY,
        shaders=(("vs", coords_vs()), ("tcs", tcs), ("tes", tes)),
        requires=Requirements(gl_version=(4, 3) if "430" in version else (4, 0),
                              limits=(("GL_MAX_PATCH_VERTICES", ">=", out_vertices),) + tuple(limits)),
        vertices=first + count, attributes=(), draws=(draw,),
        readback=Readback((Capture("x_patch", "int", "gl_PrimitiveID"),) + tuple(captures),
                          XFB_PRIMITIVE[domain], max_records=expect.counts[2][1] + 64),
        expect=(expect,), description=description,
        params=(("domain", domain), ("out_vertices", out_vertices)),
    )


def _large_value(patch: int, vertex: int, k: int, c: int) -> int:
    return (patch * 7 + vertex * 3 + k * 5 + c) % 29 + 1


def _large_patch_value(patch: int, j: int, c: int) -> int:
    return (patch * 11 + j * 13 + c) % 53 + 1


def _large_case(domain: str, out_vertices: int, per_vertex: int, per_patch_: int) -> Case:
    """Each invocation writes its vertex's `per_vertex` vec4s (dynamic index) before barrier(),
    then reads its neighbour's and writes their weighted sum; invocations share the writes of a
    per-patch vec4 array. The TES reduces all of it along every index."""
    m, k_, p_ = out_vertices, per_vertex, per_patch_
    id_ = f"tess/tcs/{domain}/equal/large-out/out{m}-{k_}xvec4-patch{p_}xvec4"
    value = "float((gl_PrimitiveID * 7 + id * 3 + k * 5 + {c}) % 29 + 1)"
    tcs_decl = ["out Large {", f"    vec4 a[{k_}];", "    vec4 b;", "} t_out[];",
                f"patch out vec4 p_a[{p_}];"]
    body = [f"for (int k = 0; k < {k_}; k++)",
            "    t_out[gl_InvocationID].a[k] = vec4(" + ", ".join(value.format(c=c) for c in range(4)) + ");",
            f"for (int j = id; j < {p_}; j += {m})",
            "    p_a[j] = vec4(" + ", ".join(f"float((gl_PrimitiveID * 11 + j * 13 + {c}) % 53 + 1)"
                                             for c in range(4)) + ");",
            "barrier();",
            "vec4 acc = vec4(0.0);",
            f"for (int k = 0; k < {k_}; k++)",
            f"    acc += t_out[(id + 1) % {m}].a[k] * float(k + 1);",
            "t_out[gl_InvocationID].b = acc;"]
    tes_decl = ["in Large {", f"    vec4 a[{k_}];", "    vec4 b;", "} t_in[];", f"patch in vec4 p_a[{p_}];"]
    tes_body = ["vec4 a = vec4(0.0);", "vec4 b = vec4(0.0);", "vec4 bw = vec4(0.0);",
                "for (int i = 0; i < gl_PatchVerticesIn; i++) {",
                f"    for (int k = 0; k < {k_}; k++) {{",
                "        vec4 x = t_in[i].a[k];",
                "        float all = x.x + x.y + x.z + x.w;",
                "        a += vec4(all, float(i + 1) * all, float(k + 1) * all, dot(x, vec4(1.0, 2.0, 3.0, 4.0)));",
                "    }",
                "    b += t_in[i].b;",
                "    bw += float(i + 1) * t_in[i].b;",
                "}",
                "vec4 p = vec4(0.0);",
                f"for (int j = 0; j < {p_}; j++) {{",
                "    vec4 x = p_a[j];",
                "    float all = x.x + x.y + x.z + x.w;",
                "    p += vec4(all, float(j + 1) * all, dot(x, vec4(1.0, 2.0, 3.0, 4.0)), 0.0);",
                "}",
                "x_a = a;", "x_b = b;", "x_bw = bw;", "x_pa = p;"]
    captures = (Capture("x_a", "vec4", "sum of t_in[].a[] (all, vertex-weighted, index-weighted, component-weighted)"),
                Capture("x_b", "vec4", "sum of t_in[].b (neighbour's a[] read after barrier())"),
                Capture("x_bw", "vec4", "vertex-weighted sum of t_in[].b"),
                Capture("x_pa", "vec4", "sum of patch in p_a[] (all, index-weighted, component-weighted)"))
    outer, inner = CONTROL_LEVELS
    version = "#version 400 core"
    tcs = render(HERE / "patch.tesc", version=version, out_vertices=m, large=True, declarations=tcs_decl,
                 body=body, outer=[glsl_float(x) for x in outer], inner=[glsl_float(x) for x in inner])
    tes = render(HERE / "patch.tese", version=version, domain=domain, large=True, declarations=tes_decl,
                 captures=[f"{c.type} {c.varying}" for c in captures], body=tes_body)

    def expected(patch):
        a = [0.0] * 4
        b, bw = [0.0] * 4, [0.0] * 4
        for i in range(m):
            for k in range(k_):
                x = [_large_value(patch, i, k, c) for c in range(4)]
                a[0] += sum(x)
                a[1] += (i + 1) * sum(x)
                a[2] += (k + 1) * sum(x)
                a[3] += sum((c + 1) * x[c] for c in range(4))
            for c in range(4):
                value = sum((k + 1) * _large_value(patch, (i + 1) % m, k, c) for k in range(k_))
                b[c] += value
                bw[c] += (i + 1) * value
        p = [0.0] * 4
        for j in range(p_):
            x = [_large_patch_value(patch, j, c) for c in range(4)]
            p[0] += sum(x)
            p[1] += (j + 1) * sum(x)
            p[2] += sum((c + 1) * x[c] for c in range(4))
        for v in a + b + bw + p:
            assert v < 2 ** 24, id_
        return tuple((c.quantity, tuple(map(float, v))) for c, v in zip(captures, (a, b, bw, p)))
    per_vertex_components = 4 * k_ + 4 + 4                     # a[], b, gl_Position
    limits = (("GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS", ">=", per_vertex_components),
              ("GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS", ">=", m * per_vertex_components + 4 * p_),
              ("GL_MAX_TESS_PATCH_COMPONENTS", ">=", 4 * p_),
              ("GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", ">=", per_vertex_components))
    return _patch_case(id_, domain, m, tcs, tes, captures, expected, version,
                       f"{m} output vertices of {k_} vec4 each, read after barrier(); {p_} per-patch vec4",
                       limits)


# (output vertices, vec4 per vertex, vec4 per patch). GL limits per-vertex and per-patch outputs
# separately; (4, 7, 24) and (4, 7, 25) straddle 32 locations for both together (a[], b: 8).
LARGE_OUT = ((3, 1, 1), (4, 7, 24), (4, 7, 25), (4, 28, 30), (32, 8, 30), (32, 27, 2), (16, 29, 16))


def patch_cases() -> list[Case]:
    cases = []
    for domain in DOMAINS:
        for t in PATCH_TYPES:
            for writer in PATCH_WRITERS:
                cases.append(_patch_type_case(domain, _u("x", t), t, writer, 4))
        for token, carried in (("float4-dyn", _u("a", "float", 4, dynamic=True)),
                               ("vec4x8-dyn", _u("a", "vec4", 8, dynamic=True)),
                               ("mat2x3-const", _u("a", "mat2", 3)),
                               ("struct", _u("s", "S"))):
            cases.append(_patch_type_case(domain, carried, token, "last", 3))
        for m, k, p in LARGE_OUT:
            cases.append(_large_case(domain, m, k, p))
    return cases


# -- winding through gl_FrontFacing -------------------------------------------------------------

FACING_SIZE = (8, 4)


def facing_case(tcs: bool, domain: str, spacing: str, winding: str, levels, primitive_id: bool = False) -> Case:
    """Patches side by side filling the viewport, drawn without a GS. Front-facing cases check
    gl_FrontFacing at every pixel; primitive-id cases check the FS gl_PrimitiveID, with one
    triangle per patch so that the two readings of the spec agree (the GL spec counts the
    primitives the rasterizer saw, the GLSL spec takes the TES's value: both are the patch)."""
    token = "fs-primitive-id" if primitive_id else "front-facing"
    id_ = "/".join(("tess", "tcs" if tcs else "no-tcs", domain, spacing_token(spacing), winding,
                    token, level_token(domain, levels)))
    outer, inner = levels
    size, first = 3, 0
    patches = 4 if primitive_id else 2
    shaders = [("vs", coords_vs())]
    if tcs:
        shaders.append(("tcs", coords_tcs(size, levels)))
    shaders += [("tes", render(HERE / "facing.tese", domain=domain, spacing=spacing, winding=winding,
                               patches=patches)),
                ("fs", render(HERE / "facing.frag"))]
    width, height = FACING_SIZE
    front = 1.0 if winding == "ccw" else -1.0      # GL's initial glFrontFace is GL_CCW
    pixels = []
    for y in range(height):
        for x in range(width):
            xn, yn = (x + 0.5) / width * 2 - 1, (y + 0.5) / height * 2 - 1
            patch = int((xn + 1) / 2 * patches)
            u, v = (xn + 1) / 2 * patches - patch, (yn + 1) / 2
            if domain == "triangles" and not (u > 0.05 and v > 0.05 and u + v < 0.95):
                continue                            # outside the triangle, or on its edge
            where = f"pixel ({x}, {y})"
            base = (y * width + x) * 4
            if primitive_id:
                pixels.append(ExpectedPixel(base + 1, f"{where}: FS gl_PrimitiveID (patch {patch})", float(patch)))
            else:
                pixels.append(ExpectedPixel(base, f"{where}: gl_FrontFacing (1 front, -1 back)", front))
    count = patches * size
    state = DrawState(patch_vertices=size, default_outer=None if tcs else tuple(map(float, outer)),
                      default_inner=None if tcs else tuple(map(float, inner)))
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {first}, {count}))")
    each = per_patch(domain, spacing, False, outer, inner)
    assert not primitive_id or each == 1, id_
    return Case(
        id=id_, family=FAMILY, shaders=tuple(shaders), requires=Requirements(gl_version=(4, 0)),
        vertices=count, attributes=(), draws=(draw,),
        readback=Readback(image=FACING_SIZE),
        expect=(DrawExpectation(0, counts=(("primitives_generated", each * patches),), pixels=tuple(pixels)),),
        description=(f"{patches} patches of one triangle each, {spacing}: FS gl_PrimitiveID without a GS"
                     if primitive_id else
                     f"{winding} triangles from {domain}, {spacing}: gl_FrontFacing with glFrontFace(GL_CCW)"),
        params=(("domain", domain), ("spacing", spacing), ("winding", winding), ("tcs", tcs)),
    )


def facing_cases() -> list[Case]:
    cases = [facing_case(tcs, domain, spacing, winding, LEVELS[name])
             for tcs in (False, True) for domain in ("triangles", "quads") for spacing in SPACINGS
             for winding in WINDINGS for name in ("integer", "fractional")]
    cases += [facing_case(tcs, "triangles", spacing, "ccw", LEVELS["ones"], primitive_id=True)
              for tcs in (False, True) for spacing in ("equal_spacing", "fractional_odd_spacing")]
    return cases


# -- very many patches in one draw: counts, and the first patches' records -------------------------

MANY_PATCHES = 100_000
MANY_LEVELS = ((1.0, 1.0, 1.0, 1.0), (1.0, 1.0))
MANY_CAPTURED = 64                   # primitives the transform-feedback buffer holds


def many_case(tcs: bool, domain: str, size: int) -> Case:
    id_ = f"tess/{'tcs' if tcs else 'no-tcs'}/{domain}/equal/patches{MANY_PATCHES}/pv{size}"
    levels = MANY_LEVELS
    outer, inner = levels
    shaders = [("vs", coords_vs())]
    if tcs:
        shaders.append(("tcs", coords_tcs(size, levels)))
    shaders.append(("tes", coords_tese(domain, "equal_spacing", "", False)))
    count = MANY_PATCHES * size
    each = per_patch(domain, "equal_spacing", False, outer, inner)
    generated = each * MANY_PATCHES
    per = vertices_per_primitive(domain, False)
    captured = MANY_CAPTURED // each * each          # whole patches only
    full = tess_expectation(0, domain, "equal_spacing", False, "ccw", levels,
                            [(p, p * size, size) for p in range(captured // each)], tcs)
    expect = dataclasses.replace(full, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", captured),
        ("xfb_vertices", captured * per)))
    state = DrawState(patch_vertices=size, default_outer=None if tcs else outer,
                      default_inner=None if tcs else inner)
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count),), state=state,
                label=f"draw 0 (glDrawArrays(GL_PATCHES, 0, {count}))")
    return Case(
        id=id_, family=FAMILY, shaders=tuple(shaders), requires=Requirements(gl_version=(4, 0)),
        vertices=count, attributes=(), draws=(draw,),
        readback=Readback(COORD_CAPTURES, XFB_PRIMITIVE[domain], max_records=captured * per),
        expect=(expect,),
        description=f"{MANY_PATCHES} patches of {size} in one draw, {domain}, "
                    f"{'levels from a TCS' if tcs else 'default levels'}: all counted, the first "
                    f"{captured // each} captured",
        params=(("domain", domain), ("tcs", tcs), ("patch_vertices", size)),
    )


def many_cases() -> list[Case]:
    return [many_case(tcs, domain, size) for tcs in (False, True) for domain in DOMAINS for size in (1, 4)]


# -- large patches: 32 vertices, many vec4 outputs each (TCS-less) --------------------------------

def _large_input(vertex: int, k: int, c: int) -> int:
    return (vertex * 3 + k * 5 + c) % 29 + 1


def large_patch_case(domain: str, size: int, count: int) -> Case:
    id_ = f"tess/no-tcs/{domain}/equal/large-in/pv{size}-{count}xvec4"
    vs = render(HERE / "large.vert", count=count)
    tes = render(HERE / "large.tese", domain=domain, count=count)
    captures = list(TYPE_BASE_CAPTURES)
    for n in range((count + 1) // 2):
        names = f"u{2 * n}" + (f", u{2 * n + 1}" if 2 * n + 1 < count else "")
        captures.append(Capture(f"x_u{n}", "vec4", f"component-weighted and vertex-weighted sums of {names}"))
    first = 0
    total = 2 * size
    outer, inner = TYPE_LEVELS
    groups = []
    for patch in range(2):
        vertices = range(first + patch * size, first + (patch + 1) * size)
        values = [("gl_PatchVerticesIn", size)]
        for n in range((count + 1) // 2):
            row = []
            for k in (2 * n, 2 * n + 1):
                if k >= count:
                    row += [0.0, 0.0]
                    continue
                row.append(float(sum((c + 1) * _large_input(v, k, c) for v in vertices for c in range(4))))
                row.append(float(sum((i + 1) * _large_input(v, k, c) for i, v in enumerate(vertices)
                                     for c in range(4))))
            values.append((captures[2 + n].quantity, tuple(row)))
        groups.append(RecordGroup("gl_PrimitiveID", patch, f"patch {patch}, TES", tuple(values)))
    each = per_patch(domain, "equal_spacing", False, outer, inner)
    generated = 2 * each
    expect = DrawExpectation(0, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", generated),
        ("xfb_vertices", generated * vertices_per_primitive(domain, False))), groups=tuple(groups))
    state = DrawState(patch_vertices=size, default_outer=outer, default_inner=inner)
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(total, first=first),), state=state,
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {first}, {total}))")
    components = 4 * count + 4                              # and gl_Position
    return Case(
        id=id_, family=FAMILY, shaders=(("vs", vs), ("tes", tes)),
        requires=Requirements(gl_version=(4, 0), limits=(
            ("GL_MAX_PATCH_VERTICES", ">=", size),
            ("GL_MAX_VERTEX_OUTPUT_COMPONENTS", ">=", components),
            ("GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", ">=", components))),
        vertices=total, attributes=(), draws=(draw,),
        readback=Readback(tuple(captures), XFB_PRIMITIVE[domain], max_records=expect.counts[2][1] + 64),
        expect=(expect,),
        description=f"patches of {size} vertices with {count} vec4 VS outputs each, no TCS, {domain}",
        params=(("domain", domain), ("patch_vertices", size), ("outputs", count)),
    )


def large_patch_cases() -> list[Case]:
    return [large_patch_case(domain, size, count) for domain in DOMAINS
            for size, count in ((32, 8), (32, 15), (32, 28), (17, 28))]


# -- one program drawn many times: unchanged state, or the patch size and levels changed each time --

def sweep_case(domain: str, spacing: str, token: str, steps: list[tuple[int | None, tuple | None]]) -> Case:
    """Draws of one TCS-less program; each step sets a patch size and/or levels (None: leaves them)."""
    id_ = f"tess/no-tcs/{domain}/{spacing_token(spacing)}/{token}"
    shaders = (("vs", coords_vs()), ("tes", coords_tese(domain, spacing, "", True)))
    draws, expects = [], []
    size, levels, first = INITIAL_PATCH_VERTICES, INITIAL, 1
    for index, (new_size, new_levels) in enumerate(steps):
        size = new_size or size
        levels = new_levels or levels
        count = 2 * size
        state = DrawState(patch_vertices=new_size,
                          default_outer=tuple(map(float, levels[0])) if new_levels else None,
                          default_inner=tuple(map(float, levels[1])) if new_levels else None)
        draws.append(Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                          label=f"draw {index} (glDrawArrays(GL_PATCHES, {first}, {count}))"))
        patches = [(p, first + p * size, size) for p in range(2)]
        expects.append(tess_expectation(index, domain, spacing, True, "", levels, patches, False))
    most = max(e.counts[2][1] for e in expects)
    limits = [("GL_MAX_PATCH_VERTICES", ">=", max(s for s, _ in steps if s))] if any(s for s, _ in steps) else []
    if any(needs_max_level(lv) for _, lv in steps if lv):
        limits.append(("GL_MAX_TESS_GEN_LEVEL", "==", SPEC_MAX_LEVEL))
    return Case(
        id=id_, family=FAMILY, shaders=shaders, requires=Requirements(gl_version=(4, 0), limits=tuple(limits)),
        vertices=first + 64, attributes=(), draws=tuple(draws),
        readback=Readback(COORD_CAPTURES, "POINTS", max_records=most + 64),
        expect=tuple(expects),
        description=f"{len(steps)} draws of one TCS-less program ({token}), {domain}, {spacing}, point_mode",
        params=(("domain", domain), ("spacing", spacing), ("draws", len(steps))),
    )


def sweep_cases() -> list[Case]:
    cases = []
    grid = [lv for lv in LEVEL_GRID if not any(math.isnan(x) or x <= 0 for x in lv[0]) and max(lv[0]) < 20]
    for domain in DOMAINS:
        for spacing in SPACINGS:
            # Unchanged state: only the first draw sets anything.
            cases.append(sweep_case(domain, spacing, "repeat24",
                                    [(4, LEVELS["fractional"])] + [(None, None)] * 23))
            # Patch size 1..32 and the levels changed before every draw, then back down.
            up = [(n, grid[n % len(grid)]) for n in range(1, 33)]
            cases.append(sweep_case(domain, spacing, "pv1-to-32", up))
            cases.append(sweep_case(domain, spacing, "pv32-to-1", up[::-1]))
            # Only one of the two changed per draw.
            cases.append(sweep_case(domain, spacing, "alternate",
                                    [(3, grid[1]), (5, None), (None, grid[2]), (2, None), (None, grid[3]),
                                     (None, None), (7, grid[0])]))
    return cases


# -- sequences of programs: with and without a TCS, without tessellation, one TES shared ----------

SEQ_OFFSETS = (0, 10000, 20000)          # coords.vert offsets of the programs that share a TES


@dataclass(frozen=True)
class SeqStep:
    program: int                         # index into the case's programs
    size: int | None = None              # GL_PATCH_VERTICES set before the draw
    levels: tuple | None = None          # default levels set before the draw
    delete: tuple[int, ...] = ()         # programs deleted before the draw


def seq_case(domain: str, spacing: str, token: str, programs: list[tuple[str, ...]],
             steps: list[SeqStep]) -> Case:
    """`programs`: each a tuple of ("no-tcs", offset) / ("tcs", out_vertices, levels) / ("plain",).
    Every tessellating program links the one TES source (one shader object, shared)."""
    id_ = f"tess/seq/{domain}/{spacing_token(spacing)}/{token}"
    tes = coords_tese(domain, spacing, "ccw" if domain != "isolines" else "", False)
    built = []
    for spec in programs:
        if spec[0] == "no-tcs":
            built.append((("vs", coords_vs(spec[1])), ("tes", tes)))
        elif spec[0] == "tcs":
            built.append((("vs", coords_vs(0)), ("tcs", coords_tcs(spec[1], spec[2])), ("tes", tes)))
        else:
            built.append((("vs", render(HERE / "plain.vert")),))
    draws, expects = [], []
    size, levels, first = INITIAL_PATCH_VERTICES, INITIAL, 1
    plain_mode = XFB_PRIMITIVE[domain]
    for index, step in enumerate(steps):
        size = step.size or size
        levels = step.levels or levels
        spec = programs[step.program]
        state = DrawState(patch_vertices=step.size,
                          default_outer=tuple(map(float, step.levels[0])) if step.levels else None,
                          default_inner=tuple(map(float, step.levels[1])) if step.levels else None)
        deleted = f", after glDeleteProgram of program(s) {', '.join(map(str, step.delete))}" if step.delete else ""
        if spec[0] == "plain":
            per = vertices_per_primitive(domain, False)
            count = 2 * per
            label = f"draw {index} (program {step.program}: glDrawArrays(GL_{plain_mode}, {first}, {count}), " \
                    f"no tessellation{deleted})"
            draws.append(Draw("DrawArrays", plain_mode, (DrawEntry(count, first=first),), state=state,
                              label=label, program=step.program, delete_programs=step.delete))
            groups = tuple(RecordGroup("gl_PrimitiveID", -1 - v, f"vertex {v} (no tessellation)",
                                       (("gl_TessLevelOuter", (-1.0,) * 4),
                                        (COORD_CAPTURES[4].quantity, (0, v, v))))
                           for v in range(first, first + count))
            expects.append(DrawExpectation(index, counts=(
                ("primitives_generated", 2), ("xfb_primitives_written", 2), ("xfb_vertices", count)),
                groups=groups))
        else:
            count = 2 * size
            label = f"draw {index} (program {step.program}: glDrawArrays(GL_PATCHES, {first}, {count}){deleted})"
            draws.append(Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                              label=label, program=step.program, delete_programs=step.delete))
            tcs = spec[0] == "tcs"
            seen = spec[1] if tcs else size                  # the patch the TES sees
            offset = 0 if tcs else spec[1]
            patches = [(p, first + p * size + offset, size) for p in range(2)]
            exp = tess_expectation(index, domain, spacing, False, "ccw" if domain != "isolines" else "",
                                   spec[2] if tcs else levels, patches, tcs)
            if tcs and seen != size:                         # the TCS's output patch, built from the input
                groups = []
                for group, (p, v0, _) in zip(exp.groups, patches):
                    vertices = [v0 + (i % size) for i in range(seen)]
                    values = tuple((q, (seen, sum(vertices) + 1000 * seen, vertices[0] + 1000))
                                   if q == COORD_CAPTURES[4].quantity else (q, v) for q, v in group.values)
                    groups.append(dataclasses.replace(group, values=values))
                exp = dataclasses.replace(exp, groups=tuple(groups))
            expects.append(exp)
        first += count + 1
    most = max(e.counts[2][1] for e in expects)
    limits = [("GL_MAX_PATCH_VERTICES", ">=", 32)]
    return Case(
        id=id_, family=FAMILY, shaders=built[0], programs=tuple(built[1:]),
        requires=Requirements(gl_version=(4, 0), limits=tuple(limits)),
        vertices=first, attributes=(), draws=tuple(draws),
        readback=Readback(COORD_CAPTURES, XFB_PRIMITIVE[domain], max_records=most + 64),
        expect=tuple(expects),
        description=f"draw sequence {token}: programs {programs}, {domain}, {spacing}",
        params=(("domain", domain), ("spacing", spacing), ("programs", len(programs))),
    )


def seq_cases() -> list[Case]:
    cases = []
    a, b, c = LEVELS["integer"], LEVELS["fractional"], LEVELS["inner_one"]
    for domain in DOMAINS:
        for spacing in SPACINGS:
            def add(token, programs, steps):
                cases.append(seq_case(domain, spacing, token, programs, steps))
            no_tcs, with_tcs, plain = ("no-tcs", 0), ("tcs", 4, b), ("plain",)
            # TCS-less, then a real TCS with the same TES, then TCS-less again (state unchanged,
            # then changed): the injected TCS must neither replace nor outlive the real one.
            add("no-tcs-tcs-no-tcs", [no_tcs, with_tcs], [SeqStep(0, 3, a), SeqStep(1), SeqStep(0)])
            add("no-tcs-tcs-no-tcs/changed", [no_tcs, with_tcs],
                [SeqStep(0, 3, a), SeqStep(1, 5), SeqStep(0, 2, c), SeqStep(1, 1), SeqStep(0, None, a)])
            add("tcs-no-tcs-tcs", [with_tcs, no_tcs], [SeqStep(0, 4), SeqStep(1, None, a), SeqStep(0, 7)])
            # TCS-less, then no tessellation at all (and back).
            add("no-tcs-plain", [no_tcs, plain], [SeqStep(0, 3, a), SeqStep(1)])
            add("no-tcs-plain-no-tcs", [no_tcs, plain], [SeqStep(0, 3, a), SeqStep(1), SeqStep(0, 4, b)])
            add("plain-no-tcs", [plain, no_tcs], [SeqStep(0), SeqStep(1, 4, c)])
            add("tcs-plain-no-tcs", [with_tcs, plain, no_tcs], [SeqStep(0, 3), SeqStep(1), SeqStep(2, None, a)])
            # One TES in three TCS-less programs; draw each, delete one, draw the others again.
            shared = [("no-tcs", SEQ_OFFSETS[0]), ("no-tcs", SEQ_OFFSETS[1]), ("no-tcs", SEQ_OFFSETS[2])]
            draw_all = [SeqStep(0, 3, a), SeqStep(1, None, b), SeqStep(2, 5, c)]
            for gone in range(3):
                rest = [p for p in range(3) if p != gone]
                add(f"shared-tes-x3/delete{gone}", shared,
                    draw_all + [SeqStep(rest[0], 4, a, delete=(gone,)), SeqStep(rest[1], None, b),
                                SeqStep(rest[0], 2, None)])
            add("shared-tes-x3/delete01", shared,
                draw_all + [SeqStep(2, 4, b, delete=(0, 1)), SeqStep(2, 3, a)])
            # The same, with a TCS program among them.
            add("shared-tes-x3+tcs/delete0", shared + [with_tcs],
                draw_all + [SeqStep(3, 3), SeqStep(1, 4, a, delete=(0,)), SeqStep(3), SeqStep(2)])
    return cases


def generate() -> list[Case]:
    cases = default_level_cases()
    cases += (coords_cases() + type_cases() + control_cases() + patch_cases() + facing_cases()
              + many_cases() + large_patch_cases() + sweep_cases() + seq_cases())
    # Level sets that differ only in levels a domain does not read give the same case: keep one.
    unique = {}
    for case in cases:
        unique.setdefault(case.id, case)
    return list(unique.values())
