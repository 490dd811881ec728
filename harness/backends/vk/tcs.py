"""The pass-through TCS a GL-on-Vulkan layer injects for a program with a TES and no TCS.

Vulkan tessellates only with both stages and has no default levels. The generated TCS copies
every output of the (translated) VS for gl_InvocationID, whatever its type, builtins included,
and writes the levels from the push constant the runner updates before each draw. Switched off
(`--vk-without passthrough-tcs`) it is the naive version: position only, levels fixed at 1.
The VS's outputs come from the model of its translated text (harness/glsl).
"""
from __future__ import annotations

from harness.glsl.model import Declaration, Shader, parse
from harness.backends.vk.translate import LAYER_BLOCK

INTERPOLATION = ("flat", "smooth", "noperspective", "centroid", "sample", "invariant", "precise", "out")


def passthrough_tcs(vs: str, patch_vertices: int, faithful: bool = True) -> str:
    shader = parse(vs)
    lines = ["#version 460", LAYER_BLOCK, f"layout(vertices = {patch_vertices}) out;"]
    lines += [shader.text[s.span[0]:s.span[1]] for s in shader.structs()]
    body = ["gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;"]
    if faithful:
        redeclared, copies = per_vertex(shader, "gl_in[gl_MaxPatchVertices]", " gl_out[]", "gl_out[gl_InvocationID].",
                                        "gl_in[gl_InvocationID].")
        lines += redeclared
        body += copies
        for i, (d, x) in enumerate((decl, x) for decl in shader.variables("out") for x in decl.declarators
                                   if not x.name.startswith("gl_")):
            if d.layout is None or d.layout.has("xfb_offset"):
                continue
            layout, type_ = location_only(d), d.type + "".join(f"[{s}]" for s in d.type_dims)
            lines.append(f"layout({layout}) in {type_} _pass_in{i}[]{x.array};")
            lines.append(f"layout({layout}) out {type_} _pass_out{i}[]{x.array};")
            body.append(f"_pass_out{i}[gl_InvocationID] = _pass_in{i}[gl_InvocationID];")
        for i, b in enumerate(b for b in shader.blocks("out") if b.type != "gl_PerVertex"):
            layout, declared = location_only(b), members(shader, b)
            lines.append(f"layout({layout}) in {b.type} {{ {declared} }} _pass_block_in{i}[];")
            lines.append(f"layout({layout}) out {b.type} {{ {declared} }} _pass_block_out{i}[];")
            for name in b.member_names():
                body.append(f"_pass_block_out{i}[gl_InvocationID].{name} = _pass_block_in{i}[gl_InvocationID].{name};")
        body += [f"gl_TessLevelOuter[{i}] = _layer.outer[{i}];" for i in range(4)]
        body += [f"gl_TessLevelInner[{i}] = _layer.inner[{i}];" for i in range(2)]
    else:
        body += [f"gl_TessLevelOuter[{i}] = 1.0;" for i in range(4)]
        body += [f"gl_TessLevelInner[{i}] = 1.0;" for i in range(2)]
    return "\n".join(lines) + "\n\nvoid main()\n{\n" + "".join(f"    {b}\n" for b in body) + "}\n"


def per_vertex(shader: Shader, inputs: str, outputs: str, dst: str, src: str) -> tuple[list[str], list[str]]:
    """gl_PerVertex as the VS has it (redeclared the same way, or left implicit like the VS's) and
    the copies of the builtins it writes beside gl_Position: (declarations, statements) of a stage
    that passes the VS's vertices on. `inputs`/`outputs`: the blocks' instance names (with their
    leading space where there is one); `dst`/`src`: what prefixes an output and an input."""
    declared: list[str] = []
    block = next((b for b in shader.blocks("out") if b.type == "gl_PerVertex"), None)
    if block:
        kept = members(shader, block)
        declared += [f"in gl_PerVertex {{ {kept} }} {inputs};", f"out gl_PerVertex {{ {kept} }}{outputs};"]
    copies = [f"{dst}gl_PointSize = {src}gl_PointSize;"] if shader.uses("gl_PointSize") else []
    copies += [f"{dst}gl_ClipDistance[{k}] = {src}gl_ClipDistance[{k}];" for k in range(clip_distances(shader))]
    return declared, copies


def location_only(d: Declaration) -> str:
    """Keep location/component; a TCS has no use for xfb or other qualifiers."""
    return ", ".join(f"{k} = {v}" for k, v in (d.layout.items if d.layout else ()) if k in ("location", "component"))


def members(shader: Shader, block: Declaration, keep_interpolation: bool = False) -> str:
    """A block's members without storage qualifiers, and without interpolation ones (a TCS's own
    are implied; a GS's outputs keep them where `keep_interpolation`)."""
    out = []
    for m in block.members:
        layout = location_only(m)
        quals = [q for q in m.qualifiers if q not in INTERPOLATION
                 or (keep_interpolation and q in INTERPOLATION[:-3])]
        decls = ", ".join(shader.text[x.span[0]:x.span[1]] for x in m.declarators)
        type_ = m.type + "".join(f"[{s}]" for s in m.type_dims)
        out.append((f"layout({layout}) " if layout else "") + " ".join(quals + [type_]) + f" {decls};")
    return " ".join(out)


def clip_distances(shader: Shader) -> int:
    """gl_ClipDistance's size: as declared (alone or in gl_PerVertex), else the highest constant index used."""
    for d in shader.declarations:
        for x in [x for d2 in (d.members if d.kind == "block" else (d,)) for x in d2.declarators]:
            if x.name == "gl_ClipDistance" and x.dims and x.dims[0].isdigit():
                return int(x.dims[0])
    t, used = shader.tokens, [0]
    for i in shader.references("gl_ClipDistance"):
        if i + 3 < len(t) and t[i + 1].is_("[") and t[i + 2].text.isdigit() and t[i + 3].is_("]"):
            used.append(int(t[i + 2].text) + 1)
    return max(used)
