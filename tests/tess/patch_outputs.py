"""Per-patch TCS outputs of every type, and large per-vertex and per-patch output arrays.
Ids: tess/tcs/<domain>/equal/{patch-out/<type>/<writer>-of-<M>, large-out/...}."""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Sequence

from harness.model.case import Capture, Case, Draw, DrawEntry, DrawState, Expectation, Readback, RecordGroup, Requirements
from harness.oracle.tessellator import Domain

from .common import DOMAINS, FAMILY, XFB_PRIMITIVE, Value, Values, glsl_float, per_patch, shader, vertices_per_primitive
from .control import CONTROL_LEVELS
from .coords import coords_vs
from .values import DOUBLE_FRACTION, STRUCT_S, Carried, component_value, formula, scalar, scalars_of, user

PATCH_TYPES = ("float", "vec2", "vec3", "vec4", "int", "ivec2", "ivec4", "uint", "uvec3", "mat2", "mat3",
               "mat4", "mat2x3", "double", "dvec3", "dmat2")
PATCH_WRITERS = ("first", "last")


def _patch_type_case(domain: Domain, carried: Carried, token: str, writer: str, out_vertices: int) -> Case:
    """One per-patch output, written by the first or the last TCS invocation; its value depends
    on gl_PrimitiveID, so patches tell theirs apart."""
    id_ = f"tess/tcs/{domain}/equal/patch-out/{token}/{writer}-of-{out_vertices}"
    version = 430 if carried.length and carried.dynamic else 400
    elements = carried.elements()
    captures, layout, singles, doubles = [], [], [], []
    single = [(k, a, kind) for k, (a, kind) in enumerate(elements) if kind != "double"]
    for start in range(0, len(single), 4):
        group = single[start:start + 4]
        names = ", ".join(f"{carried.name}{a}" for _, a, _ in group)
        captures.append(Capture(f"x_p{start // 4}", "vec4", f"patch in {names}"))
        layout.append((captures[-1].quantity, [(kind, k) for k, _, kind in group]))
        singles.append((captures[-1].varying, [k for k, _, _ in group] + [None] * (4 - len(group))))
    for k, (a, kind) in enumerate(elements):
        if kind == "double":
            captures.append(Capture(f"x_d{k}", "vec2", f"patch in {carried.name}{a} (whole part, fraction * 2^32)"))
            layout.append((captures[-1].quantity, [("double", k)]))
            doubles.append((captures[-1].varying, k))
    outer, inner_levels = CONTROL_LEVELS
    params = dict(version=version, carried=carried, elements=elements, inner=scalars_of(carried.type),
                  struct=STRUCT_S if carried.type == "S" else ())
    tcs = shader("patch_out.tesc", **params, out_vertices=out_vertices,
                 writer=0 if writer == "first" else out_vertices - 1,
                 outer=[glsl_float(x) for x in outer], inner_levels=[glsl_float(x) for x in inner_levels])
    tes = shader("patch_out.tese", **params, domain=domain, captures=captures, singles=singles, doubles=doubles)

    def expected(patch: int) -> Values:
        values: list[tuple[str, Value]] = []
        for quantity, parts in layout:
            if parts[0][0] == "double":
                exact = Fraction(component_value("double", patch, parts[0][1]))
                whole = math.floor(exact + Fraction(1, 2))
                values.append((quantity, (float(whole), float((exact - whole) / Fraction(DOUBLE_FRACTION)))))
            else:
                values.append((quantity, tuple(float(component_value(kind, patch, k)) for kind, k in parts)))
        return tuple(values)
    decl = f"{carried.type} p_{carried.name}{f'[{carried.length}]' if carried.length else ''}"
    return _patch_case(id_, domain, out_vertices, tcs, tes, captures, expected, version,
                       f"patch out {decl}, written by the {writer} of {out_vertices} TCS invocations")


def _patch_case(id_: str, domain: Domain, out_vertices: int, tcs: str, tes: str, captures: Sequence[Capture],
                expected: Callable[[int], Values], version: int, description: str,
                limits: Sequence[tuple[str, str, int]] = (), first: int = 1) -> Case:
    size, patches = 3, 3
    count = size * patches
    outer, inner = CONTROL_LEVELS
    each = per_patch(domain, "equal_spacing", False, outer, inner)
    generated = each * patches
    groups = tuple(RecordGroup("gl_PrimitiveID", p, f"patch {p}, TES", expected(p)) for p in range(patches))
    expect = Expectation(0, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", generated),
        ("xfb_vertices", generated * vertices_per_primitive(domain, False))), groups=groups)
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=DrawState(patch_vertices=size),
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {first}, {count}))")
    return Case(
        id=id_, family=FAMILY,
        shaders=(("vs", coords_vs()), ("tcs", tcs), ("tes", tes)),
        requires=Requirements(gl_version=(4, 3) if version == 430 else (4, 0),
                              limits=(("GL_MAX_PATCH_VERTICES", ">=", out_vertices),) + tuple(limits)),
        vertices=first + count, attributes=(), steps=(draw,),
        readback=Readback((Capture("x_patch", "int", "gl_PrimitiveID"),) + tuple(captures),
                          XFB_PRIMITIVE[domain], max_records=expect.counts[2][1] + 64),
        expect=(expect,), description=description,
        params=(("domain", domain), ("out_vertices", out_vertices)),
    )


@lru_cache(maxsize=None)            # pure; each value is asked for many times
def _large_value(patch: int, vertex: int, k: int, c: int) -> float:
    return scalar(formula("large_vertex_value", "patch", "vertex", "k", "c")(patch=patch, vertex=vertex, k=k, c=c))


def _large_patch_value(patch: int, j: int, c: int) -> float:
    return scalar(formula("large_patch_value", "patch", "j", "c")(patch=patch, j=j, c=c))


def _large_case(domain: Domain, out_vertices: int, per_vertex: int, per_patch_: int) -> Case:
    """Each invocation writes its vertex's `per_vertex` vec4s (dynamic index) before barrier(),
    then reads its neighbour's and writes their weighted sum; invocations share the writes of a
    per-patch vec4 array. The TES reduces all of it along every index."""
    m, k_, p_ = out_vertices, per_vertex, per_patch_
    id_ = f"tess/tcs/{domain}/equal/large-out/out{m}-{k_}xvec4-patch{p_}xvec4"
    captures = (Capture("x_a", "vec4", "sum of t_in[].a[] (all, vertex-weighted, index-weighted, component-weighted)"),
                Capture("x_b", "vec4", "sum of t_in[].b (neighbour's a[] read after barrier())"),
                Capture("x_bw", "vec4", "vertex-weighted sum of t_in[].b"),
                Capture("x_pa", "vec4", "sum of patch in p_a[] (all, index-weighted, component-weighted)"))
    outer, inner = CONTROL_LEVELS
    sizes = dict(out_vertices=m, per_vertex=k_, per_patch=p_)
    tcs = shader("large_out.tesc", **sizes, outer=[glsl_float(x) for x in outer], inner=[glsl_float(x) for x in inner])
    tes = shader("large_out.tese", **sizes, domain=domain)

    def expected(patch: int) -> Values:
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
    return _patch_case(id_, domain, m, tcs, tes, captures, expected, 400,
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
                cases.append(_patch_type_case(domain, user("x", t), t, writer, 4))
        for token, carried in (("float4-dyn", user("a", "float", 4, dynamic=True)),
                               ("vec4x8-dyn", user("a", "vec4", 8, dynamic=True)),
                               ("mat2x3-const", user("a", "mat2", 3)),
                               ("struct", user("s", "S"))):
            cases.append(_patch_type_case(domain, carried, token, "last", 3))
        for m, k, p in LARGE_OUT:
            cases.append(_large_case(domain, m, k, p))
    return cases
