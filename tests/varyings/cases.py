"""Varying slots: legacy builtins against user varyings, up to the limits, on every stage chain.

A GL-on-Vulkan layer must give the legacy builtins that have no SPIR-V builtin (colours,
gl_TexCoord[], gl_FogFragCoord, gl_ClipVertex, ...) ordinary locations beside the user's
varyings; placed carelessly, one clobbers the other. Every component of every varying carries a
value unique in its case; the vertex shader writes them as constants, intermediate stages hand
them on, and each fragment reports a few of them as RGBA32F, so a wrong value names the varying
it came from: `FS input u7.y = 41 (the value of gl_TexCoord[2].y), expected 30`.

The quad covers a 2-row image; both rows report every value, except where gl_ClipVertex and a
user clip plane clip the top row away, which must then keep the clear value.
"""
from __future__ import annotations

import itertools
import random
import zlib
from collections.abc import Iterator
from pathlib import Path

from harness.model.case import (Attribute, Case, Draw, DrawEntry, DrawState, Expectation, ExpectedPixel,
                          Readback, Requirements)
from harness.glsl.templates import render

# the vocabulary, re-exported: explore, the bench and the self-tests read it from the family's cases.py
from .model import (BACK as BACK, BUILTINS as BUILTINS, CONTROLS as CONTROLS, STRUCTS as STRUCTS,
                    SWIZZLE as SWIZZLE, TEXCOORDS as TEXCOORDS, TYPES as TYPES, Builtin as Builtin,
                    Dialect as Dialect, Plan as Plan, Varying as Varying, components as components,
                    constructor as constructor, literal as literal)

HERE = Path(__file__).parent
FAMILY = "varyings"
ROWS = 2
TOLERANCE = 1e-4                 # constant over the primitive, so interpolation is (nearly) exact
Write = tuple[str, str, list[float]]        # (GLSL name, type, values) the VS assigns
Read = tuple[str, float, str, str]          # (FS expression, value, label, source) the FS reports



class Values:
    """Unique values for one case: fractions below 1 for colours, salted integers otherwise."""

    def __init__(self, case_id: str):
        salt = zlib.crc32(case_id.encode()) % 97
        self._next_free = 100 + 10 * salt
        self._next_colour = 1 + 2 * (salt % 8)

    def take(self, colour: bool) -> float:
        if colour:
            self._next_colour += 1
            return (self._next_colour - 1) / 256.0
        self._next_free += 1
        return float(self._next_free - 1)


def _assigned(plan: Plan, values: Values) -> tuple[list[Write], list[Read], list[tuple[float, str]]]:
    """Every varying's values: what the VS writes, what the FS reads, and what it must not see."""
    d = plan.dialect
    # writes: (GLSL name, type, values) the VS assigns; reads: (FS expression, value, label,
    # source) the FS reports; decoys: (value, name) written but selected away.
    writes: list[Write] = []
    reads: list[Read] = []
    decoys: list[tuple[float, str]] = []
    for key in plan.builtins:
        b = BUILTINS[key]
        type_ = "vec4" if b.components == 4 else "float"
        front = [values.take(b.colour) for _ in range(b.components)]
        writes.append((b.written, type_, front))
        shown, shown_names = front, _component_names(b.written, b.components)
        if key in BACK and plan.face.startswith("two-side"):
            back = [values.take(True) for _ in range(b.components)]
            writes.append((BACK[key], type_, back))
            back_names = _component_names(BACK[key], b.components)
            if plan.face == "two-side-back":
                decoys += list(zip(front, shown_names))
                shown, shown_names = back, back_names
            else:
                decoys += list(zip(back, back_names))
        for read_name, value, source in zip(_component_names(b.read, b.components), shown, shown_names):
            label = read_name if read_name == source else f"{read_name} ({source})"
            reads.append((read_name, value, label, source))
    for user in plan.users:
        for name, accessors in user.groups():
            group = [values.take(False) for _ in accessors]
            writes.append((name, user.type, group))
            if plan.fs_users is None or user.name in plan.fs_users:
                reads += [(a, v, a, a) for a, v in zip(accessors, group)]
    for control in plan.controls:
        if control == "pointsize":
            writes.append(("gl_PointSize", "float", [values.take(False)]))
        else:                    # clip distances: positive, so nothing is clipped
            for i in range(2):
                value = values.take(False)
                writes.append((f"gl_ClipDistance[{i}]", "float", [value]))
                if d.modern:
                    name = f"gl_ClipDistance[{i}]"
                    reads.append((name, value, name, name))
    return writes, reads, decoys


def make_case(plan: Plan) -> Case:
    case_id = case_id_of(plan)
    values = Values(case_id)
    d = plan.dialect
    stages = plan.chain.split("-")

    writes, reads, decoys = _assigned(plan, values)

    width = max(1, -(-len(reads) // 4))
    shaders = [("vs", _vs(plan, writes))]
    for stage in stages[1:-1]:
        shaders.append((stage, _middle(stage, plan)))
    shaders.append(("fs", _fs(plan, reads)))

    def image(clipping: bool) -> list[ExpectedPixel]:
        pixels = []
        for row in range(ROWS):
            for slot, (_, value, label, source) in enumerate(reads):
                index = (row * width + slot // 4) * 4 + slot % 4
                if clipping and row == 1:
                    pixels.append(ExpectedPixel(index, f"row 1 (clipped by gl_ClipVertex), FS input {label}",
                                                -7777.0))
                else:
                    pixels.append(ExpectedPixel(index, f"row {row}, FS input {label}", value, source))
        return pixels

    pixels = image(plan.clip_vertex)
    if not pixels:
        raise ValueError(f"{case_id}: the FS reads nothing")

    enable = []
    if plan.face.startswith("two-side"):
        enable.append("VERTEX_PROGRAM_TWO_SIDE")
    if plan.clip_vertex:
        enable.append("CLIP_PLANE0")
    if "clipdist" in plan.controls:
        enable += ["CLIP_DISTANCE0", "CLIP_DISTANCE1"]
    tess = "tes" in stages
    state = DrawState(enable=tuple(enable),
                      clip_planes=((0.0, -1.0, 0.0, 0.0),) if plan.clip_vertex else (),
                      patch_vertices=3 if tess else None,
                      default_outer=(1.0, 1.0, 1.0, 1.0) if tess else None,
                      default_inner=(1.0, 1.0) if tess else None)
    positions = quad(back=plan.face in ("back", "two-side-back"))
    mode = "PATCHES" if tess else "TRIANGLES"
    draws = [Draw("DrawArrays", mode, (DrawEntry(6),), state=state, label="draw 0 (the quad)")]
    expects = [Expectation(0, pixels=tuple(pixels), tolerance=TOLERANCE,
                           written=tuple((v, n) for v, n in decoys))]
    if plan.clip_vertex:
        # The same program drawn first with the plane disabled, then enabled: the clip state
        # must follow the enable from one draw to the next.
        unclipped = DrawState(enable=tuple(e for e in enable if e != "CLIP_PLANE0"),
                              clip_planes=state.clip_planes, patch_vertices=state.patch_vertices,
                              default_outer=state.default_outer, default_inner=state.default_inner)
        draws = [Draw("DrawArrays", mode, (DrawEntry(6),), state=unclipped, label="draw 0 (plane disabled)"),
                 Draw("DrawArrays", mode, (DrawEntry(6),), state=state, label="draw 1 (plane enabled)")]
        expects = [Expectation(0, pixels=tuple(image(False)), tolerance=TOLERANCE),
                   Expectation(1, pixels=tuple(pixels), tolerance=TOLERANCE)]
    return Case(
        id=case_id, family=FAMILY, shaders=tuple(shaders), requires=requirements(plan),
        vertices=6, attributes=(Attribute(0, 4, positions, name="a_position"),),
        steps=tuple(draws), readback=Readback(image=(width, ROWS)),
        expect=tuple(expects),
        separable=plan.separable,
        description=f"{plan.chain}, {d.line[1:]}, builtins {list(plan.builtins)}, "
                    f"{len(plan.users)} user varyings ({components(plan)} components)",
        params=(("chain", plan.chain), ("glsl", d.version), ("compat", d.compat),
                ("builtins", plan.builtins), ("user_components", sum(v.components for v in plan.users))),
    )


def _component_names(name: str, n: int) -> list[str]:
    return [name] if n == 1 else [f"{name}.{SWIZZLE[i]}" for i in range(n)]


def quad(back: bool) -> tuple[float, ...]:
    """Two triangles over the whole viewport, counter-clockwise (front-facing) unless `back`."""
    triangles = [((-1, -1), (1, -1), (1, 1)), ((-1, -1), (1, 1), (-1, 1))]
    out = []
    for tri in triangles:
        for x, y in (reversed(tri) if back else tri):
            out += [float(x), float(y), 0.0, 1.0]
    return tuple(out)


def requirements(plan: Plan) -> Requirements:
    d = plan.dialect
    gl = d.gl_version
    stages = plan.chain.split("-")
    if "tes" in stages:
        gl = max(gl, (4, 0))
    extensions = ["GL_ARB_compatibility"] if d.version == 140 and d.compat else []
    if any(v.scalar == "double" for v in plan.users) and gl < (4, 0):
        extensions.append("GL_ARB_gpu_shader_fp64")
    limits = []
    total = components(plan)
    if plan.limit and plan.limit[1] == "over":       # runs only where it is one vec4 over
        limits.append(("GL_MAX_VARYING_COMPONENTS", "==", plan.limit[0]))
    elif total > 60:
        limits.append(("GL_MAX_VARYING_COMPONENTS", ">=", total))
    # Stages with per-vertex inputs have limits of their own (zink and Vulkan report 64 for GS);
    # gl_ClipVertex passing through them is one more vec4 there.
    through = total + (4 if plan.clip_vertex else 0)
    for stage, limit in (("gs", "GL_MAX_GEOMETRY_INPUT_COMPONENTS"), ("tcs", "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS"),
                         ("tes", "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS")):
        if stage in stages:
            limits.append((limit, ">=", through))
    top = max((v.location for v in plan.users if v.location is not None), default=None)
    if top is not None:
        limits.append(("GL_MAX_VARYING_COMPONENTS", ">=", 4 * (top + 1)))
    return Requirements(
        gl_version=gl, profile="compat" if d.compat else "core", extensions=tuple(extensions),
        limits=tuple(limits),
        link_failure_allowed="one component over GL_MAX_VARYING_COMPONENTS" if plan.limit
        and plan.limit[1] == "over" else "")


# -- GLSL: each stage is a template beside this file ---------------------------------------------

def _stage(template: str, plan: Plan, **params: object) -> str:
    params.setdefault("users", plan.users)
    return render(HERE / template, dialect=plan.dialect, extensions=_extensions(plan),
                  structs=[(t, STRUCTS[t]) for t in sorted({v.type for v in plan.users} & set(STRUCTS))],
                  **params)


def _vs(plan: Plan, writes: list[Write]) -> str:
    return _stage("varyings.vert", plan, writes=writes, constant=constructor, blocked=_uses_blocks(plan),
                  separable=plan.separable, point_size="pointsize" in plan.controls,
                  clip_distance="clipdist" in plan.controls and plan.dialect.modern, clip_vertex=plan.clip_vertex)


def _uses_blocks(plan: Plan) -> bool:
    """User varyings cross intermediate stages in interface blocks (arrays of arrays and
    structs could not be per-vertex inputs otherwise)."""
    return len(plan.chain.split("-")) > 2 and bool(plan.users)


def _extensions(plan: Plan) -> list[str]:
    d = plan.dialect
    names = []
    if d.version == 140 and d.compat:        # GLSL 1.40 removed the legacy builtins; this brings them back
        names.append("GL_ARB_compatibility")
    if any(v.scalar == "double" for v in plan.users) and d.version < 400:
        names.append("GL_ARB_gpu_shader_fp64")
    if any(v.component is not None for v in plan.users) and d.version < 440:
        names.append("GL_ARB_enhanced_layouts")
    return names


def _legacy(plan: Plan) -> list[str]:
    """The builtins an intermediate stage copies from gl_in[] to its outputs."""
    names = []
    for key in plan.builtins:
        b = BUILTINS[key]
        names.append(b.written)
        if key in BACK and plan.face.startswith("two-side"):
            names.append(BACK[key])
    if plan.clip_vertex:
        names.append("gl_ClipVertex")
    if "clipdist" in plan.controls:
        names += ["gl_ClipDistance[0]", "gl_ClipDistance[1]"]
    if "pointsize" in plan.controls:
        names.append("gl_PointSize")
    return names


MIDDLE_TEMPLATES = {"tcs": "varyings.tesc", "tes": "varyings.tese", "gs": "varyings.geom"}


def _middle(stage: str, plan: Plan) -> str:
    stages = plan.chain.split("-")
    return _stage(MIDDLE_TEMPLATES[stage], plan, legacy=_legacy(plan), to_fs=stages[stages.index(stage) + 1] == "fs")


def _fs(plan: Plan, reads: list[Read]) -> str:
    d = plan.dialect
    users = [v for v in plan.users if plan.fs_users is None or v.name in plan.fs_users]
    if plan.reverse_consumer:
        users = users[::-1]
    expressions = [expression for expression, *_ in reads]
    expressions += [""] * (-len(expressions) % 4)             # "": that lane reports -1.0
    columns = [expressions[n:n + 4] for n in range(0, len(expressions), 4)]
    return _stage("varyings.frag", plan, users=users, columns=columns,
                  clip_distance="clipdist" in plan.controls and d.modern,
                  report="o_report" if d.modern and not d.compat else "gl_FragColor")


# -- ids ----------------------------------------------------------------------------------------

def case_id_of(plan: Plan) -> str:
    parts = [FAMILY, plan.chain, plan.dialect.token]
    if plan.separable:
        parts.append("separable")
    parts.append("builtins-" + ("+".join(plan.builtins + plan.controls) or "none"))
    if plan.face != "front":
        parts.append(plan.face)
    if plan.clip_vertex:
        parts.append("clipvertex")
    user_components = sum(v.components for v in plan.users)
    parts.append(f"users-{len(plan.users)}x{plan.tag or 'none'}-{user_components}c")
    if plan.limit:
        parts.append(f"{plan.limit[1]}-limit{plan.limit[0]}")
    if plan.reverse_consumer:
        parts.append("reversed")
    return "/".join(parts)


# -- the case set -------------------------------------------------------------------------------

COMPAT_GS = Dialect(150, True)
COMPAT_TESS = Dialect(400, True)
CORE = Dialect(450, False)
CHAINS = ("vs-fs", "vs-gs-fs", "vs-tes-fs", "vs-tcs-tes-fs", "vs-tcs-tes-gs-fs")


def compat_for(chain: str) -> Dialect:
    return Dialect(130, True) if chain == "vs-fs" else COMPAT_GS if "tes" not in chain else COMPAT_TESS


def vec4s(n: int, prefix: str = "u", qualifier: str = "") -> tuple[Varying, ...]:
    return tuple(Varying(f"{prefix}{i}", "vec4", qualifier) for i in range(n))


def builtin_subsets() -> list[tuple[str, ...]]:
    """Every subset size of the FS-visible builtins, a seeded sample of each size, and the
    gl_TexCoord shapes that matter (full, partial, non-contiguous)."""
    keys = list(BUILTINS)
    rng = random.Random(4)
    subsets = {(), tuple(keys)}
    for size in range(1, len(keys)):
        combos = list(itertools.combinations(keys, size))
        for combo in rng.sample(combos, min(3, len(combos))):
            subsets.add(combo)
    subsets |= {tuple(TEXCOORDS), ("tex0", "tex1", "tex2", "tex3"), ("tex1", "tex4", "tex7"), ("tex0", "tex7"),
                ("color", "tex2", "fog"), ("color", "secondary")}
    return sorted(subsets, key=lambda s: (len(s), s))


def plans() -> list[Plan]:
    out = []
    # Builtins x user varyings on every chain: no users, a few, and up to 64 components.
    for chain in CHAINS:
        d = compat_for(chain)
        for subset in builtin_subsets():
            out.append(Plan(d, chain, subset, users=vec4s(3), tag="vec4"))
            fill = (64 - 4 * len(subset)) // 4          # the rest of 64 components: zink's limit
            out.append(Plan(d, chain, subset, users=vec4s(fill), tag="vec4"))
        out.append(Plan(d, chain, ("color", "tex2", "fog")))
        out.append(Plan(d, chain, ("color", "tex0", "tex5"), CONTROLS, vec4s(4), tag="vec4"))
        mixed = (Varying("a", "float"), Varying("b", "mat3x2"), Varying("c", "uvec2"),
                 Varying("d", "vec3", "noperspective"), Varying("e", "int"), Varying("f", "vec2", array=2))
        out.append(Plan(d, chain, ("color", "tex1", "tex6", "fog"), users=mixed, tag="mixed"))
    # Every GLSL version with the builtins, on VS -> FS.
    for version in (110, 120, 130, 140, 150, 400, 450):
        d = Dialect(version, True)
        for subset in (("color", "secondary", "tex0", "tex3", "fog"), tuple(BUILTINS)):
            out.append(Plan(d, "vs-fs", subset, users=vec4s(2), tag="vec4"))
    # Two-sided colours: which colour the FS sees depends on the face and the enable.
    for chain, d in (("vs-fs", Dialect(130, True)), ("vs-gs-fs", COMPAT_GS)):
        for face in ("back", "two-side-front", "two-side-back"):
            out.append(Plan(d, chain, ("color", "secondary", "tex0"), face=face, users=vec4s(2), tag="vec4"))
    # gl_ClipVertex with a user clip plane: the top row is clipped away; the rest still arrives.
    for chain in ("vs-fs", "vs-gs-fs"):
        d = compat_for(chain)
        out.append(Plan(d, chain, ("color", "tex1"), clip_vertex=True, users=vec4s(2), tag="vec4"))
        out.append(Plan(d, chain, tuple(BUILTINS), clip_vertex=True, users=vec4s(4), tag="vec4"))
    # Limits: exactly at GL_MAX_VARYING_COMPONENTS for the common values, and one vec4 over.
    for total in (64, 124, 128):
        out.append(Plan(CORE, "vs-fs", users=vec4s(total // 4), tag="vec4", limit=(total, "at")))
        out.append(Plan(CORE, "vs-fs", users=vec4s(total // 4 + 1), tag="vec4", limit=(total, "over")))
        subset = ("color", "secondary", "tex0", "tex1", "tex2", "tex3", "fog")
        fill = (total - 4 * len(subset)) // 4
        out.append(Plan(Dialect(450, True), "vs-fs", subset, users=vec4s(fill), tag="vec4", limit=(total, "at")))
        out.append(Plan(Dialect(450, True), "vs-fs", subset, users=vec4s(fill + 1), tag="vec4",
                        limit=(total, "over")))
    # Core profile: types, qualifiers, locations and components, on every chain.
    for chain in CHAINS:
        for tag, users in type_sets(chain):
            out.append(Plan(CORE, chain, users=users, tag=tag))
    out.append(Plan(CORE, "vs-fs", users=vec4s(6), tag="vec4", reverse_consumer=True))
    out.append(Plan(Dialect(130, True), "vs-fs", ("color", "tex3"), users=vec4s(6), tag="vec4",
                    reverse_consumer=True))
    # Separable programs: the VS writes a superset of what the FS reads (PSIZ, VAR0, VAR8 vs VAR0, VAR8).
    located = tuple(Varying(f"u{i}", "vec4", location=i) for i in (0, 3, 8))
    out.append(Plan(CORE, "vs-fs", controls=("pointsize",), users=located, tag="vec4-loc0+3+8",
                    separable=True, fs_users=("u0", "u8")))
    out.append(Plan(CORE, "vs-fs", users=located, tag="vec4-loc0+3+8", separable=True, fs_users=("u8",)))
    return out


def type_sets(chain: str) -> Iterator[tuple[str, tuple[Varying, ...]]]:
    """(tag, user varyings) for the type and qualifier coverage."""
    for t in TYPES:
        if t.startswith("d"):
            yield t, (Varying("a", t), Varying("b", "vec4"))
        else:
            yield t, (Varying("a", t), Varying("b", "vec4"), Varying("c", t))
    yield "arrays", (Varying("a", "float", array=3), Varying("b", "vec2", array=2),
                     Varying("c", "mat2", array=2), Varying("d", "ivec3", array=2))
    yield "struct", (Varying("a", "S"), Varying("b", "vec4"), Varying("c", "S"))
    for q in ("flat", "noperspective", "smooth", "centroid", "sample"):
        yield f"qualifier-{q}", (Varying("a", "vec4", q), Varying("b", "vec3", q), Varying("c", "float", q))
    yield "mixed", (Varying("a", "float"), Varying("b", "mat3x2"), Varying("c", "uvec2"),
                    Varying("d", "vec3", "noperspective"), Varying("e", "int"), Varying("f", "dvec3"))
    if chain == "vs-fs":       # explicit locations and components: matched by location, not name
        yield "locations", (Varying("a", "vec4", location=15), Varying("b", "vec4", location=0),
                            Varying("c", "vec2", location=7))
        yield "components", (Varying("a", "vec2", location=3, component=0),
                             Varying("b", "float", location=3, component=2),
                             Varying("c", "float", location=3, component=3),
                             Varying("d", "vec3", location=4, component=1),
                             Varying("e", "vec4", location=5))


def generate() -> list[Case]:
    cases: dict[str, Case] = {}
    for plan in plans():
        case = make_case(plan)
        cases.setdefault(case.id, case)
    return list(cases.values())
