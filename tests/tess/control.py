"""With a TCS: every input x output patch size, barrier(), gl_InvocationID, gl_PrimitiveID in
TCS/TES/GS through instanced, element, multi and indirect draws; a GS after the TES.
Ids: tess/<tcs|no-tcs>/<domain>/<spacing>/{in<N>-out<M>[/barrier], primitive-id/..., gs/...}."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from harness.model.case import (Capture, Case, Draw, DrawEntry, DrawState, Expectation, Readback, RecordGroup,
                          Requirements, ValueSet)
from harness.oracle.tessellator import Domain, Spacing

from .common import (DOMAINS, FAMILY, LEVELS, SPACINGS, SPEC_MAX_LEVEL, Levels, Values, as_inner, as_outer,
                     glsl_float, needs_max_level, per_patch, shader, spacing_token, vertices_per_primitive,
                     xfb_primitive)
from .values import formula, vector

CONTROL_LEVELS: Levels = ((2.0, 3.0, 2.0, 3.0), (2.0, 3.0))
KEY = "instance * 100000 + first vertex of the patch"


@lru_cache(maxsize=None)            # pure; each vertex's is asked for by many cases
def control_attr(vertex: int, instance: int) -> tuple[float, float, float, float]:
    """v_out.attr of control.vert, from values.glsl's control_attr."""
    x, y, z, w = vector(formula("control_attr", "v", "instance")(v=float(vertex), instance=instance))
    return float(x), float(y), float(z), float(w)


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


def control_values(patch: Patch, size: int, out_vertices: int | None, barrier: bool) -> Values:
    """Expected TES captures of one patch (out_vertices None: no TCS)."""
    v = patch.vertices
    if out_vertices is None:
        return (("gl_PrimitiveID (TES)", patch.index),
                (CONTROL_CAPTURES[2].quantity, (-1, size, v[0], patch.instance)))
    m = out_vertices
    weighted_inputs = sum((i + 1) * x for i, x in enumerate(v))

    def attr(j: int) -> tuple[float, ...]:
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


def control_case(tcs: bool, domain: Domain, spacing: Spacing, size: int, out_vertices: int | None,
                 plan: DrawPlan, *, barrier: bool = False, gs: bool = False, point_mode: bool = False,
                 levels: Levels = CONTROL_LEVELS, path: tuple[str, ...] = ()) -> Case:
    id_ = "/".join(("tess", "tcs" if tcs else "no-tcs", domain, spacing_token(spacing)) + path)
    outer, inner = levels
    shaders = [("vs", shader("control.vert"))]
    if tcs:
        shaders.append(("tcs", shader("control.tesc", out_vertices=out_vertices, barrier=barrier,
                                      outer=[glsl_float(x) for x in outer],
                                      inner=[glsl_float(x) for x in inner])))
    shaders.append(("tes", shader("control.tese", domain=domain, spacing=spacing,
                                  point_mode=point_mode, tcs=tcs, gs=gs)))
    if gs:
        shaders.append(("gs", shader("control.geom",
                                     input="points" if point_mode else GS_INPUT[domain])))
    patches = plan.patches(size)
    each = per_patch(domain, spacing, point_mode, outer, inner)
    generated = each * len(patches)
    multi = len(plan.entries) > 1
    groups: list[RecordGroup] = []
    sets: list[ValueSet] = []
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
    captured: tuple[Capture, ...]
    if gs:
        captured, primitive, per = GS_CAPTURES, "POINTS", 1
    else:
        captured = CONTROL_TCS_CAPTURES if tcs else CONTROL_CAPTURES
        primitive, per = xfb_primitive(domain, point_mode), vertices_per_primitive(domain, point_mode)
    expect = Expectation(0, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", generated),
        ("xfb_vertices", generated * per)), groups=tuple(groups), value_sets=tuple(sets))
    state = DrawState(patch_vertices=size, default_outer=None if tcs else as_outer(outer),
                      default_inner=None if tcs else as_inner(inner))
    draw = Draw(plan.command, "PATCHES", plan.entries, state=state, label=f"draw 0 ({plan.label()})")
    vertices = max((max(p.vertices) for p in patches), default=0) + 1
    limits = [("GL_MAX_PATCH_VERTICES", ">=", max(size, out_vertices or 0))]
    if needs_max_level(levels):
        limits.append(("GL_MAX_TESS_GEN_LEVEL", "==", SPEC_MAX_LEVEL))
    return Case(
        id=id_, family=FAMILY, shaders=tuple(shaders),
        requires=Requirements(gl_version=(4, 2) if "BaseInstance" in plan.command else (4, 0),
                              limits=tuple(limits)),
        vertices=vertices, attributes=(), steps=(draw,),
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

    def arrays(size: int) -> DrawPlan:
        return draw_plans(size)[0]
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
