"""The layer: GL GLSL in, Vulkan GLSL out, as a GL-on-Vulkan layer (zink) must translate it.

Always applied (no GL behaviour without them): `#version 460`, old keywords (`attribute`,
`varying`, `gl_FragColor`), an explicit location for every varying, gl_VertexID/gl_InstanceID
in GL terms, transform-feedback decorations for the captured outputs.

The four switchable translations (`--vk-without`), each the fix for one hazard:
- `passthrough-tcs` (see tcs.py): a TCS for programs without one, copying every VS output and
  writing the default levels from a push constant updated per draw;
- `base-vertex`: gl_BaseVertex is `indexed ? BaseVertex : 0` (Vulkan gives firstVertex);
- `draw-id`: gl_DrawID adds the index of a multi-draw split into single draws;
- `slot-map`: legacy builtins without SPIR-V builtins (colours, gl_TexCoord[], fog, clip
  vertex) get locations after the user's varyings, the same in every stage; two-sided colour
  selects on gl_FrontFacing and gl_ClipVertex becomes gl_ClipDistance against the user planes.
Without `slot-map` the builtins start at location 0, on top of the user's varyings, as a naive
layer would place them.

This is text-level translation of the GLSL the families generate (global declarations one per
line, constant gl_TexCoord indices); it is not a GLSL compiler.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.backends.vk import uniforms as uniform_block
from harness.glfacts import STAGE_KEYS

TRANSLATIONS = ("passthrough-tcs", "base-vertex", "draw-id", "slot-map")
CLIP_PLANES = 4

# The push constants every translated stage declares (std430: 112 bytes, planes at offset 48).
LAYER_BLOCK = (f"layout(push_constant) uniform Layer {{ vec4 outer; vec2 inner; int indexed; int draw_id;"
               f" int two_side; int clip_enabled; vec4 planes[{CLIP_PLANES}]; }} _layer;")

# Legacy builtins that need a location; fixed order, so every stage agrees on it.
LEGACY = ("FrontColor", "FrontSecondaryColor", "BackColor", "BackSecondaryColor", "FogFragCoord",
          *(f"TexCoord{i}" for i in range(8)), "ClipVertex")
LEGACY_TYPE = {"FogFragCoord": "float"}

STAGE_ORDER = STAGE_KEYS
ARRAYED_INPUTS = ("tcs", "tes", "gs")

DECL = re.compile(
    r"^[ \t]*(?:layout\s*\((?P<layout>[^)]*)\)\s*)?(?P<quals>(?:(?:flat|noperspective|smooth|centroid|sample|patch)\s+)*)"
    r"(?P<dir>in|out|varying|attribute)\s+(?P<type>\w+)\s+(?P<name>\w+)\s*(?P<array>(?:\[\s*\d*\s*\]\s*)*)\s*;[ \t]*(?://[^\n]*)?$", re.M)
BLOCK = re.compile(
    r"^[ \t]*(?:layout\s*\((?P<layout>[^)]*)\)\s*)?(?P<quals>(?:patch\s+)?)(?P<dir>in|out)\s+(?P<block>\w+)\s*"
    r"\{(?P<body>[^}]*)\}\s*(?P<inst>\w+)?\s*(?P<array>\[\s*\d*\s*\])?\s*;[ \t]*$", re.M)
STRUCT = re.compile(r"struct\s+(\w+)\s*\{([^}]*)\}\s*;")
MEMBER = re.compile(r"(?:(?:flat|noperspective|smooth|centroid|sample)\s+)*(\w+)\s+(\w+)\s*(\[\s*\d+\s*\])?\s*;")


class TranslationError(Exception):
    pass


@dataclass
class Varying:
    """A user varying (or block) at one stage interface."""
    stage: str
    direction: str                 # in, out
    name: str                      # variable name, or block name for blocks
    type: str
    array: str                     # "", "[]", "[3]"
    quals: str
    layout: str                    # existing layout qualifiers, e.g. "location = 3, component = 2"
    body: str = ""                 # block members
    instance: str = ""
    span: tuple[int, int] = (0, 0)

    @property
    def explicit_location(self) -> int | None:
        m = re.search(r"location\s*=\s*(\d+)", self.layout)
        return int(m[1]) if m else None


@dataclass
class Program:
    """What the translation of one program needs to know, and what it produced."""
    shaders: dict[str, str]
    without: frozenset[str]
    captures: tuple[tuple[str, str], ...] = ()          # (varying, glsl type) in capture order
    attributes: dict[str, int] = field(default_factory=dict)   # attribute name -> location
    separable: bool = False
    # Locations per interface: interface i joins the i-th stage present to the next one.
    locations: dict[tuple[int, str], int] = field(default_factory=dict)
    legacy: dict[int, tuple[int, tuple[str, ...]]] = field(default_factory=dict)   # i -> (base, names)
    legacy_used: tuple[str, ...] = ()                     # in any stage
    structs: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    # The uniform block (see uniforms.py): default-block uniforms, projection, clip planes.
    uniforms: dict = field(default_factory=dict)


# -- location sizes -----------------------------------------------------------------------

def _array_length(array: str) -> int:
    """Elements of a (possibly multi-dimensional) array suffix: "[3][2]" -> 6, "" or "[]" -> 1."""
    total = 1
    for size in re.findall(r"\[\s*(\d*)\s*\]", array):
        total *= int(size) if size else 1
    return total


def location_count(type_: str, structs: dict) -> int:
    if type_ in structs:
        return sum(location_count(t, structs) * _array_length(a) for t, _, a in structs[type_])
    m = re.fullmatch(r"(d?)mat(\d)(?:x(\d))?", type_)
    if m:
        cols, rows = int(m[2]), int(m[3] or m[2])
        return cols * (2 if m[1] and rows > 2 else 1)
    if type_ in ("dvec3", "dvec4"):
        return 2
    return 1


def _members(body: str) -> list[tuple[str, str, str]]:
    return [(t, n, a or "") for t, n, a in MEMBER.findall(body)]


# -- parsing --------------------------------------------------------------------------------

def interface(stage: str, source: str) -> list[Varying]:
    """The user varyings a stage declares (not builtins, VS attributes or FS outputs)."""
    found = []
    for m in DECL.finditer(source):
        direction = {"varying": "out" if stage == "vs" else "in", "attribute": "in"}.get(m["dir"], m["dir"])
        if m["name"].startswith("gl_") or (stage == "vs" and direction == "in") or \
                (stage == "fs" and direction == "out"):
            continue
        found.append(Varying(stage, direction, m["name"], m["type"], m["array"] or "", m["quals"],
                             m["layout"] or "", span=m.span()))
    for m in BLOCK.finditer(source):
        if m["block"].startswith("gl_"):
            continue
        found.append(Varying(stage, m["dir"], m["block"], "", m["array"] or "", m["quals"], m["layout"] or "",
                             body=m["body"], instance=m["inst"] or "", span=m.span()))
    return found


def _size(v: Varying, structs: dict) -> int:
    """Locations one varying takes. The per-vertex array of a TCS/TES/GS input (or TCS output)
    is not a location array."""
    per = (sum(location_count(t, structs) * _array_length(a) for t, _, a in _members(v.body)) if v.body
           else location_count(v.type, structs))
    per_vertex = "patch" not in v.quals and (
        (v.direction == "in" and v.stage in ARRAYED_INPUTS) or (v.direction == "out" and v.stage == "tcs"))
    dims = re.findall(r"\[[^\]]*\]", v.array)
    return per * _array_length("".join(dims[1:] if per_vertex else dims))


def stage_order(program: Program) -> list[str]:
    return [s for s in STAGE_ORDER if s in program.shaders]


def interface_index(program: Program, stage: str, direction: str) -> int:
    """Which interface a stage's inputs or outputs belong to."""
    return stage_order(program).index(stage) - (1 if direction == "in" else 0)


def assign_locations(program: Program) -> None:
    """Per interface (producer/consumer pair): same name -> same location on both sides, as GL
    matches varyings by name; explicit locations kept; the legacy builtins the pair uses after
    the last user location (at 0, on top of the user's, without `slot-map`)."""
    structs = {}
    for source in program.shaders.values():
        for name, body in STRUCT.findall(source):
            structs[name] = _members(body)
    program.structs = structs
    order = stage_order(program)
    program.legacy_used = tuple(n for n in LEGACY if any(_uses_legacy(src, n) for src in program.shaders.values()))
    for index in range(len(order)):       # the last one: outputs nothing consumes (captured ones)
        sides = [(order[index], "out")] + ([(order[index + 1], "in")] if index + 1 < len(order) else [])
        sizes, explicit = {}, {}
        for stage, direction in sides:
            for v in interface(stage, program.shaders[stage]):
                if v.direction != direction:
                    continue
                if v.explicit_location is not None:
                    explicit[v.name] = v.explicit_location
                sizes[v.name] = max(sizes.get(v.name, 0), _size(v, structs))
        taken = set()
        for name, loc in explicit.items():
            taken |= set(range(loc, loc + sizes[name]))
        next_free = 0
        for name in sorted(sizes):
            if name in explicit:
                program.locations[(index, name)] = explicit[name]
                continue
            while any(loc in taken for loc in range(next_free, next_free + sizes[name])):
                next_free += 1
            program.locations[(index, name)] = next_free
            taken |= set(range(next_free, next_free + sizes[name]))
            next_free += sizes[name]
        names = tuple(n for n in program.legacy_used
                      if any(_uses_legacy(program.shaders[stage], n) for stage, _ in sides))
        base = 0 if "slot-map" in program.without else (max(taken) + 1 if taken else 0)
        program.legacy[index] = (base, names)


def locations_used(program: Program) -> int:
    """The most locations any interface needs."""
    ends = [loc + 1 for loc in program.locations.values()]
    ends += [base + len(names) for base, names in program.legacy.values() if names]
    return max(ends, default=0)


def _uses_legacy(source: str, name: str) -> bool:
    if name.startswith("TexCoord"):
        return re.search(rf"\bgl_TexCoord\s*\[\s*{name[8:]}\s*\]", source) is not None
    if name == "FrontColor":
        return re.search(r"\bgl_(FrontColor|Color)\b", source) is not None
    if name == "FrontSecondaryColor":
        return re.search(r"\bgl_(FrontSecondaryColor|SecondaryColor)\b", source) is not None
    return re.search(rf"\bgl_{name}\b", source) is not None


def legacy_location(program: Program, index: int, name: str) -> int:
    base, names = program.legacy[index]
    return base + names.index(name)


# -- translation ------------------------------------------------------------------------------

def translate(program: Program) -> dict[str, str]:
    """Every stage of the program, translated; a generated TCS where the program needs one."""
    if not program.locations:
        assign_locations(program)
    program.uniforms = uniform_block.layout(
        program.shaders, clip_vertex="ClipVertex" in program.legacy_used and "slot-map" not in program.without)
    stages = [s for s in STAGE_ORDER if s in program.shaders]
    last = [s for s in stages if s != "fs"][-1]
    out = {}
    for stage in stages:
        out[stage] = _translate_stage(program, stage, program.shaders[stage], last == stage)
    return out


def _translate_stage(program: Program, stage: str, source: str, last: bool) -> str:
    text = re.sub(r"^[ \t]*#version[^\n]*\n", "", source, count=1, flags=re.M)   # comments may come first
    text = re.sub(r"^\s*#extension[^\n]*\n", "", text, flags=re.M)
    # A sizing redeclaration of gl_TexCoord[] has no meaning once its elements are varyings.
    text = re.sub(r"^[ \t]*(?:in|out|varying)\s+vec4\s+gl_TexCoord\s*\[\s*\d*\s*\]\s*;[^\n]*\n", "", text,
                  flags=re.M)
    text = _declare_locations(program, stage, text, last)
    text = _legacy(program, stage, text, last)
    if last:
        text = _point_size(stage, text)
    if stage == "vs":
        text = _draw_parameters(program, text)
    text = uniform_block.rewrite(text, program.uniforms)
    if stage == "vs":
        text = _vertex_state(program, text)
    if stage == "fs":
        if re.search(r"\bgl_FragColor\b", text):
            text = re.sub(r"\bgl_FragColor\b", "_gl_FragColor", text)
            text = "layout(location = 0) out vec4 _gl_FragColor;\n" + text
        text = re.sub(r"^([ \t]*)out\s+vec4\s+(\w+)\s*;", r"\1layout(location = 0) out vec4 \2;", text, flags=re.M)
    return "#version 460\n" + LAYER_BLOCK + "\n" + text


def _declare_locations(program: Program, stage: str, text: str, last: bool) -> str:
    """Rewrite each varying declaration with its location (and xfb decorations if captured)."""
    captured = {name: i for i, (name, _) in enumerate(program.captures)}
    offsets, stride = _xfb_layout(program.captures)
    edits = []
    for v in interface(stage, text):
        quals = [q for q in (v.layout.strip(),) if q]
        if v.explicit_location is None:
            quals.insert(0, f"location = {program.locations[(interface_index(program, stage, v.direction), v.name)]}")
        if last and v.direction == "out" and v.name in captured:
            quals.append(f"xfb_buffer = 0, xfb_offset = {offsets[captured[v.name]]}, xfb_stride = {stride}")
        layout = f"layout({', '.join(quals)}) "
        if v.body:
            decl = f"{layout}{v.quals}{v.direction} {v.name} {{{v.body}}} {v.instance}{v.array};"
        else:
            decl = f"{layout}{v.quals}{v.direction} {v.type} {v.name}{v.array};"
        edits.append((v.span, decl))
    for (start, end), decl in sorted(edits, reverse=True):
        text = text[:start] + decl + text[end:]
    if stage == "vs":
        def attribute(m):
            name = m[2]
            loc = program.attributes.get(name)
            return f"layout(location = {loc}) in {m[1]} {name};" if loc is not None else m[0]
        text = re.sub(r"^[ \t]*(?:attribute|in)\s+(\w+)\s+(\w+)\s*;", attribute, text, flags=re.M)
    else:
        text = re.sub(r"^([ \t]*)varying\b", r"\1in", text, flags=re.M)
    return text


def _xfb_layout(captures) -> tuple[list[int], int]:
    """Interleaved, 4 bytes a component, in capture order (as GL_INTERLEAVED_ATTRIBS)."""
    offsets, offset = [], 0
    for _, type_ in captures:
        offsets.append(offset)
        offset += 4 * (int(type_[-1]) if type_[-1].isdigit() else 1)
    return offsets, offset


def _draw_parameters(program: Program, text: str) -> str:
    text = re.sub(r"\bgl_VertexID\b", "gl_VertexIndex", text)
    text = re.sub(r"\bgl_InstanceID\b", "(gl_InstanceIndex - gl_BaseInstance)", text)
    base_vertex = "gl_BaseVertex" if "base-vertex" in program.without else \
        "(_layer.indexed != 0 ? gl_BaseVertex : 0)"
    draw_id = "gl_DrawID" if "draw-id" in program.without else "(_layer.draw_id + gl_DrawID)"
    text = re.sub(r"\bgl_BaseVertex(ARB)?\b", "\0BV", text)
    text = re.sub(r"\bgl_DrawID(ARB)?\b", "\0DI", text)
    text = re.sub(r"\bgl_BaseInstanceARB\b", "gl_BaseInstance", text)
    return text.replace("\0BV", base_vertex).replace("\0DI", draw_id)


# -- legacy builtins ------------------------------------------------------------------------

def _gl_pattern(name: str) -> str:
    return rf"gl_TexCoord\s*\[\s*{name[8:]}\s*\]" if name.startswith("TexCoord") else rf"gl_{name}\b"


def _legacy(program: Program, stage: str, text: str, last: bool) -> str:
    if not program.legacy_used:
        return text
    decls = []
    order = stage_order(program)
    inputs = order.index(stage) - 1                      # interface index of this stage's inputs
    outputs = order.index(stage)
    if stage == "fs":
        # Without slot-map, a builtin whose naive location a user varying already holds simply
        # is that varying (one slot, two names): what a careless layer's SPIR-V does at run time.
        alias = _naive_aliases(program, stage, "in", text) if "slot-map" in program.without else {}
        for name in _fs_legacy_inputs(program, inputs, text):
            if name not in alias:
                loc = legacy_location(program, inputs, name)
                decls.append(f"layout(location = {loc}) in {LEGACY_TYPE.get(name, 'vec4')} _hl_{name}_in;")
        text = _fs_colours(program, inputs, text)
        for name in program.legacy_used:
            if name.startswith("TexCoord") or name == "FogFragCoord":
                text = re.sub(_gl_pattern(name), f"_hl_{name}_in", text)
        for name, var in alias.items():
            text = re.sub(rf"\b_hl_{name}_in\b", var, text)
        return _after_globals(text, decls)
    alias = _naive_aliases(program, stage, "out", text) if "slot-map" in program.without else {}
    for name in program.legacy_used:
        type_ = LEGACY_TYPE.get(name, "vec4")
        pattern = _gl_pattern(name)
        if stage in ARRAYED_INPUTS and re.search(rf"gl_in\s*\[[^\]]*\]\s*\.\s*{pattern}", text):
            loc = legacy_location(program, inputs, name)
            decls.append(f"layout(location = {loc}) in {type_} _hl_{name}_in[];")
            text = re.sub(rf"gl_in\s*\[([^\]]*)\]\s*\.\s*{pattern}", rf"_hl_{name}_in[\1]", text)
        if stage == "tcs" and re.search(rf"gl_out\s*\[[^\]]*\]\s*\.\s*{pattern}", text):
            loc = legacy_location(program, outputs, name)
            decls.append(f"layout(location = {loc}) out {type_} _hl_{name}_out[];")
            text = re.sub(rf"gl_out\s*\[([^\]]*)\]\s*\.\s*{pattern}", rf"_hl_{name}_out[\1]", text)
        elif stage != "tcs" and re.search(rf"(?<![.\w]){pattern}", text):
            if name in alias:
                text = re.sub(rf"(?<![.\w]){pattern}", alias[name], text)
                continue
            if name == "ClipVertex" and last and "slot-map" not in program.without:
                decls.append("vec4 _hl_ClipVertex_out;")         # consumed right here, not passed on
            else:
                loc = legacy_location(program, outputs, name)
                decls.append(f"layout(location = {loc}) out {type_} _hl_{name}_out;")
            text = re.sub(rf"(?<![.\w]){pattern}", f"_hl_{name}_out", text)
    if last and re.search(r"\b_hl_ClipVertex_out\b", text) and "slot-map" not in program.without:
        text = _clip_vertex(stage, text)
        decls.append(f"out float gl_ClipDistance[{uniform_block.CLIP_PLANES}];")
    return _after_globals(text, decls)


def _naive_aliases(program: Program, stage: str, direction: str, text: str) -> dict[str, str]:
    """legacy name -> the plain vec4 user varying of this stage at the same naive location."""
    index = interface_index(program, stage, direction)
    at = {program.locations[(index, v.name)]: v.name for v in interface(stage, text)
          if v.direction == direction and not v.body and v.type == "vec4" and not v.array}
    aliases = {}
    for name in program.legacy[index][1]:
        var = at.get(legacy_location(program, index, name))
        if var:
            aliases[name] = f"{var}.x" if LEGACY_TYPE.get(name) == "float" else var
    return aliases


def _fs_legacy_inputs(program: Program, index: int, text: str) -> list[str]:
    """Which legacy varyings the FS must declare: what it reads, and the back colours too
    where two-sided lighting may select them."""
    reads = {"FrontColor": r"\bgl_Color\b", "FrontSecondaryColor": r"\bgl_SecondaryColor\b",
             "FogFragCoord": r"\bgl_FogFragCoord\b"}
    needed = []
    for name in program.legacy[index][1]:
        if name in reads:
            hit = re.search(reads[name], text)
        elif name.startswith("Back"):
            hit = "slot-map" not in program.without and re.search(reads[name.replace("Back", "Front")], text)
        elif name.startswith("TexCoord"):
            hit = re.search(_gl_pattern(name), text)
        else:
            hit = False
        if hit:
            needed.append(name)
    return needed


def _fs_colours(program: Program, index: int, text: str) -> str:
    """gl_Color/gl_SecondaryColor: front unless two-sided lighting picks the back one."""
    for front, back, builtin in (("FrontColor", "BackColor", "gl_Color"),
                                 ("FrontSecondaryColor", "BackSecondaryColor", "gl_SecondaryColor")):
        if not re.search(rf"\b{builtin}\b", text):
            continue
        if back in program.legacy[index][1] and "slot-map" not in program.without:
            expr = f"((_layer.two_side == 0 || gl_FrontFacing) ? _hl_{front}_in : _hl_{back}_in)"
        else:
            expr = f"_hl_{front}_in"
        text = re.sub(rf"\b{builtin}\b", expr, text)
    return text


def _point_size(stage: str, text: str) -> str:
    """GL rasterizes points at the glPointSize state (1.0) when no shader writes gl_PointSize;
    Vulkan has no such state, so the last pre-rasterization stage must write it."""
    if re.search(r"\bgl_PointSize\b", text) or re.search(r"out\s+gl_PerVertex\s*\{", text):
        return text
    if stage == "gs":
        return re.sub(r"\bEmitVertex\s*\(\s*\)\s*;", "gl_PointSize = 1.0; EmitVertex();", text)
    end = text.rstrip().rfind("}")
    return text[:end] + "    gl_PointSize = 1.0;     // GL's point size state\n" + text[end:]


def _vertex_state(program: Program, text: str) -> str:
    """What a compatibility VS reads from GL's vertex state: gl_Vertex is attribute 0 (GL
    aliases the two); the current colour, texture coordinates, normal and fog coordinate are
    GL's initial values, as the harness never sets them or gives them arrays."""
    if re.search(r"\bgl_Vertex\b", text):
        named = [n for n, loc in program.attributes.items() if loc == 0 and re.search(rf"\b{n}\b", text)]
        if named:
            text = re.sub(r"\bgl_Vertex\b", named[0], text)
        else:
            text = re.sub(r"\bgl_Vertex\b", "_hl_Vertex", text)
            text = "layout(location = 0) in vec4 _hl_Vertex;\n" + text
    constants = {r"gl_Color": "vec4(1.0)", r"gl_SecondaryColor": "vec4(0.0, 0.0, 0.0, 1.0)",
                 r"gl_MultiTexCoord[0-7]": "vec4(0.0, 0.0, 0.0, 1.0)", r"gl_Normal": "vec3(0.0, 0.0, 1.0)",
                 r"gl_FogCoord": "0.0"}
    for name, value in constants.items():
        text = re.sub(rf"\b{name}\b", value, text)
    return text


def _clip_vertex(stage: str, text: str) -> str:
    """gl_ClipVertex against the enabled user planes (from the uniform block) -> gl_ClipDistance,
    written with each vertex."""
    planes = uniform_block.CLIP_PLANES
    helper = (f"void _layer_clip() {{ for (int i = 0; i < {planes}; i++) gl_ClipDistance[i] = "
              f"((_layer.clip_enabled >> i) & 1) != 0 ? dot({uniform_block.PLANES}[i], _hl_ClipVertex_out) : 1.0; }}")
    if stage == "gs":
        text = re.sub(r"\bEmitVertex\s*\(\s*\)\s*;", "_layer_clip(); EmitVertex();", text)
    else:
        end = text.rstrip().rfind("}")
        text = text[:end] + "    _layer_clip();\n" + text[end:]
    main = re.search(r"\bvoid\s+main\s*\(", text)
    return text[:main.start()] + helper + "\n\n" + text[main.start():]


def _after_globals(text: str, decls: list[str]) -> str:
    """Insert declarations before the first function."""
    if not decls:
        return text
    first = re.search(r"^\s*void\s+\w+\s*\(", text, flags=re.M)
    at = first.start() if first else len(text)
    return text[:at] + "\n" + "\n".join(dict.fromkeys(decls)) + "\n" + text[at:]
