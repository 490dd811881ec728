"""Large patches without a TCS: up to 32 vertices with up to 28 vec4 VS outputs each.
Ids: tess/no-tcs/<domain>/equal/large-in/pvN-<count>xvec4."""
from __future__ import annotations

import numpy as np

from harness.model.case import Capture, Case, Draw, DrawEntry, DrawState, Expectation, Readback, RecordGroup, Requirements
from harness.oracle.tessellator import Domain

from .common import DOMAINS, FAMILY, XFB_PRIMITIVE, Value, per_patch, shader, vertices_per_primitive
from .values import formula, vector
from .vertex_types import TYPE_BASE_CAPTURES, TYPE_LEVELS


def _large_input(vertex: int, k: int) -> np.ndarray:
    """Output k of large.vert for a vertex (its four components), from values.glsl's large_input."""
    return vector(formula("large_input", "vertex", "k", "c")(vertex=vertex, k=k, c=np.arange(4)))


def large_patch_case(domain: Domain, size: int, count: int) -> Case:
    id_ = f"tess/no-tcs/{domain}/equal/large-in/pv{size}-{count}xvec4"
    vs = shader("large.vert", count=count)
    tes = shader("large.tese", domain=domain, count=count)
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
        values: list[tuple[str, Value]] = [("gl_PatchVerticesIn", size)]
        for n in range((count + 1) // 2):
            row: list[float] = []
            for k in (2 * n, 2 * n + 1):
                if k >= count:
                    row += [0.0, 0.0]
                    continue
                outputs = [_large_input(v, k) for v in vertices]
                row.append(float(sum(int(np.dot(np.arange(1, 5), u)) for u in outputs)))
                row.append(float(sum((i + 1) * int(u.sum()) for i, u in enumerate(outputs))))
            values.append((captures[2 + n].quantity, tuple(row)))
        groups.append(RecordGroup("gl_PrimitiveID", patch, f"patch {patch}, TES", tuple(values)))
    each = per_patch(domain, "equal_spacing", False, outer, inner)
    generated = 2 * each
    expect = Expectation(0, counts=(
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
        vertices=total, attributes=(), steps=(draw,),
        readback=Readback(tuple(captures), XFB_PRIMITIVE[domain], max_records=expect.counts[2][1] + 64),
        expect=(expect,),
        description=f"patches of {size} vertices with {count} vec4 VS outputs each, no TCS, {domain}",
        params=(("domain", domain), ("patch_vertices", size), ("outputs", count)),
    )


def large_patch_cases() -> list[Case]:
    return [large_patch_case(domain, size, count) for domain in DOMAINS
            for size, count in ((32, 8), (32, 15), (32, 28), (17, 28))]
