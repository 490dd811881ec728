"""The layer: GL GLSL in, Vulkan GLSL out, as a GL-on-Vulkan layer (zink) must translate it.

Each stage is preprocessed by glslang and parsed into the model of harness/glsl; every
rewrite below edits the text at the spans that model gives, one pass at a time (a pass parses
the text the previous one produced).

Always applied (no GL behaviour without them): `#version 460`, old keywords (`attribute`,
`varying`, `gl_FragColor`, `gl_FragData`), an explicit location for every varying (each
declarator) and fragment output, gl_VertexID/gl_InstanceID in GL terms, transform-feedback
decorations for the captured outputs, GL's point size, vertex colour clamping.

The four switchable translations (`--vk-without`), each the fix for one hazard:
- `passthrough-tcs` (see tcs.py): a TCS for programs without one, copying every VS output and
  writing the default levels from a push constant updated per draw;
- `base-vertex`: gl_BaseVertex is `indexed ? BaseVertex : 0` (Vulkan gives firstVertex);
- `draw-id`: gl_DrawID adds the index of a multi-draw split into single draws;
- `slot-map`: legacy builtins without SPIR-V builtins (colours, gl_TexCoord[], fog, clip
  vertex) get locations after the user's varyings, the same in every stage; two-sided colour
  selects on gl_FrontFacing and gl_ClipVertex becomes gl_ClipDistance against the user planes.
Without `slot-map` the builtins start at location 0, on top of the user's varyings, as a naive
layer would place them. A fifth switch, `provoking-vertex`, is pipeline state, not GLSL
(pipelines.provoking_mode).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from harness.backends.vk import uniforms as uniform_block
from harness.backends.vk.locations import (assign_locations, interface, interface_index, legacy_key,
                                           legacy_location, legacy_refs, locations_used, stage_order)
from harness.backends.vk.program import (CLIP_PLANES, COLOURS, COMPAT_MEMBERS, LAYER_BLOCK, LEGACY_TYPE, STAGE_ORDER,
                                         TEXCOORDS, TRANSLATIONS, Program, TranslationError, models)
from harness.glsl import types
from harness.glsl.model import Editor, ParseError, Shader
from harness.glsl.tokens import directive_words
from harness.model.glfacts import last_vertex_stage

# What the rest of the layer reads from here (the model and the locations live in program.py
# and locations.py).
__all__ = ["CLIP_PLANES", "LAYER_BLOCK", "STAGE_ORDER", "TRANSLATIONS", "Program", "TranslationError",
           "locations_used", "models", "translate", "writes_point_size"]


# -- translation ------------------------------------------------------------------------------

def translate(program: Program) -> dict[str, str]:
    """Every stage of the program, translated; a generated TCS where the program needs one."""
    if not program.locations:
        assign_locations(program)
    shaders = models(program)
    clip_vertex = "ClipVertex" in program.legacy_used and "slot-map" not in program.without
    program.uniforms = uniform_block.layout(shaders, clip_vertex=clip_vertex)
    stages = stage_order(program)
    last = last_vertex_stage(stages)
    out = {}
    for stage in stages:
        try:
            out[stage] = _translate_stage(program, stage, last == stage)
        except ParseError as e:
            raise TranslationError(f"{stage.upper()}: {e}") from None
    return out


@dataclass
class _Stage:
    """One stage being translated: its model, the edits of its text, the declarations the layer
    adds in front of it, and the legacy outputs it declared."""
    name: str
    shader: Shader
    edit: Editor
    prelude: list[str] = field(default_factory=lambda: [LAYER_BLOCK])
    legacy_out: set[str] = field(default_factory=set)


def _translate_stage(program: Program, stage: str, last: bool) -> str:
    shader = program.models[stage]
    s = _Stage(stage, shader, Editor(shader.text))
    _compat_declarations(s)
    _declare_locations(program, s, last)
    _legacy(program, s, last)
    if last:
        _epilogue(program, s)
    if stage == "vs":
        _draw_parameters(program, s)
    vertex = _vertex_state(program, s) if stage == "vs" else "gl_Vertex"
    uniform_block.rewrite(shader, s.edit, program.uniforms, s.prelude, vertex)
    if stage == "fs":
        _fragment_outputs(s)
    at = shader.after_directives()
    s.edit.insert(at, "\n" + "\n".join(dict.fromkeys(s.prelude)) + "\n")
    return "#version 460\n" + s.edit.apply()


def _compat_declarations(s: _Stage) -> None:
    """Drop #version and #extension (the layer writes its own), sizing redeclarations of
    gl_TexCoord[] (its elements become varyings), and the compatibility members of a redeclared
    gl_PerVertex (a block of SPIR-V builtins: the layer's varyings replace them)."""
    shader, edit = s.shader, s.edit
    for directive in shader.directives:
        if directive_words(directive)[:1] in (["version"], ["extension"]):
            edit.replace((directive.start, directive.end), "")
    for d in shader.declarations:
        if d.kind == "variable" and any(x.name == "gl_TexCoord" for x in d.declarators):
            if len(d.declarators) > 1:
                raise TranslationError("gl_TexCoord redeclared together with other variables")
            edit.replace(d.span, "")
        elif d.kind == "block" and d.type == "gl_PerVertex":
            for m in d.members:
                if all(x.name in COMPAT_MEMBERS for x in m.declarators):
                    edit.replace(m.span, "")
                elif any(x.name in COMPAT_MEMBERS for x in m.declarators):
                    raise TranslationError("a gl_PerVertex member declares compatibility and core builtins together")


def _declaration(layout: list[str], quals: list[str], type_: str, name: str) -> str:
    prefix = f"layout({', '.join(layout)}) " if layout else ""
    return f"{prefix}{' '.join(quals + [type_])} {name};"


def _declare_locations(program: Program, s: _Stage, last: bool) -> None:
    """Each varying declaration rewritten with its location, one declaration a declarator (and
    xfb decorations if captured); VS inputs at their attribute locations; FS outputs located."""
    captured = {name: i for i, (name, _) in enumerate(program.captures)}
    offsets, stride = _xfb_layout(program.captures)
    stage, shader, edit = s.name, s.shader, s.edit
    attribute_slots = set(program.attributes.values())
    fs_slots = {d.location for d in shader.variables("out") if d.location is not None}
    for d in shader.declarations:
        storage = d.storage or ""
        direction = {"varying": "in" if stage == "fs" else "out", "attribute": "in"}.get(storage, storage)
        if direction not in ("in", "out") or d.kind not in ("variable", "block"):
            continue
        quals = [direction if q in ("varying", "attribute") else q for q in d.qualifiers]
        kept = [d.layout.text()] if d.layout and d.layout.items else []
        if d.kind == "block":
            if d.type.startswith("gl_"):
                continue
            layout = kept[:]
            if d.location is None and (stage, direction) not in (("vs", "in"), ("fs", "out")):
                index = interface_index(program, stage, direction)
                layout.insert(0, f"location = {program.locations[(index, d.type)]}")
            body = shader.text[d.span[0]:d.span[1]]
            start = d.layout.span[1] - d.span[0] if d.layout else 0
            edit.replace(d.span, f"layout({', '.join(layout)}) " + body[start:].lstrip() if layout else body)
            continue
        if any(x.name.startswith("gl_") for x in d.declarators):      # a builtin redeclared
            continue
        decls = []
        for x in d.declarators:
            layout = kept[:]
            if d.location is None:
                if stage == "vs" and direction == "in":
                    loc = program.attributes.get(x.name)
                    if loc is None:            # not given by the case: the first free slot, as GL's linker
                        loc = next(k for k in range(64) if k not in attribute_slots)
                    attribute_slots.add(loc)
                elif stage == "fs" and direction == "out":
                    loc = next(k for k in range(64) if k not in fs_slots)
                    fs_slots.add(loc)
                else:
                    loc = program.locations[(interface_index(program, stage, direction), x.name)]
                layout.insert(0, f"location = {loc}")
            elif len(d.declarators) > 1:
                raise TranslationError(f"layout(location) on several declarators ({x.name})")
            if last and direction == "out" and x.name in captured:
                layout.append(f"xfb_buffer = 0, xfb_offset = {offsets[captured[x.name]]}, xfb_stride = {stride}")
            decls.append(_declaration(layout, quals, d.type + "".join(f"[{s}]" for s in d.type_dims),
                                      shader.text[x.span[0]:x.span[1]]))
        edit.replace(d.span, " ".join(decls))


def _xfb_layout(captures: tuple[tuple[str, str], ...]) -> tuple[list[int], int]:
    """Interleaved, 4 bytes a component, in capture order (as GL_INTERLEAVED_ATTRIBS)."""
    offsets, offset = [], 0
    for _, type_ in captures:
        offsets.append(offset)
        basic = types.basic(type_)
        offset += 4 * (basic.components if basic else 1)
    return offsets, offset


def _replace_identifiers(s: _Stage, replacements: dict[str, str]) -> None:
    """Each use of these identifiers in a function body (a member selection `.x` is not a use)."""
    t = s.shader.tokens
    for i in s.shader.code():
        if t[i].kind == "ident" and t[i].text in replacements and not t[i - 1].is_("."):
            s.edit.replace((t[i].start, t[i].end), replacements[t[i].text])


def _draw_parameters(program: Program, s: _Stage) -> None:
    base_vertex = "gl_BaseVertex" if "base-vertex" in program.without else \
        "(_layer.indexed != 0 ? gl_BaseVertex : 0)"
    draw_id = "gl_DrawID" if "draw-id" in program.without or program.native_draw_id \
        else "(_layer.draw_id + gl_DrawID)"
    _replace_identifiers(s, {
        "gl_VertexID": "gl_VertexIndex", "gl_InstanceID": "(gl_InstanceIndex - gl_BaseInstance)",
        "gl_BaseVertex": base_vertex, "gl_BaseVertexARB": base_vertex, "gl_DrawID": draw_id,
        "gl_DrawIDARB": draw_id, "gl_BaseInstanceARB": "gl_BaseInstance"})


# -- legacy builtins ------------------------------------------------------------------------

def _var(program: Program, key: str, direction: str) -> str:
    """The layer's variable for a legacy slot (gl_TexCoord[] as one array where it is one)."""
    if key.startswith("TexCoord") and program.texcoord_array:
        return f"_hl_TexCoord_{direction}"
    return f"_hl_{key}_{direction}"


def _declare_legacy(program: Program, index: int, key: str, direction: str, arrayed: bool) -> str:
    """The located declaration of one legacy varying (the first element, for the array)."""
    per_vertex = "[]" if arrayed else ""
    if key.startswith("TexCoord") and program.texcoord_array:
        loc = legacy_location(program, index, "TexCoord0")
        size = program.texcoord_array
        return f"layout(location = {loc}) {direction} vec4 _hl_TexCoord_{direction}{per_vertex}[{size}];"
    loc = legacy_location(program, index, key)
    return f"layout(location = {loc}) {direction} {LEGACY_TYPE.get(key, 'vec4')} _hl_{key}_{direction}{per_vertex};"


def _legacy(program: Program, s: _Stage, last: bool) -> None:
    stage, shader, edit, prelude = s.name, s.shader, s.edit, s.prelude
    refs = legacy_refs(shader, stage)
    if not refs:
        return
    order = stage_order(program)
    inputs, outputs = order.index(stage) - 1, order.index(stage)   # interface indices
    naive = "slot-map" in program.without
    t = shader.tokens

    def element(var: str, vertex: str | None, index: str | None, key: str) -> str:
        """The expression for one reference: the array form takes the gl_TexCoord index."""
        out = var + (f"[{vertex}]" if vertex is not None else "")
        if program.texcoord_array and key.startswith("TexCoord") and index is not None:
            out += f"[{index}]"
        return out

    if stage == "fs":
        # Without slot-map, a builtin whose naive location a user varying already holds simply
        # is that varying (one slot, two names): what a careless layer's SPIR-V does at run time.
        alias = _naive_aliases(program, stage, "in", shader) if naive else {}
        for _access, builtin, first, end, index in refs:
            key = legacy_key(builtin, index) or "TexCoord0"
            span = (t[first].start, t[end - 1].end)
            if builtin in ("gl_Color", "gl_SecondaryColor"):
                edit.replace(span, _fs_colour(program, inputs, key, alias, prelude))
            elif key in alias:
                edit.replace(span, alias[key])
            else:
                prelude.append(_declare_legacy(program, inputs, key, "in", False))
                edit.replace(span, element(_var(program, key, "in"), None, index, key))
        return
    alias = _naive_aliases(program, stage, "out", shader) if naive else {}
    for access, builtin, first, end, index in refs:
        key = legacy_key(builtin, index) or "TexCoord0"
        span = (t[first].start, t[end - 1].end)
        vertex = shader.source(first + 2, shader.close(first + 1)) if access != "bare" else None
        if access == "in":
            prelude.append(_declare_legacy(program, inputs, key, "in", True))
            edit.replace(span, element(_var(program, key, "in"), vertex, index, key))
        elif access == "out" or stage == "tcs":
            prelude.append(_declare_legacy(program, outputs, key, "out", True))
            edit.replace(span, element(_var(program, key, "out"), vertex, index, key))
        elif key in alias:
            edit.replace(span, alias[key])
        else:
            if key == "ClipVertex" and last and not naive:
                prelude.append("vec4 _hl_ClipVertex_out;")         # consumed right here, not passed on
            else:
                prelude.append(_declare_legacy(program, outputs, key, "out", False))
            s.legacy_out.add(key)
            edit.replace(span, element(_var(program, key, "out"), None, index, key))


def _naive_aliases(program: Program, stage: str, direction: str, shader: Shader) -> dict[str, str]:
    """legacy name -> the plain vec4 user varying of this stage at the same naive location."""
    index = interface_index(program, stage, direction)
    at = {program.locations[(index, v.name)]: v.name for v in interface(stage, shader)
          if v.direction == direction and v.decl.kind == "variable" and v.decl.type == "vec4" and not v.dims}
    aliases = {}
    for name in program.legacy[index][1]:
        var = at.get(legacy_location(program, index, name))
        if var:
            aliases[name] = f"{var}.x" if LEGACY_TYPE.get(name) == "float" else var
    return aliases


def _fs_colour(program: Program, index: int, front: str, alias: dict[str, str], prelude: list[str]) -> str:
    """gl_Color/gl_SecondaryColor: front unless two-sided lighting picks the back one (the back
    one is read only where the previous stage writes it)."""
    back = front.replace("Front", "Back")
    names = program.legacy[index][1]

    def value(key: str) -> str:
        if key in alias:
            return alias[key]
        if key not in names:                     # nothing writes it: GL leaves it undefined
            return "vec4(0.0)"
        prelude.append(_declare_legacy(program, index, key, "in", False))
        return f"_hl_{key}_in"
    if back in names and "slot-map" not in program.without:
        return f"((_layer.two_side == 0 || gl_FrontFacing) ? {value(front)} : {value(back)})"
    return value(front)


def writes_point_size(shader: Shader) -> bool:
    """Whether a VS, TES or GS writes its gl_PointSize output, as Mesa's GLSL linker counts it
    (outputs_written & VARYING_BIT_PSIZ, where it injects the store): gl_PointSize in its code;
    not gl_in[i].gl_PointSize (an input) nor a gl_PerVertex redeclaration naming it."""
    t = shader.tokens
    return any(t[i].kind == "ident" and t[i].text == "gl_PointSize" and not t[i - 1].is_(".") for i in shader.code())


def _epilogue(program: Program, s: _Stage) -> None:
    """What the last pre-rasterization stage does with each vertex it emits, at the end of main
    and before each return in it (before each EmitVertex() in a GS): GL's point size where no
    shader writes gl_PointSize (Vulkan has no such state) in the `written` point-size path (in
    `default` the driver's 1.0 under maintenance5, as zink leaves it), colour clamping (GL's
    CLAMP_VERTEX_COLOR, TRUE in the compatibility profile), gl_ClipVertex against the user planes."""
    stage, shader, edit = s.name, s.shader, s.edit
    statements = []
    out_block = next((b for b in shader.blocks("out") if b.type == "gl_PerVertex"), None)
    if program.point_size_written and not writes_point_size(shader):
        # A gl_PerVertex redeclared without gl_PointSize gets it, as Mesa's linker adds its own
        # PointSize output whatever the block (gl_nir_add_point_size): without it a point_mode
        # TES or points GS is invalid Vulkan where maintenance5 is not enabled
        # (VUID-VkGraphicsPipelineCreateInfo-TessellationEvaluation-07723, Geometry-07725).
        if out_block is not None and "gl_PointSize" not in out_block.member_names():
            edit.insert(out_block.members[-1].span[1], " float gl_PointSize;")
        statements.append("gl_PointSize = 1.0;")
    for key in COLOURS:
        if key in s.legacy_out:
            statements.append(f"_hl_{key}_out = clamp(_hl_{key}_out, 0.0, 1.0);")
    if "ClipVertex" in s.legacy_out and "slot-map" not in program.without:
        planes = uniform_block.CLIP_PLANES
        if out_block is not None:
            if "gl_ClipDistance" not in out_block.member_names():
                edit.insert(out_block.members[-1].span[1], f" float gl_ClipDistance[{planes}];")
        elif not any(x.name == "gl_ClipDistance" for d in shader.variables("out") for x in d.declarators):
            s.prelude.append(f"out float gl_ClipDistance[{planes}];")
        statements.append(f"for (int _i = 0; _i < {planes}; _i++) gl_ClipDistance[_i] = "
                          f"((_layer.clip_enabled >> _i) & 1) != 0 ? dot({uniform_block.PLANES}[_i], "
                          f"_hl_ClipVertex_out) : 1.0;")
    if not statements:
        return
    code = " ".join(statements)
    t = shader.tokens
    if stage == "gs":
        for i, token in enumerate(t):
            if token.text in ("EmitVertex", "EmitStreamVertex") and i + 1 < len(t) and t[i + 1].is_("("):
                end = shader.statement_end(i)
                edit.insert(token.start, "{ " + code + " ")
                edit.insert(t[end].end, " }")
        return
    main = shader.main
    assert main.body is not None            # Shader.main has a body
    for start, end in main.returns:
        edit.insert(start, "{ " + code + " ")
        edit.insert(end, " }")
    edit.insert(main.body[1] - 1, "    " + code + "     // the layer's, for each vertex\n")


def _vertex_state(program: Program, s: _Stage) -> str:
    """What a compatibility VS reads from GL's vertex state: gl_Vertex is attribute 0 (GL
    aliases the two); the current colour, texture coordinates, normal and fog coordinate are
    GL's initial values, as the harness never sets them or gives them arrays. Returns the name
    gl_Vertex has now (for ftransform())."""
    replacements = {"gl_Color": "vec4(1.0)", "gl_SecondaryColor": "vec4(0.0, 0.0, 0.0, 1.0)",
                    "gl_Normal": "vec3(0.0, 0.0, 1.0)", "gl_FogCoord": "0.0"}
    replacements |= {f"gl_MultiTexCoord{i}": "vec4(0.0, 0.0, 0.0, 1.0)" for i in range(TEXCOORDS)}
    named = [n for n, loc in program.attributes.items() if loc == 0 and s.shader.uses(n)]
    vertex = named[0] if named else "_hl_Vertex"
    if not named and (s.shader.uses("gl_Vertex") or s.shader.uses("ftransform")):
        s.prelude.append("layout(location = 0) in vec4 _hl_Vertex;")
    replacements["gl_Vertex"] = vertex
    _replace_identifiers(s, replacements)
    return vertex


def _fragment_outputs(s: _Stage) -> None:
    """gl_FragColor and gl_FragData[] as located outputs (location 0 is the one attachment)."""
    shader = s.shader
    if shader.uses("gl_FragColor"):
        s.prelude.append("layout(location = 0) out vec4 _gl_FragColor;")
    if shader.uses("gl_FragData"):
        t = shader.tokens
        sizes = [int(t[i + 2].text) + 1 if i + 3 < len(t) and t[i + 3].is_("]") and t[i + 2].text.isdigit()
                 else TEXCOORDS for i in shader.references("gl_FragData")]
        s.prelude.append(f"layout(location = 0) out vec4 _gl_FragData[{max(sizes)}];")
    _replace_identifiers(s, {"gl_FragColor": "_gl_FragColor", "gl_FragData": "_gl_FragData"})
