"""Tessellation levels a TCS writes at dynamic indices: `gl_TessLevelOuter[gl_InvocationID]`
style (one invocation per level) and a loop in one invocation, each index turned by the patch's
gl_PrimitiveID so that every patch gets its own permutation of the levels. The TES and the
expectation are the coords sub-family's (levels as the TES reads them, the exact gl_TessCoord
set, winding, counts), per patch.
Ids: tess/tcs/<domain>/equal/levels-dyn/<invocation|loop>.

Why it is valid GLSL: gl_TessLevelOuter and gl_TessLevelInner are "built-in per-patch output
arrays" (GL 4.6, 11.2.1.2.2) of declared size 4 and 2, and an array "must be declared
(explicitly sized) before it is indexed with anything other than a constant integral
expression" (GLSL 4.60, 4.1.9): a sized array takes any integer index. "Per-patch attributes are
taken from the per-patch output variables, which may be written by any tessellation control
shader invocation" (GL 4.6, 11.2.1); here each level is written by exactly one invocation and
none is read back, so the ordering hazards of 11.2.1.2.4 do not arise."""
from __future__ import annotations

from harness.model.case import Case, Draw, DrawEntry, DrawState, Expectation, Readback, Requirements
from harness.oracle.tessellator import Domain, used_levels

from .common import DOMAINS, FAMILY, Levels, glsl_float, shader, xfb_primitive
from .coords import COORD_CAPTURES, coords_tese, coords_vs, tess_expectation

# Distinct levels, so a level written at the wrong index changes the tessellation.
OUTER, INNER = (2.0, 3.0, 4.0, 5.0), (6.0, 7.0)
HOWS = ("invocation", "loop")
SIZE = 4                   # input and output patch size: the TCS copies its patch, as coords.tesc does
PATCHES, FIRST = 4, 0      # four patches: every turn of the outer levels; from vertex 0, where the TCS
                           # gl_PrimitiveID of 25.0.7 (tcs-primitive-id-first) is right


def turned(patch: int) -> Levels:
    """The levels patch `patch` is tessellated with: OUTER[i] lands at (i + patch) % 4, INNER[i]
    at (i + patch) % 2."""
    outer, inner = [0.0] * 4, [0.0] * 2
    for i, v in enumerate(OUTER):
        outer[(i + patch) % 4] = v
    for i, v in enumerate(INNER):
        inner[(i + patch) % 2] = v
    return (outer[0], outer[1], outer[2], outer[3]), (inner[0], inner[1])


def merged(parts: list[Expectation]) -> Expectation:
    """One draw's expectation from its patches' own (each patch has its own levels)."""
    counts = tuple((name, sum(dict(p.counts)[name] for p in parts)) for name, _ in parts[0].counts)
    return Expectation(0, counts=counts, groups=tuple(g for p in parts for g in p.groups),
                       value_sets=tuple(s for p in parts for s in p.value_sets), tess_coord=parts[0].tess_coord)


def levels_case(domain: Domain, how: str) -> Case:
    id_ = f"tess/tcs/{domain}/equal/levels-dyn/{how}"
    winding = "" if domain == "isolines" else "ccw"
    tcs = shader("levels_dyn.tesc", how=how, out_vertices=SIZE,
                 outer=[glsl_float(v) for v in OUTER], inner=[glsl_float(v) for v in INNER])
    count = PATCHES * SIZE
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=FIRST),), state=DrawState(patch_vertices=SIZE),
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {FIRST}, {count}))")
    expect = merged([tess_expectation(0, domain, "equal_spacing", False, winding, turned(p),
                                      [(p, FIRST + p * SIZE, SIZE)], True) for p in range(PATCHES)])
    n_outer, n_inner = used_levels(domain)
    levels = "; ".join(f"patch {p}: outer {turned(p)[0][:n_outer]}" + (f", inner {turned(p)[1][:n_inner]}"
                                                                      if n_inner else "") for p in range(PATCHES))
    return Case(
        id=id_, family=FAMILY,
        shaders=(("vs", coords_vs()), ("tcs", tcs), ("tes", coords_tese(domain, "equal_spacing", winding, False))),
        requires=Requirements(gl_version=(4, 0)),
        vertices=FIRST + count, attributes=(), steps=(draw,),
        readback=Readback(COORD_CAPTURES, xfb_primitive(domain, False), max_records=expect.counts[2][1] + 64),
        expect=(expect,),
        description=f"a TCS writing the levels at dynamic indices ({how}), {domain}, equal_spacing: {levels}",
        params=(("domain", domain), ("how", how)),
    )


def dynamic_level_cases() -> list[Case]:
    return [levels_case(domain, how) for domain in DOMAINS for how in HOWS]
