"""The GLSL front end on text, without a driver: tokens, the model of the global scope, edits at
its spans, glslang's preprocessing, and the translator on the programs that broke the line
regexes (translated, then compiled by glslang)."""
from __future__ import annotations

import shutil

import pytest

from harness.glsl import types
from harness.glsl.model import Editor, ParseError, parse
from harness.glsl.preprocess import needed, preprocess
from harness.glsl.tokens import tokenize
from harness.backends.vk import spirv
from harness.backends.vk.tcs import passthrough_tcs
from harness.backends.vk.translate import Program, TranslationError, translate

GLSLANG = pytest.mark.skipif(not shutil.which("glslangValidator"), reason="glslang-tools not installed")

SOURCE = """#version 430 compatibility
#extension GL_ARB_foo : enable
struct S { vec2 a[2]; float b; };
layout(location = 3, component = 2) flat out vec2 a /* , c */, b[2][3];
out Block { layout(location = 9) vec4 x; S s[2]; } blk[4];
uniform mat4 m = mat4(1.0), n;
out gl_PerVertex { vec4 gl_Position; vec4 gl_ClipVertex; };
layout(vertices = 3) out;
invariant gl_Position;
precision highp float;
void helper(in vec4 c) { gl_FrontColor = c; }
void later(vec4 c);
void main() { if (a.x > 0.0) return; helper(vec4(1)); { } return ; }
void later(vec4 c) { gl_TexCoord[int(c.x)] = c; }
"""


def test_tokens_cover_the_text_and_keep_directives_whole():
    text = "#version 110\n  #define X \\\n  1\nint/*c*/y<<=2;// z\n"
    tokens = tokenize(text)
    assert "".join(t.text for t in tokens) == text
    assert [t.text for t in tokens if t.kind == "directive"] == ["#version 110", "  #define X \\\n  1"]
    assert [t.text for t in tokens if t.kind in ("ident", "punct", "number")] == ["int", "y", "<<=", "2", ";"]


def test_the_model_has_every_declarator_block_struct_and_function():
    shader = parse(SOURCE)
    assert (shader.version, shader.profile) == (430, "compatibility")
    kinds = [(d.kind, d.type) for d in shader.declarations]
    assert kinds == [("struct", "S"), ("variable", "vec2"), ("block", "Block"), ("variable", "mat4"),
                     ("block", "gl_PerVertex"), ("default", ""), ("qualifier", ""), ("precision", "float")]
    out = shader.variables("out")[0]
    assert out.layout.items == (("location", "3"), ("component", "2")) and out.location == 3
    assert out.qualifiers == ("flat", "out") and out.storage == "out"
    assert [(x.name, x.dims) for x in out.declarators] == [("a", ()), ("b", ("2", "3"))]
    block = shader.blocks("out")[0]
    assert block.instance.name == "blk" and block.instance.dims == ("4",)
    assert block.member_names() == ["x", "s"] and block.members[0].location == 9
    assert block.members[1].declarators[0].dims == ("2",)
    uniform = shader.variables("uniform")[0]
    assert [(x.name, x.initializer) for x in uniform.declarators] == [("m", "mat4(1.0)"), ("n", None)]
    assert [(f.name, f.body is not None) for f in shader.functions] == [
        ("helper", True), ("later", False), ("main", True), ("later", True)]
    main = shader.main
    assert [SOURCE[a:b] for a, b in main.returns] == ["return;", "return ;"]
    assert SOURCE[main.body[0]] == "{" and SOURCE[main.body[1] - 1] == "}"
    assert SOURCE[shader.after_directives():].startswith("\nstruct S")


def test_code_tokens_are_the_function_bodies_only():
    shader = parse(SOURCE)
    code = {shader.tokens[i].text for i in shader.code()}
    assert "gl_FrontColor" in code and "gl_TexCoord" in code
    assert "gl_ClipVertex" not in code and "Block" not in code          # declarations


def test_edits_apply_at_model_spans_and_refuse_overlaps():
    shader = parse("out vec4 a, b;\nvoid main() { return; }\n")
    edit = Editor(shader.text)
    edit.replace(shader.declarations[0].span, "X;")
    edit.insert(shader.main.returns[0][0], "{ ")
    edit.insert(shader.main.returns[0][1], " }")
    assert edit.apply() == "X;\nvoid main() { { return; } }\n"
    edit.replace((0, 5), "")
    with pytest.raises(ParseError, match="overlapping"):
        edit.apply()


@pytest.mark.parametrize("text", ["void main() { (; }", "void main() {", "out vec4 a b;",
                                  "in vec4 a", "in vec4 a =", "in vec4 a = 1", "struct S { float x"])  # cut short
def test_malformed_text_is_a_parse_error(text):
    with pytest.raises(ParseError):
        parse(text)


def test_types():
    assert types.basic("dmat2x3") == types.Basic("double", 3, 2)
    assert types.basic("uvec3") == types.Basic("uint", 3, 1) and types.basic("sampler2D") is None
    assert types.locations("dvec4", {}) == 2 and types.locations("mat3", {}) == 3
    assert types.locations("S", {"S": [("vec2", ("2",)), ("dmat4", ())]}) == 2 + 8
    assert types.element_count(("3", "2")) == 6 and types.element_count(("",)) == 1


def test_preprocessing_is_needed_only_for_a_preprocessor():
    assert not needed(tokenize("#version 150\n#extension GL_X : enable\nvoid main() {}\n"))
    assert needed(tokenize("#version 150\n#define A 1\nvoid main() {}\n"))
    assert needed(tokenize("#version 150\nvoid main() { int v = __VERSION__; }\n"))
    plain = "#version 150\n// comment\nvoid main() {}\n"
    assert preprocess("vs", plain) is plain


@GLSLANG
def test_glslang_resolves_macros_and_conditionals(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = preprocess("vs", "#version 120\n#define N 3\n#if N > 2\nvarying vec4 a[N];\n#else\nvarying float a;\n"
                            "#endif\nvoid main() { gl_Position = a[0]; }\n")
    shader = parse(text)
    assert [(d.type, d.declarators[0].dims) for d in shader.variables()] == [("vec4", ("3",))]


def compile_all(program: Program) -> dict[str, str]:
    stages = translate(program)
    if "tes" in stages and "tcs" not in stages:
        stages["tcs"] = passthrough_tcs(stages["vs"], 3)
    for stage, source in stages.items():
        assert spirv.compile_glsl(stage, source), stage
    return stages


@GLSLANG
def test_the_three_programs_of_the_issue(tmp_path, monkeypatch):
    """`out vec4 a, b;`; gl_PointSize and gl_ClipVertex code with a helper after main; a helper
    before main writing gl_FrontColor."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fs = "#version 130\nin vec4 a, b;\nout vec4 c;\nvoid main() { c = a + b; }\n"
    vs = "#version 130\nout vec4 a, b;\nvoid main() { gl_Position = vec4(0.0); a = b = vec4(1.0); }\n"
    stages = compile_all(Program({"vs": vs, "fs": fs}, frozenset()))
    vs_model = parse(stages["vs"])
    locations = {x.name: d.location for d in vs_model.variables("out") for x in d.declarators}
    assert sorted(locations) == ["a", "b"] and len(set(locations.values())) == 2
    after = ("#version 120\nvoid helper();\nvoid main() { gl_Position = gl_Vertex; helper(); }\n"
             "void helper() { gl_ClipVertex = gl_Vertex; }\n")
    stages = compile_all(Program({"vs": after, "fs": "void main() { gl_FragColor = vec4(1.0); }"}, frozenset()))
    main = parse(stages["vs"]).main
    assert "gl_ClipDistance" in stages["vs"][main.body[0]:main.body[1]]          # inside main, not helper
    before = ("#version 110\nfloat helper() { gl_FrontColor = vec4(1.0); return 1.0; }\n"
              "void main() { gl_Position = gl_Vertex * helper(); }\n")
    compile_all(Program({"vs": before, "fs": "void main() { gl_FragColor = gl_Color; }"}, frozenset()))


@GLSLANG
def test_epilogue_before_each_return_and_each_emit(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    vs = "#version 150 compatibility\nvoid main() { gl_Position = gl_Vertex; if (gl_Vertex.x > 0.0) return; }\n"
    gs = ("#version 150 compatibility\nlayout(points) in;\nlayout(points, max_vertices = 2) out;\n"
          "void emit() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }\n"
          "void main() { if (true) EmitVertex(); emit(); }\n")
    stages = compile_all(Program({"vs": vs, "fs": "void main() { gl_FragColor = vec4(1.0); }"}, frozenset()))
    assert stages["vs"].count("gl_PointSize = 1.0;") == 2                       # before the return, at the end
    stages = compile_all(Program({"vs": vs, "gs": gs, "fs": "void main() { gl_FragColor = vec4(1.0); }"},
                                 frozenset()))
    assert stages["gs"].count("{ gl_PointSize = 1.0; EmitVertex(); }") == 2
    assert "gl_PointSize" not in stages["vs"]                                  # the GS is the last stage now


def test_fragment_outputs_get_distinct_locations():
    fs = "#version 330\nout vec4 a, b;\nlayout(location = 0) out vec4 c;\nvoid main() { a = b = c = vec4(1.0); }\n"
    shader = parse(translate(Program({"vs": "#version 330\nvoid main() { gl_Position = vec4(0.0); }\n",
                                      "fs": fs}, frozenset()))["fs"])
    assert {x.name: d.location for d in shader.variables("out") for x in d.declarators} == {"a": 1, "b": 2, "c": 0}


def test_untranslatable_glsl_fails_naming_the_stage():
    with pytest.raises(TranslationError, match="VS"):
        translate(Program({"vs": "void main() { gl_Position = vec4(0.0);", "fs": "void main() {}"}, frozenset()))
