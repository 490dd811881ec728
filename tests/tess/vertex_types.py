"""Per-vertex outputs of every type, TCS-less: the layer's injected TCS must copy every VS output.

Each case carries one or a few outputs from the VS to the TES: every scalar component k of
vertex v holds a value unique to (v, k) (values.component_value), the TES sums each component
over the patch (and weights it by the vertex index), and the expected sums follow from the same
formula. Ids: tess/no-tcs/<domain>/equal/types/<form>/<type set>/pvN."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from harness.model.case import (Capture, Case, Draw, DrawEntry, DrawState, Expectation, Readback, RecordGroup,
                          Requirements)
from harness.oracle.tessellator import Domain

from .common import DOMAINS, FAMILY, PATCHES_PER_DRAW, XFB_PRIMITIVE, Value, Values, per_patch, shader, vertices_per_primitive
from .values import DOUBLE_FRACTION, STRUCT_S, Carried, component_value, scalars_of, user


@dataclass(frozen=True)
class TypeSet:
    token: str                     # id token
    carried: tuple[Carried, ...]
    compat: bool = False
    forms: tuple[str, ...] = ("var", "block")


def builtin(name: str, type_: str, length: int = 0, kind: str = "") -> Carried:
    return Carried(name, type_, length, builtin=True, kind=kind)


TYPE_SETS = tuple(
    [TypeSet(t, (user("x", t),)) for t in (
        "float", "vec2", "vec3", "vec4", "int", "ivec2", "ivec3", "ivec4", "uint", "uvec2", "uvec3",
        "uvec4", "mat2", "mat3", "mat4", "mat2x3", "mat2x4", "mat3x2", "mat3x4", "mat4x2", "mat4x3",
        "double", "dvec2", "dvec3", "dvec4", "dmat2", "dmat3", "dmat4", "dmat2x3", "dmat4x2")]
    + [TypeSet("float4-const", (user("a", "float", 4),)),
       TypeSet("float4-dyn", (user("a", "float", 4, dynamic=True),)),
       TypeSet("vec4x3-dyn", (user("a", "vec4", 3, dynamic=True),)),
       TypeSet("ivec2x5-dyn", (user("a", "ivec2", 5, dynamic=True),)),
       TypeSet("mat2x2-const", (user("a", "mat2", 2),)),
       TypeSet("dvec2x3-dyn", (user("a", "dvec2", 3, dynamic=True),)),
       TypeSet("struct", (user("s", "S"),)),
       TypeSet("struct2", (user("s", "S", 2),)),
       TypeSet("mix", (user("f", "float"), user("iv", "ivec3"), user("m", "mat2"), user("a", "vec3", 2, True),
                       user("u", "uint"), user("d", "double"))),
       TypeSet("pointsize", (builtin("gl_PointSize", "float"),), forms=("gl_in",)),
       TypeSet("clipdistance2", (builtin("gl_ClipDistance", "float", 2),), forms=("gl_in",)),
       TypeSet("clipdistance8", (builtin("gl_ClipDistance", "float", 8),), forms=("gl_in",)),
       TypeSet("pointsize+clipdistance4+vec4", (builtin("gl_PointSize", "float"), builtin("gl_ClipDistance", "float", 4),
                                                user("x", "vec4")), forms=("block",)),
       TypeSet("frontcolor", (builtin("gl_FrontColor", "vec4", kind="colour"),), compat=True, forms=("gl_in",)),
       TypeSet("backcolor", (builtin("gl_BackColor", "vec4", kind="colour"),), compat=True, forms=("gl_in",)),
       TypeSet("frontsecondarycolor", (builtin("gl_FrontSecondaryColor", "vec4", kind="colour"),), compat=True,
               forms=("gl_in",)),
       TypeSet("texcoord1", (builtin("gl_TexCoord", "vec4", 1),), compat=True, forms=("gl_in",)),
       TypeSet("texcoord4", (builtin("gl_TexCoord", "vec4", 4),), compat=True, forms=("gl_in",)),
       TypeSet("texcoord7", (builtin("gl_TexCoord", "vec4", 7),), compat=True, forms=("gl_in",)),
       TypeSet("fogfragcoord", (builtin("gl_FogFragCoord", "float"),), compat=True, forms=("gl_in",)),
       TypeSet("frontcolor+texcoord2+fogfragcoord+vec4",
               (builtin("gl_FrontColor", "vec4", kind="colour"), builtin("gl_TexCoord", "vec4", 2),
                builtin("gl_FogFragCoord", "float"), user("x", "vec4")), compat=True, forms=("block",))])


@dataclass(frozen=True)
class Scalar:
    """One scalar component of a carried output, as types.vert writes it and types.tese sums it."""
    accessor: str                  # after the output's name (and [j] in a dynamic loop)
    kind: str                      # values.glsl's kind
    k: int                         # values.glsl's k; in a dynamic loop, the offset within an element
    slot: int                      # its index in the TES's s[]/w[] (ds[] for doubles); in a loop, the offset


@dataclass(frozen=True)
class Output:
    """A carried output and where its scalars go: what the templates need beside the Carried."""
    carried: Carried
    k: int                         # values.glsl's k of its first scalar
    first_single: int              # its first index in s[]/w[], and in ds[]
    first_double: int
    scalars: tuple[Scalar, ...]    # of the whole output; of one element if it is written in a loop


class Part(NamedTuple):
    """One scalar a captured sum adds up: values.glsl's kind and k, and the sum ("s": plain, "w":
    vertex-weighted, "d": a double's)."""
    kind: str
    k: int
    array: str


Result = tuple[str, list[Part]]             # a capture's quantity, and the scalars in its components


class TypeShaders(NamedTuple):
    vs: str
    tes: str
    captures: tuple[Capture, ...]
    results: list[Result]                     # the expected results' layout
    version: tuple[int, int]                  # the GL version they need


def _type_shaders(ts: TypeSet, form: str, domain: Domain, separable: bool = False) -> TypeShaders:
    """VS and TES sources (types.vert, types.tese), their captures, the expected results' layout
    and the GL version they need (`separable`: two separable programs, GLSL 4.10 at least,
    gl_PerVertex redeclared)."""
    outputs, layout = [], []
    singles = doubles = k = 0
    for c in ts.carried:
        elements = c.elements()
        first_single, first_double, slots = singles, doubles, []
        for e, (a, kind) in enumerate(elements):
            if kind == "double":
                slots.append(doubles)
                doubles += 1
            else:
                slots.append(singles)
                singles += 1
            layout.append((kind, k + e, slots[-1], f"{c.name}{a}"))
        if c.dynamic:
            scalars = tuple(Scalar(a, kind, o, o) for o, (a, kind) in enumerate(scalars_of(c.type)))
        else:
            scalars = tuple(Scalar(a, kind, k + e, slot) for e, ((a, kind), slot) in enumerate(zip(elements, slots)))
        outputs.append(Output(c, k, first_single, first_double, scalars))
        k += len(elements)

    captures, groups, results = [], [], []
    single = [item for item in layout if item[0] != "double"]
    for start in range(0, len(single), 4):
        group = single[start:start + 4]
        names = ", ".join(g[3] for g in group)
        for prefix, array, what in (("x_s", "s", "sum over the patch of"),
                                     ("x_w", "w", "vertex-weighted sum over the patch of")):
            captures.append(Capture(f"{prefix}{start // 4}", "vec4", f"{what} {names}"))
            results.append((captures[-1].quantity, [Part(g[0], g[1], array) for g in group]))
        groups.append((captures[-2].varying, captures[-1].varying, [g[2] for g in group] + [None] * (4 - len(group))))
    sums = []
    for kind, kk, index, what in layout:
        if kind == "double":
            captures.append(Capture(f"x_d{index}", "vec2", f"sum over the patch of {what} (whole part, fraction * 2^32)"))
            results.append((captures[-1].quantity, [Part("double", kk, "d")]))
            sums.append((captures[-1].varying, index))
    users = [c for c in ts.carried if not c.builtin]
    arrays_of_arrays = form == "var" and any(c.length for c in users)
    params = dict(version=430 if arrays_of_arrays else 410 if separable else 400, compat=ts.compat, form=form,
                  outputs=outputs, struct=STRUCT_S if any(c.type == "S" for c in users) else (), separable=separable)
    vs = shader("types.vert", **params)
    tes = shader("types.tese", **params, domain=domain, captures=captures, singles=singles, doubles=doubles,
                 groups=groups, sums=sums)
    return TypeShaders(vs, tes, tuple(captures), results,
                       (4, 3) if arrays_of_arrays else (4, 1) if separable else (4, 0))


TYPE_BASE_CAPTURES = (Capture("x_patch", "int", "gl_PrimitiveID"),
                      Capture("x_patch_vertices", "int", "gl_PatchVerticesIn"))


def expected_results(results: list[Result], vertices: list[int]) -> Values:
    values: list[tuple[str, Value]] = []
    for quantity, parts in results:
        if parts[0][0] == "double":
            _, k, _ = parts[0]
            total = sum(Fraction(component_value("double", v, k)) for v in vertices)
            whole = math.floor(total + Fraction(1, 2))
            values.append((quantity, (float(whole), float((total - whole) / Fraction(DOUBLE_FRACTION)))))
            continue
        row: list[float] = []
        for kind, k, array in parts:
            items = [component_value(kind, v, k) for v in vertices]
            row.append(sum(items) if array == "s" else sum((i + 1) * x for i, x in enumerate(items)))
        values.append((quantity, tuple(float(x) for x in row)))
    return tuple(values)


TYPE_LEVELS = ((1.0, 1.0, 1.0, 1.0), (1.0, 1.0))


def type_case(ts: TypeSet, form: str, domain: Domain, size: int, separable: bool = False) -> Case:
    """`separable`: the VS and the TES as separable programs of one pipeline, which Mesa's linker
    lays out one at a time (triage/mesa-22.3.6/separable-vs-tes-array-packing)."""
    id_ = f"tess/no-tcs/{domain}/equal/types/{form}/{ts.token}/{'separable/' if separable else ''}pv{size}"
    vs, tes, captures, results, version = _type_shaders(ts, form, domain, separable)
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
    expect = Expectation(0, counts=(
        ("primitives_generated", generated), ("xfb_primitives_written", generated),
        ("xfb_vertices", generated * vertices_per_primitive(domain, False))), groups=tuple(groups))
    return Case(
        id=id_, family=FAMILY, shaders=(("vs", vs), ("tes", tes)),
        requires=Requirements(gl_version=version, profile="compat" if ts.compat else "core",
                              limits=(("GL_MAX_PATCH_VERTICES", ">=", size),)),
        vertices=first + count, attributes=(), steps=(draw,),
        readback=Readback(captures, XFB_PRIMITIVE[domain], max_records=expect.counts[2][1] + 64),
        expect=(expect,),
        description=f"VS outputs {', '.join(c.name + ':' + c.type for c in ts.carried)} ({form}) reach a "
                    f"TCS-less TES, {domain}, patches of {size}",
        params=(("domain", domain), ("form", form), ("types", ts.token), ("patch_vertices", size))
        + ((("separable", True),) if separable else ()),
        separable=separable,
    )


CAPTURE_TYPES_COMPONENTS = {"int": 1, "vec2": 2, "vec3": 3, "vec4": 4, "ivec3": 3, "ivec4": 4}
# The domain does not change how outputs are carried; the patch size does. Each type set and
# form runs with the smallest, a middle and the largest patch, each on another domain.
TYPE_PATCH_SIZES: tuple[tuple[Domain, int], ...] = (("triangles", 1), ("quads", 3), ("isolines", 32))


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
    # Each core user-type set through separable programs, as variables and as a block, patches of 3.
    for ts in TYPE_SETS:
        if not ts.compat and not any(c.builtin for c in ts.carried):
            cases += [type_case(ts, form, "quads", 3, separable=True) for form in ts.forms if form in ("var", "block")]
    return cases

