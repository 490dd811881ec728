"""Where the vertices are: the exact gl_TessCoord set (equal spacing; each vertex once in point
mode), the levels as the TES reads them, and winding, for every domain, spacing and level edge
case, from the default levels and from a TCS. The coords shaders and the expectation built
here serve the other sub-families that watch gl_TessCoord."""
from __future__ import annotations

import math

from harness.model.case import (Capture, Case, Draw, DrawEntry, DrawState, Expectation, Readback, RecordGroup,
                          Requirements, TessCoordCheck, ValueSet)
from harness.oracle.tessellator import Domain, Spacing, tess_coords, used_levels

from .common import (DOMAINS, FAMILY, PATCHES_PER_DRAW, SPACINGS, SPEC_MAX_LEVEL, WINDINGS, Levels, as_inner, as_outer,
                     glsl_float, level_token, needs_max_level, per_patch, shader, spacing_token,
                     vertices_per_primitive, xfb_primitive)

NAN, INF = math.nan, math.inf
# Drivers tessellate in fixed point: Mesa's tessellator (the D3D11 reference design) steps by
# 1/n rounded to 16 fraction bits, so after up to 64 steps a vertex is off by up to 64 * 2^-16
# (1e-3). Distinct vertices lie at least 1/64 * 2/3 apart, so 2e-3 still tells them apart.
COORD_TOLERANCE = 2e-3

# Level sets for the coordinate cases: (outer[4], inner[2]). Each domain reads its own share,
# and sets that differ only in unread levels give one case.
LEVEL_GRID: tuple[Levels, ...] = (
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

COORD_CAPTURES = (
    Capture("x_patch", "int", "gl_PrimitiveID"),
    Capture("x_coord", "vec3", "gl_TessCoord"),
    Capture("x_outer", "vec4", "gl_TessLevelOuter"),
    Capture("x_inner", "vec2", "gl_TessLevelInner"),
    Capture("x_vertices", "ivec3", "(gl_PatchVerticesIn, sum of v_in[].vertex, v_in[0].vertex)"),
)


def coords_tese(domain: Domain, spacing: Spacing, winding: str, point_mode: bool) -> str:
    return shader("coords.tese", domain=domain, spacing=spacing, winding=winding,
                  point_mode=point_mode)


def coords_vs(offset: int = 0) -> str:
    return shader("coords.vert", offset=offset)


def coords_tcs(out_vertices: int, levels: Levels, all_invocations: bool = False) -> str:
    outer, inner = levels
    return shader("coords.tesc", out_vertices=out_vertices, all_invocations=all_invocations,
                  outer=[glsl_float(v) for v in outer], inner=[glsl_float(v) for v in inner])


def tess_expectation(index: int, domain: Domain, spacing: Spacing, point_mode: bool, winding: str,
                     levels: Levels, patches: list[tuple[int, int, int]], tcs: bool,
                     patch_label: str = "patch") -> Expectation:
    """What a coords-TES draw must give: counts from the oracle; per patch (gl_PrimitiveID,
    first vertex, patch size the TES sees) the levels as written and, with equal spacing, the
    exact set of gl_TessCoord; the per-record rules of gl_TessCoord."""
    outer, inner = levels
    n_outer, n_inner = used_levels(domain)
    each = per_patch(domain, spacing, point_mode, outer, inner)
    generated = each * len(patches)
    groups: list[RecordGroup] = []
    sets: list[ValueSet] = []
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
    return Expectation(
        index,
        counts=(("primitives_generated", generated), ("xfb_primitives_written", generated),
                ("xfb_vertices", generated * vertices_per_primitive(domain, point_mode))),
        groups=tuple(groups), value_sets=tuple(sets),
        tess_coord=TessCoordCheck("gl_TessCoord", domain,
                                  winding=winding if not point_mode and domain != "isolines" else "",
                                  key="gl_PrimitiveID"))


def coords_case(tcs: bool, domain: Domain, spacing: Spacing, point_mode: bool, winding: str, levels: Levels) -> Case:
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
                      default_outer=None if tcs else as_outer(outer),
                      default_inner=None if tcs else as_inner(inner))
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
        vertices=first + count, attributes=(), steps=(draw,),
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

