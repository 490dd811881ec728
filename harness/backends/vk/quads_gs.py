"""The geometry shader a GL-on-Vulkan layer injects for GL_QUADS (and quad strips rewritten as
quads, primconvert.py) and for a polygon's outline, as zink draws GL_QUADS: lines-adjacency
input, four vertices a quad (zink_compiler.c, zink_create_quads_emulation_gs).

Kinds:
- `quads`: each quad as two triangles (0, 1, 2) and (0, 2, 3), its winding kept (polygon mode
  FILL or POINT rasterizes them as GL the quad);
- `quad-outline`: each quad's four edges as one line strip (polygon mode LINE: GL draws the
  quad's edges, not a diagonal);
- `edges`: a polygon's edge (p, a, b, p) as the line a-b (primconvert.POLYGON_EDGES).
Every emitted vertex takes the flat outputs of the provoking input vertex (`provoking`), so
whatever vertex Vulkan's provoking mode picks, the primitive has GL's flat values (Table 13.2);
gl_PrimitiveID is the input primitive's, the quad's number (15.2.2: "incremented after each
complete quad"). `provoking` None (the `quads-provoking` hazard): each vertex keeps its own flat
outputs and the pipeline's convention picks among the triangles' vertices, as a GS that ignored
GL's provoking vertex would draw them. The VS's outputs come from the model of its translated
text (harness/glsl), as the passthrough TCS's (tcs.py).
"""
from __future__ import annotations

from harness.backends.vk.tcs import location_only, members, per_vertex
from harness.glsl import types
from harness.glsl.model import Declaration, parse

KINDS = ("quads", "quad-outline", "edges")
# Each kind's output and its primitives as input vertex numbers (an EndPrimitive after each).
_OUTPUT = {"quads": ("triangle_strip", ((0, 1, 2), (0, 2, 3))), "quad-outline": ("line_strip", ((0, 1, 2, 3, 0),)),
           "edges": ("line_strip", ((1, 2),))}
INTERPOLATION = ("flat", "smooth", "noperspective", "centroid", "sample")


def _flat(d: Declaration) -> bool:
    """Whether an output is flat-shaded: declared `flat`, or of an integer or double type (GL
    requires those flat in the FS that reads them)."""
    basic = types.basic(d.type)
    return "flat" in d.qualifiers or (basic is not None and basic.scalar in ("int", "uint", "double", "bool"))


def quads_gs(vs: str, kind: str, provoking: int | None) -> str:
    """The GS of `kind` for the translated VS `vs`, flat outputs from input vertex `provoking`."""
    if kind not in KINDS:
        raise ValueError(f"unknown quads GS kind {kind!r} (one of {', '.join(KINDS)})")
    output, primitives = _OUTPUT[kind]
    shader = parse(vs)
    lines = ["#version 460", "layout(lines_adjacency) in;",
             f"layout({output}, max_vertices = {sum(map(len, primitives))}) out;"]
    lines += [shader.text[s.span[0]:s.span[1]] for s in shader.structs()]
    body = ["gl_Position = gl_in[v].gl_Position;", "gl_PrimitiveID = gl_PrimitiveIDIn;"]
    redeclared, copies = per_vertex(shader, "gl_in[]", "", "", "gl_in[v].")
    lines += redeclared
    body += copies
    source = "p" if provoking is not None else "v"
    for i, (d, x) in enumerate((decl, x) for decl in shader.variables("out") for x in decl.declarators
                               if not x.name.startswith("gl_")):
        layout, type_ = location_only(d), d.type + "".join(f"[{s}]" for s in d.type_dims)
        quals = " ".join(q for q in d.qualifiers if q in INTERPOLATION)
        lines.append(f"layout({layout}) in {type_} _quad_in{i}[]{x.array};")
        lines.append(f"layout({layout}) {quals} out {type_} _quad_out{i}{x.array};".replace(")  out", ") out"))
        body.append(f"_quad_out{i} = _quad_in{i}[{source if _flat(d) else 'v'}];")
    for i, b in enumerate(b for b in shader.blocks("out") if b.type != "gl_PerVertex"):
        layout, declared = location_only(b), members(shader, b, keep_interpolation=True)
        lines.append(f"layout({layout}) in {b.type} {{ {members(shader, b)} }} _quad_block_in{i}[];")
        lines.append(f"layout({layout}) out {b.type} {{ {declared} }} _quad_block_out{i};")
        for m in b.members:
            for x in m.declarators:
                from_ = source if _flat(m) or "flat" in b.qualifiers else "v"
                body.append(f"_quad_block_out{i}.{x.name} = _quad_block_in{i}[{from_}].{x.name};")
    lines.append("\nvoid emit(int v, int p)\n{\n" + "".join(f"    {s}\n" for s in body) + "    EmitVertex();\n}")
    p = provoking if provoking is not None else 0
    main = "".join("".join(f"    emit({v}, {p});\n" for v in prim) + "    EndPrimitive();\n" for prim in primitives)
    return "\n".join(lines) + "\n\nvoid main()\n{\n" + main + "}\n"
