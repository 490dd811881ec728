"""Generate the separable-interface variants of the README's table as piglit shader_tests.

Usage: python3 gen.py OUTDIR; then ../run.sh OUTDIR/*.shader_test (results.tsv: 2026-11-26).
r, g, b of the probed colour are (the value after the array, or pair[1]; vertex_id or f; pair[0]) / 8:
expected (6, 7, 5) / 8 = (191, 223, 159) in 8 bits.
"""
import sys, os
OUT = sys.argv[1] if len(sys.argv) > 1 else "out"
os.makedirs(OUT, exist_ok=True)

# members: list of (type, name, value_glsl, check_expr_fmt)
def block_members(kind):
    # returns list of (decl, write stmt fmt with {p}, read expr fmt with {p})
    return kind

FS = """[fragment shader]
#version 410 core
layout(location = 0) flat in vec4 color;
layout(location = 0) out vec4 frag;
void main() { frag = color; }
"""

def test(name, vs_decl, vs_body, consumer_stage, cons_decl, cons_reads, gs=False, tcs=False, sso=True, ver="410"):
    """cons_reads: GLSL expression list r,g,b values (each /8) reading via accessor {v} (e.g. v_in[i] or v_in)."""
    if consumer_stage != "fs":
        vs_decl = vs_decl.replace("flat ", ""); cons_decl = cons_decl.replace("flat ", "")
    req = "[require]\nGL CORE >= 4.1\nGLSL >= 4.10\n" + ("SSO ENABLED\n" if sso else "") + "\n"
    vs = f"""[vertex shader]
#version {ver} core
in vec4 piglit_vertex;
out gl_PerVertex {{ vec4 gl_Position; }};
{vs_decl}
void main()
{{
    gl_Position = piglit_vertex;
{vs_body}
}}

"""
    r, g, b = cons_reads
    parts = [req, vs]
    if consumer_stage == "tes":
        if tcs:
            parts.append(f"""[tessellation control shader]
#version {ver} core
layout(vertices = 4) out;
in gl_PerVertex {{ vec4 gl_Position; }} gl_in[];
out gl_PerVertex {{ vec4 gl_Position; }} gl_out[];
{cons_decl.replace('v_in[]', 'v_in[]')}
layout(location = 0) out vec4 tc_color[];
void main()
{{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
    tc_color[gl_InvocationID] = vec4({r.format(v='v_in[gl_InvocationID]', i='gl_InvocationID')}, {g.format(v='v_in[gl_InvocationID]', i='gl_InvocationID')}, {b.format(v='v_in[gl_InvocationID]', i='gl_InvocationID')}, 1.0) / vec4(8.0, 8.0, 8.0, 1.0);
}}

""")
            parts.append(f"""[tessellation evaluation shader]
#version {ver} core
layout(quads, equal_spacing) in;
in gl_PerVertex {{ vec4 gl_Position; }} gl_in[];
out gl_PerVertex {{ vec4 gl_Position; }};
layout(location = 0) in vec4 tc_color[];
layout(location = 0) flat out vec4 color;
void main()
{{
    gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x),
                      mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x), gl_TessCoord.y);
    color = tc_color[1];
}}

""")
        else:
            parts.append(f"""[tessellation evaluation shader]
#version {ver} core
layout(quads, equal_spacing) in;
in gl_PerVertex {{ vec4 gl_Position; }} gl_in[];
out gl_PerVertex {{ vec4 gl_Position; }};
{cons_decl}
layout(location = 0) flat out vec4 color;
void main()
{{
    gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x),
                      mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x), gl_TessCoord.y);
    color = vec4({r.format(v='v_in[1]', i='1')}, {g.format(v='v_in[1]', i='1')}, {b.format(v='v_in[1]', i='1')}, 1.0) / vec4(8.0, 8.0, 8.0, 1.0);
}}

""")
        test_sec = """[test]
clear color 0.0 0.0 0.0 0.0
clear
patch parameter vertices 4
patch parameter default level outer 1 1 1 1
patch parameter default level inner 1 1
draw rect patch -1 -1 2 2
probe all rgba 0.75 0.875 0.625 1
"""
    elif consumer_stage == "gs":
        parts.append(f"""[geometry shader]
#version {ver} core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex {{ vec4 gl_Position; }} gl_in[];
out gl_PerVertex {{ vec4 gl_Position; }};
{cons_decl}
layout(location = 0) flat out vec4 color;
void main()
{{
    for (int i = 0; i < 3; i++) {{
        gl_Position = gl_in[i].gl_Position;
        color = vec4({r.format(v='v_in[i]', i='i')}, {g.format(v='v_in[i]', i='i')}, {b.format(v='v_in[i]', i='i')}, 1.0) / vec4(8.0, 8.0, 8.0, 1.0);
        EmitVertex();
    }}
}}

""")
        test_sec = """[test]
clear color 0.0 0.0 0.0 0.0
clear
draw rect -1 -1 2 2
probe all rgba 0.75 0.875 0.625 1
"""
    elif consumer_stage == "fs":
        parts = [req, vs]
        parts.append(f"""[fragment shader]
#version {ver} core
{cons_decl}
layout(location = 0) out vec4 frag;
void main()
{{
    frag = vec4({r.format(v='v_in', i='')}, {g.format(v='v_in', i='')}, {b.format(v='v_in', i='')}, 1.0) / vec4(8.0, 8.0, 8.0, 1.0);
}}

""")
        test_sec = """[test]
clear color 0.0 0.0 0.0 0.0
clear
draw rect -1 -1 2 2
probe all rgba 0.75 0.875 0.625 1
"""
    if consumer_stage != "fs":
        parts.append(FS + "\n")
    parts.append(test_sec)
    with open(os.path.join(OUT, name + ".shader_test"), "w") as f:
        f.write("".join(parts))

# r = pair[1] (6), g = vertex_id (7), b = pair[0] (5)
def blk(members, inst, arr, loc=None, flat=True):
    lay = ""
    return members

variants = {}
FLATQ = "flat "
def mk(name, stage, vs_decl, vs_body, cons_decl, reads, **kw):
    test(name, vs_decl, vs_body, stage, cons_decl, reads, **kw)

W_BLOCK = """    v_out.attr = vec4(1.0, 2.0, 3.0, 4.0);
    v_out.pair = float[2](5.0, 6.0);
    v_out.vertex_id = 7;"""
R_BLOCK = ("{v}.pair[1]", "float({v}.vertex_id)", "{v}.pair[0]")

def blockdecl(q, inst, members):
    return f"{q} VertexData {{\n{members}\n}} {inst};"

M_FULL = "    vec4 attr;\n    float pair[2];\n    {f}int vertex_id;"
for stage in ("tes", "gs", "fs"):
    arr = "[]" if stage in ("tes", "gs") else ""
    fq = "flat " if stage == "fs" else ""
    # 1. original block
    mk(f"{stage}-block-orig", stage, blockdecl("out", "v_out", M_FULL.format(f="flat ")), W_BLOCK,
       blockdecl("in", "v_in" + arr, M_FULL.format(f="flat ")), R_BLOCK)
    # 2. block without attr
    M2 = "    float pair[2];\n    flat int vertex_id;"
    W2 = "    v_out.pair = float[2](5.0, 6.0);\n    v_out.vertex_id = 7;"
    mk(f"{stage}-block-pair-id", stage, blockdecl("out", "v_out", M2), W2, blockdecl("in", "v_in" + arr, M2), R_BLOCK)
    # 3. block float pair[2] + float f (no int)
    M3 = "    float pair[2];\n    float f;"
    W3 = "    v_out.pair = float[2](5.0, 6.0);\n    v_out.f = 7.0;"
    mk(f"{stage}-block-pair-float", stage, blockdecl("out", "v_out", M3), W3, blockdecl("in", "v_in" + arr, M3),
       ("{v}.pair[1]", "{v}.f", "{v}.pair[0]"))
    # 4. block without array: float a, float b, float c
    M4 = "    float a;\n    float b;\n    float c;"
    W4 = "    v_out.a = 5.0; v_out.b = 6.0; v_out.c = 7.0;"
    mk(f"{stage}-block-scalars", stage, blockdecl("out", "v_out", M4), W4, blockdecl("in", "v_in" + arr, M4),
       ("{v}.b", "{v}.c", "{v}.a"))
    # 5. block with only float pair[2] (+ nothing after)
    M5 = "    float pair[2];"
    W5 = "    v_out.pair = float[2](5.0, 6.0);"
    mk(f"{stage}-block-pair-only", stage, blockdecl("out", "v_out", M5), W5, blockdecl("in", "v_in" + arr, M5),
       ("{v}.pair[1]", "7.0", "{v}.pair[0]"))
    # 6. block with vec4 arr2[2] + float f
    M6 = "    vec4 pair[2];\n    float f;"
    W6 = "    v_out.pair = vec4[2](vec4(5.0), vec4(6.0));\n    v_out.f = 7.0;"
    mk(f"{stage}-block-vec4pair-float", stage, blockdecl("out", "v_out", M6), W6, blockdecl("in", "v_in" + arr, M6),
       ("{v}.pair[1].x", "{v}.f", "{v}.pair[0].x"))
    # 7. loose variables
    L = "out float pair[2];\nflat out int vertex_id;"
    WL = "    pair = float[2](5.0, 6.0);\n    vertex_id = 7;"
    if stage == "fs":
        LI = "in float pair[2];\nflat in int vertex_id;"
        RL = ("pair[1]", "float(vertex_id)", "pair[0]")
    else:
        LI = "in float pair[][2];\nflat in int vertex_id[];" if False else "in float pair[][2];\nin int vertex_id[];"
        RL = ("pair[{v}][1]", "float(vertex_id[{v}])", "pair[{v}][0]")
    if stage != "fs":
        # accessor {v} is like v_in[1] - adapt
        RL2 = tuple(s.replace("pair[{v}]", "pair{v}").replace("vertex_id[{v}]", "vertex_id{v}") for s in RL)
    mk(f"{stage}-loose-pair-id", stage, L, WL, LI,
       RL if stage == "fs" else ("pair[{i}][1]", "float(vertex_id[{i}])", "pair[{i}][0]"), ver="430")
    # 8. explicit locations on members
    M8o = "    layout(location = 0) vec4 attr;\n    layout(location = 1) float pair[2];\n    layout(location = 3) {f}int vertex_id;"
    mk(f"{stage}-block-explicit-loc", stage, blockdecl("out", "v_out", M8o.format(f="flat ")), W_BLOCK,
       blockdecl("in", "v_in" + arr, M8o.format(f="flat ")), R_BLOCK)
    # 9. explicit location on the block
    mk(f"{stage}-block-explicit-blockloc", stage, blockdecl("layout(location = 0) out", "v_out", M_FULL.format(f="flat ")), W_BLOCK,
       blockdecl("layout(location = 0) in", "v_in" + arr, M_FULL.format(f="flat ")), R_BLOCK)
    # 10. anonymous-instance? (in TES must be arrayed, so skip); int before array
    M10 = "    flat int vertex_id;\n    float pair[2];"
    mk(f"{stage}-block-id-pair", stage, blockdecl("out", "v_out", M10), W2, blockdecl("in", "v_in" + arr, M10), R_BLOCK)
    # 11. pair[3]: which elements
    M11 = "    float pair[3];\n    float f;"
    W11 = "    v_out.pair = float[3](5.0, 6.0, 9.0);\n    v_out.f = 7.0;"
    mk(f"{stage}-block-pair3-float", stage, blockdecl("out", "v_out", M11), W11, blockdecl("in", "v_in" + arr, M11),
       ("{v}.pair[1]", "{v}.f", "{v}.pair[0]"))
    # 12. block member vec2 (not array) + float
    M12 = "    vec2 pair;\n    float f;"
    W12 = "    v_out.pair = vec2(5.0, 6.0);\n    v_out.f = 7.0;"
    mk(f"{stage}-block-vec2-float", stage, blockdecl("out", "v_out", M12), W12, blockdecl("in", "v_in" + arr, M12),
       ("{v}.pair.y", "{v}.f", "{v}.pair.x"))

# TCS present: VS -> TCS separable (TCS reads the block), TCS -> TES explicit locations
M_T = "    vec4 attr;\n    float pair[2];\n    int vertex_id;"
mk("tcs-block-orig", "tes", blockdecl("out", "v_out", M_T), W_BLOCK, blockdecl("in", "v_in[]", M_T), R_BLOCK, tcs=True)
mk("tcs-block-scalars", "tes", blockdecl("out", "v_out", "    float a;\n    float b;\n    float c;"),
   "    v_out.a = 5.0; v_out.b = 6.0; v_out.c = 7.0;",
   blockdecl("in", "v_in[]", "    float a;\n    float b;\n    float c;"), ("{v}.b", "{v}.c", "{v}.a"), tcs=True)
# non-separable controls (one program)
mk("nosso-tes-block-orig", "tes", blockdecl("out", "v_out", M_T), W_BLOCK, blockdecl("in", "v_in[]", M_T), R_BLOCK, sso=False)
mk("nosso-gs-block-orig", "gs", blockdecl("out", "v_out", M_T), W_BLOCK, blockdecl("in", "v_in[]", M_T), R_BLOCK, sso=False)
mk("nosso-fs-block-orig", "fs", blockdecl("out", "v_out", M_FULL.format(f="flat ")), W_BLOCK, blockdecl("in", "v_in", M_FULL.format(f="flat ")), R_BLOCK, sso=False)
# minimal: block with float pair[2] only, TES (the smallest)
for stage in ("tes",):
    Mv = "    vec2 pair[2];\n    float f;"
    mk(f"{stage}-block-vec2pair-float", stage, blockdecl("out", "v_out", Mv),
       "    v_out.pair = vec2[2](vec2(5.0), vec2(6.0));\n    v_out.f = 7.0;",
       blockdecl("in", "v_in[]", Mv), ("{v}.pair[1].x", "{v}.f", "{v}.pair[0].x"))
    # loose float array alone
    mk(f"{stage}-loose-pair-only", stage, "out float pair[2];", "    pair = float[2](5.0, 6.0);",
       "in float pair[][2];", ("pair[{i}][1]", "7.0", "pair[{i}][0]"), ver="430")
    # loose float array with explicit location
    mk(f"{stage}-loose-pair-explicit-loc", stage, "layout(location = 0) out float pair[2];\nlayout(location = 2) out int vertex_id;",
       "    pair = float[2](5.0, 6.0);\n    vertex_id = 7;",
       "layout(location = 0) in float pair[][2];\nlayout(location = 2) in int vertex_id[];", ("pair[{i}][1]", "float(vertex_id[{i}])", "pair[{i}][0]"), ver="430")
