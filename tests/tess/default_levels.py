"""TCS-less programs tessellated with the default levels (glPatchParameterfv): every domain,
spacing and level set, patch sizes 1..32, point mode, and the same program drawn again with
other state; and the VS and the TES as separable programs of one pipeline (zink precompiles a
32-vertex TCS for a separable TES where it uses shader objects, zink_compiler.c:4169-4180 in
25.0.7, and pipeline libraries of patchControlPoints 32 elsewhere: the TES must still see the
patch size GL set). Ids: tess/no-tcs/<domain>/<spacing>[/points][/separable]/<pvN/levels>[/then/...]."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from harness.model.case import (Attribute, Capture, Case, Draw, DrawEntry, DrawState, Expectation, Readback,
                          RecordGroup, Requirements)
from harness.oracle.tessellator import Domain, Spacing, primitives_generated, used_levels

from .common import (DOMAINS, FAMILY, INITIAL, INITIAL_PATCH_VERTICES, LEVELS, PATCHES_PER_DRAW, SHORT_SPACING,
                     SPACINGS, SPEC_MAX_LEVEL, XFB_PRIMITIVE, Levels, as_inner, as_outer, level_token, shader)

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


@dataclass(frozen=True)
class Step:
    """One draw: the patch size and default levels it sets (None: leaves them as they are)."""
    patch_vertices: int | None
    levels: Levels | None


def attribute(vertex: int) -> tuple[float, float, float, float]:
    """a_attr of a vertex: distinct per vertex, exact in float32, so sums compare exactly."""
    return (vertex + 0.5, 2 * vertex + 0.25, 1000.0 - vertex, vertex * 0.125)


def step_token(domain: Domain, step: Step) -> str:
    if step.patch_vertices is None and step.levels is None:
        return "initial"
    parts = []
    if step.patch_vertices is not None:
        parts.append(f"pv{step.patch_vertices}")
    if step.levels is not None:
        parts.append(level_token(domain, step.levels))
    return "/".join(parts)


def make_case(domain: Domain, spacing: Spacing, point_mode: bool, steps: tuple[Step, ...], separable: bool = False,
              located: bool = False) -> Case:
    """`separable`: the VS and the TES as separable programs; `located`: their VertexData block at an
    explicit location (GLSL 4.40), which Mesa's linker lays out alike on both sides
    (triage/mesa-22.3.6/separable-vs-tes-array-packing: without it the TES misreads `pair[1]` and
    `vertex_id`), so those cases check everything else of the separable path."""
    path = (["tess", "no-tcs", domain, SHORT_SPACING[spacing]] + (["points"] if point_mode else [])
            + (["separable-located" if located else "separable"] if separable else []))
    id_ = "/".join(path) + "/" + "/then/".join(step_token(domain, s) for s in steps)
    n_outer, n_inner = used_levels(domain)
    shaders = (("vs", shader("no_tcs.vert", separable=separable, located=located)),
               ("tes", shader("no_tcs.tese", domain=domain, spacing=spacing, point_mode=point_mode,
                              separable=separable, located=located)))

    draws, expects = [], []
    patch_vertices, levels, first = INITIAL_PATCH_VERTICES, INITIAL, 0
    for index, step in enumerate(steps):
        patch_vertices = step.patch_vertices or patch_vertices
        levels = step.levels or levels
        outer, inner = levels
        count = PATCHES_PER_DRAW * patch_vertices
        state = DrawState(patch_vertices=step.patch_vertices,
                          default_outer=as_outer(outer) if step.levels else None,
                          default_inner=as_inner(inner) if step.levels else None)
        label = f"draw {index} (glDrawArrays(GL_PATCHES, {first}, {count}))"
        draws.append(Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state, label=label))
        per_patch = primitives_generated(domain, spacing, point_mode, outer, inner, SPEC_MAX_LEVEL)
        generated = per_patch * PATCHES_PER_DRAW
        vertices_per_prim = 1 if point_mode else (2 if domain == "isolines" else 3)
        groups = tuple(
            _patch_group(patch, first + patch * patch_vertices, patch_vertices,
                         outer[:n_outer], inner[:n_inner])
            for patch in range(PATCHES_PER_DRAW) if per_patch)
        expects.append(Expectation(index, counts=(
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
        requires=Requirements(gl_version=(4, 4) if located else (4, 1) if separable else (4, 0), profile="core",
                              limits=tuple(limits)),
        vertices=first,
        attributes=(Attribute(0, 4, tuple(c for v in range(first) for c in attribute(v))),),
        steps=tuple(draws),
        readback=Readback(CAPTURES, XFB_PRIMITIVE[domain] if not point_mode else "POINTS",
                          max_records=2 * most + 64),
        expect=tuple(expects),
        description=f"VS+TES without a TCS{', separable programs' if separable else ''}, {domain}, {spacing}"
                    f"{', point_mode' if point_mode else ''}, {len(steps)} draw(s)",
        params=(("domain", domain), ("spacing", spacing), ("point_mode", point_mode))
        + ((("separable", True),) if separable else ()) + ((("located", True),) if located else ()),
        separable=separable,
    )


def _patch_group(patch: int, first_vertex: int, size: int, outer: Sequence[float],
                 inner: Sequence[float]) -> RecordGroup:
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

    def one(pv: int, name: str) -> tuple[Step, ...]:
        return (Step(pv, LEVELS[name]),)
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
    # Separable programs: the patch size the TES sees is GL's, not a layer's precompiled TCS's.
    for domain in DOMAINS:
        for steps in ((Step(4, LEVELS["integer"]),), (Step(3, LEVELS["fractional"]),), (Step(32, LEVELS["integer"]),),
                      (Step(1, LEVELS["integer"]),), (Step(None, None),),
                      (Step(4, LEVELS["integer"]), Step(16, LEVELS["fractional"]))):
            cases.append(make_case(domain, "equal_spacing", False, steps, separable=True))
        cases.append(make_case(domain, "fractional_odd_spacing", True, (Step(3, LEVELS["fractional"]),),
                               separable=True))
        for steps in ((Step(4, LEVELS["integer"]),), (Step(32, LEVELS["integer"]),), (Step(None, None),),
                      (Step(4, LEVELS["integer"]), Step(16, LEVELS["fractional"]))):
            cases.append(make_case(domain, "equal_spacing", False, steps, separable=True, located=True))
    # Level sets that differ only in levels a domain does not read give the same case: keep one.
    unique: dict[str, Case] = {}
    for case in cases:
        unique.setdefault(case.id, case)
    return list(unique.values())
