"""Very many patches in one draw: all counted, the first patches' records checked.
Ids: tess/<tcs|no-tcs>/<domain>/equal/patches100000/pvN."""
from __future__ import annotations

import dataclasses

from harness.model.case import Case, Draw, DrawEntry, DrawState, Readback, Requirements
from harness.oracle.tessellator import Domain

from .common import DOMAINS, FAMILY, XFB_PRIMITIVE, per_patch, vertices_per_primitive
from .coords import COORD_CAPTURES, coords_tcs, coords_tese, coords_vs, tess_expectation

MANY_PATCHES = 100_000
MANY_LEVELS = ((1.0, 1.0, 1.0, 1.0), (1.0, 1.0))
MANY_CAPTURED = 64                   # primitives the transform-feedback buffer holds


def many_case(tcs: bool, domain: Domain, size: int) -> Case:
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
        vertices=count, attributes=(), steps=(draw,),
        readback=Readback(COORD_CAPTURES, XFB_PRIMITIVE[domain], max_records=captured * per),
        expect=(expect,),
        description=f"{MANY_PATCHES} patches of {size} in one draw, {domain}, "
                    f"{'levels from a TCS' if tcs else 'default levels'}: all counted, the first "
                    f"{captured // each} captured",
        params=(("domain", domain), ("tcs", tcs), ("patch_vertices", size)),
    )


def many_cases() -> list[Case]:
    return [many_case(tcs, domain, size) for tcs in (False, True) for domain in DOMAINS for size in (1, 4)]
