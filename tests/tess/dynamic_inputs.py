"""A TES reading a TCS's per-vertex input array with both indices dynamic (`t_in[i].m[k]`, i and
k computed from gl_PrimitiveID) and a per-patch input array at a dynamic index, in one shader:
float, vec2, vec3 and vec4 elements, a few of each in every domain, and (quads) as many as GL's
minimum limits allow (31 per vertex beside gl_Position, 30 per patch), as piglit's
tes-both-input-array-*-index-rd files read them.
Ids: tess/tcs/<domain>/equal/inputs-dyn/<type>x<per-vertex>-patch<per-patch>.

"Arrayed inputs can be indexed with general (nonuniform) integer expressions" (GLSL 4.60, 8.13.2,
of the interpolation functions' operand) and a sized array may be "indexed with anything other
than a constant integral expression" (4.1.9); the TES input array t_in[] takes gl_PatchVerticesIn
vertices (GL 4.6, 11.2.3.3: "gl_PatchVerticesIn ... the number of vertices in the input patch")."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence
from math import gcd

from harness.model.case import Capture, Case
from harness.oracle.tessellator import Domain

from .common import DOMAINS, Values, glsl_float, shader
from .control import CONTROL_LEVELS
from .patch_outputs import _patch_case
from .values import formula, scalar

TYPES = {"float": 1, "vec2": 2, "vec3": 3, "vec4": 4}
# (per-vertex elements, per-patch elements): a few; and GL's minimum limits filled (31 vec4
# locations + gl_Position = GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS 128, 30 = 120 / 4 per patch).
SIZES = ((4, 3), (31, 30))
OUT_VERTICES = 4
PATCHES = 3                  # _patch_case draws three patches of three vertices


def step(n: int) -> int:
    """A stride that walks every element of an n-element array once (coprime with n)."""
    return next(s for s in (3, 5, 7, 11) if gcd(s, n) == 1)


@lru_cache(maxsize=None)
def vertex_value(patch: int, vertex: int, k: int, c: int) -> float:
    return scalar(formula("indexed_vertex_value", "patch", "vertex", "k", "c")(patch=patch, vertex=vertex, k=k, c=c))


@lru_cache(maxsize=None)
def patch_value(patch: int, j: int, c: int) -> float:
    return scalar(formula("indexed_patch_value", "patch", "j", "c")(patch=patch, j=j, c=c))


def expected_values(patch: int, width: int, per_vertex: int, per_patch: int, captures: Sequence[Capture]) -> Values:
    """What every TES invocation of patch `patch` captures (inputs_dyn.tese's sums, widened to vec4)."""
    n, turn = OUT_VERTICES, patch

    def vertex(i: int, k: int) -> list[float]:
        return [vertex_value(patch, i, k, c) if c < width else 0.0 for c in range(4)]

    def patch_element(j: int) -> list[float]:
        return [patch_value(patch, j, c) if c < width else 0.0 for c in range(4)]
    pick = vertex((turn + 1) % n, (5 * turn + 2) % per_vertex)
    patch_pick = patch_element((7 * turn + 1) % per_patch)
    total, patch_total = [0.0] * 4, [0.0] * 4
    for k in range(per_vertex):
        x = vertex((k + turn) % n, (step(per_vertex) * k + turn) % per_vertex)
        total = [t + (k + 1) * v for t, v in zip(total, x)]
    for j in range(per_patch):
        x = patch_element((step(per_patch) * j + turn) % per_patch)
        patch_total = [t + (j + 1) * v for t, v in zip(patch_total, x)]
    # Exact in single precision in any order: whole numbers below 2^24, halves below 2^23.
    assert max(total) < 2 ** 24 and max(patch_total) < 2 ** 23, (total, patch_total)
    return tuple((c.quantity, tuple(v)) for c, v in zip(captures, (pick, patch_pick, total, patch_total)))


def inputs_case(domain: Domain, type_: str, per_vertex: int, per_patch: int) -> Case:
    width = TYPES[type_]
    id_ = f"tess/tcs/{domain}/equal/inputs-dyn/{type_}x{per_vertex}-patch{per_patch}"
    n = "gl_PatchVerticesIn"
    captures = (
        Capture("x_pick", "vec4", f"t_in[(gl_PrimitiveID + 1) % {n}].m[(5 * gl_PrimitiveID + 2) % {per_vertex}]"),
        Capture("x_patch_pick", "vec4", f"p_m[(7 * gl_PrimitiveID + 1) % {per_patch}]"),
        Capture("x_sum", "vec4", f"sum of (k + 1) * t_in[(k + gl_PrimitiveID) % {n}]"
                                 f".m[({step(per_vertex)} * k + gl_PrimitiveID) % {per_vertex}]"),
        Capture("x_patch_sum", "vec4", f"sum of (j + 1) * p_m[({step(per_patch)} * j + gl_PrimitiveID) % {per_patch}]"),
    )
    outer, inner = CONTROL_LEVELS
    sizes = dict(type=type_, width=width, per_vertex=per_vertex, per_patch=per_patch)
    tcs = shader("inputs_dyn.tesc", **sizes, out_vertices=OUT_VERTICES,
                 outer=[glsl_float(x) for x in outer], inner=[glsl_float(x) for x in inner])
    tes = shader("inputs_dyn.tese", **sizes, domain=domain, vertex_step=step(per_vertex), patch_step=step(per_patch))
    # A location per element, as GL counts an array of any of these types at worst. The largest
    # size fills GL 4.0's minimums exactly (128 per-vertex components, 120 per patch; the total,
    # 4 * 128 + 120, stays far under GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS's 4096): a target
    # reporting less skips it. The small size needs no limit.
    per_vertex_components = 4 * per_vertex + 4                    # m[], gl_Position
    limits = (("GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS", ">=", per_vertex_components),
              ("GL_MAX_TESS_PATCH_COMPONENTS", ">=", 4 * per_patch),
              ("GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", ">=", per_vertex_components)) \
        if (per_vertex, per_patch) == SIZES[-1] else ()
    return _patch_case(id_, domain, OUT_VERTICES, tcs, tes, captures,
                       lambda patch: expected_values(patch, width, per_vertex, per_patch, captures), 400,
                       f"a TES reading {type_} m[{per_vertex}] per vertex (both indices dynamic) and "
                       f"{type_} p_m[{per_patch}] per patch (dynamic index)", limits, first=0)


def dynamic_input_cases() -> list[Case]:
    # The largest size in one domain (quads, piglit's): zink compiles each of them for tens of
    # seconds of wall time on a loaded 2-core machine, and what it adds (GL's minimum limits
    # filled) does not depend on the domain.
    return [inputs_case(domain, t, k, p) for domain in DOMAINS for t in TYPES for k, p in SIZES
            if (k, p) != SIZES[-1] or domain == "quads"]
