"""Per-patch TCS outputs of every type, and large per-vertex and per-patch output arrays.
Ids: tess/tcs/<domain>/equal/{patch-out/<type>/<writer>-of-<M>, large-out/...}."""
from __future__ import annotations

import math
from fractions import Fraction

from harness.case import Capture, Case, Draw, DrawEntry, DrawExpectation, DrawState, Readback, RecordGroup, Requirements

from .common import DOMAINS, FAMILY, XFB_PRIMITIVE, glsl_float, per_patch, shader, vertices_per_primitive
from .control import CONTROL_LEVELS
from .coords import coords_vs
from .values import DOUBLE_FRACTION, STRUCT_S, Carried, component_glsl, component_value, scalars_of, user

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
    tcs = shader("patch.tesc", version=version, out_vertices=out_vertices, large=False,
                 declarations=tcs_decl, body=body, outer=[glsl_float(x) for x in outer],
                 inner=[glsl_float(x) for x in inner_levels])
    tes = shader("patch.tese", version=version, domain=domain, large=False, declarations=tes_decl,
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
    tcs = shader("patch.tesc", version=version, out_vertices=m, large=True, declarations=tcs_decl,
                 body=body, outer=[glsl_float(x) for x in outer], inner=[glsl_float(x) for x in inner])
    tes = shader("patch.tese", version=version, domain=domain, large=True, declarations=tes_decl,
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
                cases.append(_patch_type_case(domain, user("x", t), t, writer, 4))
        for token, carried in (("float4-dyn", user("a", "float", 4, dynamic=True)),
                               ("vec4x8-dyn", user("a", "vec4", 8, dynamic=True)),
                               ("mat2x3-const", user("a", "mat2", 3)),
                               ("struct", user("s", "S"))):
            cases.append(_patch_type_case(domain, carried, token, "last", 3))
        for m, k, p in LARGE_OUT:
            cases.append(_large_case(domain, m, k, p))
    return cases
