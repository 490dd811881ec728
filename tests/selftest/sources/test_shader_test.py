"""piglit .shader_test import: parsing into Cases (no driver), runs on real llvmpipe, zink and
lavapipe (a probe that expects the wrong colour fails, naming it), and `--shader-tests` end to end.
The files under shader_tests/ were written for these tests."""
from __future__ import annotations

import base64
import dataclasses
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from harness.model.case import ID_RE, Case, Read, step_state
from harness.sources import shader_test as st
from harness.model.observation import Observation
from harness.oracle.verdict import check, judge

from conftest import ROOT, SELFTEST, pinned_mesa

FILES = SELFTEST / "shader_tests"


def load(name: str) -> Case:
    return st.load(FILES / f"{name}.shader_test")


# -- parsing, no driver ---------------------------------------------------------------------------

def test_ids_come_from_the_path_below_tests():
    case = load("legacy-colour-uniform")
    assert case.id == "shader_test/selftest/shader_tests/legacy-colour-uniform"
    assert ID_RE.match(case.id)
    assert st.case_id(Path("/x/piglit/tests/spec/glsl-1.10/execution/a b,c.shader_test")) == \
        "shader_test/spec/glsl-1.10/execution/a_b_c"
    assert st.case_id(Path("/elsewhere/one.shader_test")) == "shader_test/one"
    # the same file named relatively gives the same id
    assert st.case_id(Path(os.path.relpath(FILES / "wrong-colour.shader_test"))) == load("wrong-colour").id


def test_requirements_profile_and_version_directive():
    legacy, tess = load("legacy-colour-uniform"), load("tess-no-tcs-levels")
    assert (legacy.requires.gl_version, legacy.requires.profile) == ((2, 0), "compat")
    assert (tess.requires.gl_version, tess.requires.profile) == ((3, 2), "core")
    assert tess.requires.extensions == ("GL_ARB_tessellation_shader",)
    assert all(src.startswith("#version 150\n") for _, src in tess.shaders)
    assert legacy.readback.image == (32, 32) and legacy.readback.keep_image


def test_draws_carry_state_and_probes_follow_the_script():
    case = load("legacy-colour-uniform")
    assert [type(s).__name__ for s in case.steps] == ["Clear", "Draw", "Read", "Draw", "Read"]
    clear, first, _, second, _ = case.steps
    assert clear.color == (0.0, 0.0, 1.0, 1.0)
    assert [(u.name, u.values) for u in first.state.uniforms] == [("tint", (1.0, 0.5, 0.0, 1.0))]
    assert [(u.name, u.values) for u in second.state.uniforms] == [("tint", (0.0, 1.0, 0.0, 1.0))]
    position = next(a for a in case.attributes if a.name == "piglit_vertex")
    assert position.location == 0 and position.data[:8] == (-1, -1, 0, 1, 0, -1, 0, 1)   # (x, y) then (x+w, y)
    assert second.entries[0].first == 4 and first.mode == "TRIANGLE_STRIP"
    assert [(e.step, len(e.probes)) for e in case.expect] == [(2, 2), (4, 2)]
    assert case.steps[2] == Read("read back after draw rect -1 -1 1 2 (line 26)", image=True)
    probes = [p for e in case.expect for p in e.probes]
    assert [(p.x, p.y, p.width, p.height) for p in probes] == [(0, 0, 16, 32), (24, 16, 1, 1), (24, 8, 1, 1),
                                                                (8, 8, 1, 1)]
    assert probes[1].expected == (0.0, 0.0, 1.0) and probes[0].tolerance == (3 / 256,) * 4


def test_clear_then_probe_without_a_draw_and_ortho():
    case = load("clip-vertex-ortho")
    assert [type(s).__name__ for s in case.steps] == ["Draw", "Read", "Clear", "Read", "Draw", "Read"]
    assert case.steps[0].state.enable == ("CLIP_PLANE4",) and case.steps[0].state.clip_planes[4] == (-1, 0, 0, 8)
    assert case.steps[0].state.projection[0] == pytest.approx(2 / 16)
    assert case.steps[2].color == (0.0, 0.0, 1.0, 0.0) and case.steps[4].state.enable == ()
    assert [e.step for e in case.expect] == [1, 3, 5]


def test_patch_rect_sets_four_vertices():
    draw = load("tess-no-tcs-levels").draws()[0]
    assert (draw.mode, draw.state.patch_vertices) == ("PATCHES", 4)
    assert draw.state.default_outer == (3, 2, 5, 4) and draw.state.default_inner == (6, 7)


def test_display_list_steps_hold_only_the_lists_patch_parameters():
    case = st.load(FILES.parent / "shader_tests_fidelity" / "dlist-patch-vertices.shader_test")
    steps = [(type(s).__name__, getattr(s, "mode", ""), step_state(s).patch_vertices) for s in case.steps]
    assert steps == [("Clear", "", None), ("NewList", "COMPILE", 3), ("Read", "", None),   # nothing drawn
                     ("CallList", "", 6), ("Read", "", None),      # the script's 6 is set before the call
                     ("DeleteList", "", None),
                     ("Clear", "", None), ("NewList", "COMPILE_AND_EXECUTE", 3),          # the called list left 3
                     ("Read", "", None)]
    assert case.steps[1].draw.state.default_outer is None and case.steps[0].color == (0.2,) * 4
    assert Case.from_json(case.to_json()) == case
    plain = st.load(FILES / "tess-no-tcs-levels.shader_test").to_json()
    assert '"NewList"' not in plain and '"stage"' not in plain


def test_sso_uniforms_go_to_the_active_programs_stage():
    case = st.load(FILES.parent / "shader_tests_fidelity" / "sso-active-program.shader_test")
    assert [(u.stage, u.name, u.values) for u in case.steps[0].state.uniforms] == \
        [("vs", "2", (0.5,)), ("fs", "2", (0.25,)), ("fs", "5", (0.75,))]


DLIST = ("[require]\nGL COMPAT >= 3.2\nGLSL >= 1.50\n[vertex shader passthrough]\n[fragment shader]\n"
         "void main() {}\n[test]\n")
SSO = "[require]\nGLSL >= 1.50\nSSO ENABLED\n[vertex shader passthrough]\n[fragment shader]\nvoid main() {}\n[test]\n"


@pytest.mark.parametrize("text, reason", [
    (DLIST + "newlist GL_COMPILE\ndraw arrays GL_TRIANGLES 0 3\ndraw arrays GL_TRIANGLES 0 3\nendlist\n",
     "'draw arrays GL_TRIANGLES 0 3' (line 10): display lists holding"),
    (DLIST + "newlist GL_COMPILE\nclear\nendlist\n", "'clear' (line 9): display lists holding"),
    (DLIST + "calllist\n", "'calllist' (line 8)"),
    (DLIST + "newlist GL_COMPILE\ndraw arrays GL_TRIANGLES 0 3\n", "`newlist` without `endlist`"),
    (DLIST.replace("COMPAT ", "") + "newlist GL_COMPILE\n", "need a compatibility profile"),
    (SSO + "uniform int 0 1\ndraw rect -1 -1 2 2\nprobe all rgba 0 0 0 0\n", "by location number after"),
    (SSO + "active shader program GL_FRAGMENT_SHADER\nuniform int i 1\n", "by location number after"),
    (SSO + "active shader program GL_GEOMETRY_SHADER\n", "SSO ENABLED files and a stage they have only"),
])
def test_display_lists_and_sso_uniforms_not_supported(text, reason):
    case = st.to_case(text, "shader_test/x")
    assert reason in case.requires.unsupported and not case.expect


FS_ONLY = "[require]\nGLSL >= 1.10\n[fragment shader]\nvoid main() { gl_FragColor = gl_TexCoord[0]; }\n[test]\n"


def test_1d_and_3d_rgbw_textures_have_piglits_sizes():
    case = st.to_case(FS_ONLY + "texture rgbw 1D 3\ntexture rgbw 3D 1\ndraw rect -1 -1 2 2\n"
                      "probe all rgba 0 0 0 0\n", "shader_test/x")
    one, three = case.steps[0].state.textures
    assert (one.unit, one.target, one.width, one.height, one.depth) == (1, "3D", 2, 2, 2)
    assert (three.unit, three.target, three.width, three.height, three.depth) == (3, "1D", 4, 1, 1)
    assert Case.from_json(case.to_json()) == case


def test_rect_texcoords_without_piglit_vertex_use_the_fixed_function_array():
    # piglit_draw_rect_from_arrays: glTexCoordPointer unless the program has a piglit_vertex
    # attribute or the context is core
    draw = "draw rect tex -1 -1 2 2 0 0 1 1\nprobe all rgba 0 0 0 0\n"
    fixed = st.to_case(FS_ONLY + draw, "shader_test/x")
    coords = [a for a in fixed.attributes if a.array]
    assert [(a.array, a.name, a.components) for a in coords] == [("TEXTURE_COORD", "", 2)]
    assert coords[0].data == (0, 0, 1, 0, 0, 1, 1, 1)
    generic = st.to_case(FS_ONLY.replace("[fragment shader]", "[vertex shader passthrough]\n[fragment shader]")
                         + draw, "shader_test/x")
    assert not any(a.array for a in generic.attributes)
    assert ("piglit_texcoord", 1) in [(a.name, a.location) for a in generic.attributes]


@pytest.mark.parametrize("text, reason", [
    ("[require]\nGLSL >= 1.10\n[vertex shader passthrough]\n[fragment shader]\nvoid main() {}\n[test]\n"
     "texture shadow2D 0 (8, 8)\nprobe all rgba 0 0 0 0\n", "unsupported command 'texture shadow2D 0 (8, 8)' (line 7)"),
    ("[require]\nGLSL >= 1.10\n[vertex program]\n!!ARBvp1.0\n[test]\n", "section [vertex program] (line 3)"),
    ("[require]\nGLSL ES >= 3.00\n[vertex shader passthrough]\n[test]\n", "requirement 'GLSL ES >= 3.00'"),
    ("[require]\nGLSL >= 1.10\n[vertex shader passthrough]\n[fragment shader]\nvoid main() {}\n[test]\n"
     "atomic counters 1\ndraw rect -1 -1 2 2\nprobe atomic counter 0 != 0\n",
     "unsupported command 'probe atomic counter 0 != 0' (line 9)"),
    ("[require]\nGLSL >= 1.10\n[vertex shader passthrough]\n[fragment shader]\nvoid main() {}\n[test]\n"
     "atomic counters 1\ndraw rect -1 -1 2 2\nprobe atomic counter 1 == 0\n", "counter 1, the file makes 1"),
    ("[require]\nGLSL >= 1.10\n[vertex shader passthrough]\n[fragment shader]\nvoid main() {}\n[test]\n"
     "draw rect -1 -1 2 2\natomic counters 1\n", "once, before any draw, only"),
])
def test_what_is_not_supported_is_a_named_skip(text, reason):
    case = st.to_case(text, "shader_test/x")
    assert reason in case.requires.unsupported and not case.expect


QUERIES = """[require]
GLSL >= 1.50
[vertex shader passthrough]
[fragment shader]
uniform mat4x2 m;
out vec4 c;
void main() { c = m[0].xyxy; }
[test]
active uniform m GL_UNIFORM_TYPE GL_FLOAT_MAT4x2
draw rect -1 -1 2 2
active uniform m GL_UNIFORM_OFFSET -1
verify program_interface_query GL_PROGRAM_OUTPUT c GL_LOCATION 0x0
"""


def test_program_queries_follow_the_script():
    case = st.to_case(QUERIES, "shader_test/q")
    assert not case.requires.unsupported
    before, draw, after = case.steps               # queries are Read steps, before and after the draw
    assert isinstance(before, Read) and isinstance(after, Read) and draw.command == "DrawArrays"
    assert before.label == "read back after the start"
    assert [(q.interface, q.name, q.pname) for q in before.queries] == [("", "m", "GL_UNIFORM_TYPE")]
    assert [(q.interface, q.name, q.pname) for q in after.queries] == [
        ("", "m", "GL_UNIFORM_OFFSET"), ("GL_PROGRAM_OUTPUT", "c", "GL_LOCATION")]
    first, second = case.expect                    # no probe: the queries are what the case checks
    assert (first.step, second.step) == (0, 2)
    assert [(v.value, v.enum) for v in first.queries] == [(0x8B69, True)]
    assert [(v.value, v.enum) for v in second.queries] == [(-1, False), (0, False)]
    assert second.queries[0].label == after.queries[0].label == "active uniform m GL_UNIFORM_OFFSET -1 (line 11)"
    assert Case.from_json(case.to_json()) == case


COMPUTE = """[require]
GLSL >= 4.30
[compute shader]
#version 430
layout(local_size_x = 1) in;
layout(binding = 2) buffer B { uint u[]; };
void main() { u[0] = 1u; }
[test]
ssbo 2 16
compute 3 2 1
probe ssbo uint 2 0 == 0xffffffff
probe ssbo int 2 4 == -3
probe ssbo float 2 8 >= 0.1
ssbo 5 8
probe ssbo int 5 0 != 1
"""


def test_compute_and_storage_buffers():
    case = st.to_case(COMPUTE, "shader_test/c")
    assert not case.requires.unsupported and [stage for stage, _ in case.shaders] == ["cs"]
    dispatch, read, made, read_again = case.steps
    assert (dispatch.work_groups, dispatch.state.storage_buffers, read.storage) == ((3, 2, 1), ((2, 16),), (2,))
    # an `ssbo` after the last dispatch is made before the probe that follows it reads it
    assert (made.state.storage_buffers, read_again.storage) == (((5, 8),), (5,))
    assert [e.step for e in case.expect] == [1, 3]
    probes = case.expect[0].storage
    assert [(p.binding, p.offset, p.type, p.op, p.value) for p in probes] == [
        (2, 0, "uint", "==", 0xFFFFFFFF), (2, 4, "int", "==", -3), (2, 8, "float", ">=", pytest.approx(0.1))]
    assert probes[2].value == struct.unpack("<f", struct.pack("<f", 0.1))[0]     # read as a C float
    assert Case.from_json(case.to_json()) == case


@pytest.mark.parametrize("line, reason", [
    ("active uniform m GL_UNIFORM_NAME_LENGTH 2", "property GL_UNIFORM_NAME_LENGTH"),
    ("verify program_interface_query GL_PROGRAM_FOO c GL_LOCATION 0", "program interface GL_PROGRAM_FOO"),
    ("active uniform m GL_UNIFORM_TYPE GL_NOT_A_TYPE", "cannot read it"),
    ("probe ssbo double 0 0 == 1.0", "int, uint and float probes"),
])
def test_queries_and_probes_not_supported(line, reason):
    case = st.to_case(QUERIES + line + "\n", "shader_test/x")
    assert reason in case.requires.unsupported and not case.expect


def test_dispatch_after_probing_another_binding_is_a_skip():
    """shader_runner's `probe ssbo N` binds buffer N at storage binding 0 and leaves it there."""
    case = st.to_case(COMPUTE + "compute 1 1 1\n", "shader_test/x")
    assert "compute 1 1 1 (line 16)': after `probe ssbo` of binding 5 (line 15)" in case.requires.unsupported


def test_storage_and_query_verdicts():
    case = st.to_case(COMPUTE, "shader_test/c")
    data = struct.pack("<Iif", 0xFFFFFFFF, -3, 0.1)
    ok = {"steps": [{}, {"storage": {"2": base64.b64encode(data + bytes(4)).decode()}},
                    {}, {"storage": {"5": base64.b64encode(bytes(8)).decode()}}]}
    assert check(case, Observation.from_json(ok)) == []
    bad = {"steps": [{}, {"storage": {"2": base64.b64encode(struct.pack("<Iif", 7, -3, 0.0) + bytes(4)).decode()}},
                     {}, {"storage": {"5": base64.b64encode(struct.pack("<ii", 1, 0)).decode()}}]}
    assert check(case, Observation.from_json(bad)) == [
        "read back after compute 3 2 1 (line 10), probe ssbo uint 2 0 == 0xffffffff (line 11): uint at byte 0 of "
        "SSBO 2 = 7, expected 4294967295",
        "read back after compute 3 2 1 (line 10), probe ssbo float 2 8 >= 0.1 (line 13): float at byte 8 of SSBO 2 "
        "= 0, expected >= 0.100000001",
        "read back after compute 3 2 1 (line 10), probe ssbo int 5 0 != 1 (line 15): int at byte 0 of SSBO 5 = 1, "
        "expected != 1"]
    queries = st.to_case(QUERIES, "shader_test/q")
    answers = {"steps": [{"queries": {queries.steps[0].queries[0].label: {"glGetActiveUniformsiv": 0x8B5C}}}, {},
                         {"queries": {q.label: None for q in queries.steps[2].queries}}]}
    assert check(queries, Observation.from_json(answers)) == [
        "active uniform m GL_UNIFORM_TYPE GL_FLOAT_MAT4x2 (line 9): glGetActiveUniformsiv = GL_FLOAT_MAT4 (0x8b5c), "
        "expected GL_FLOAT_MAT4x2 (0x8b69)",
        "active uniform m GL_UNIFORM_OFFSET -1 (line 11): the program has no active resource of that name (expected -1)",
        "verify program_interface_query GL_PROGRAM_OUTPUT c GL_LOCATION 0x0 (line 12): the program has no active "
        "resource of that name (expected 0)"]


def test_type_enum_table_matches_the_gl_headers():
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    from OpenGL import GL
    from OpenGL.GL.NV import gpu_shader5
    from harness.model.glfacts import GL_TYPE_ENUMS
    for name, value in GL_TYPE_ENUMS.items():
        assert (getattr(GL, name, None) or getattr(gpu_shader5, name.replace("_ARB", "_NV"))) == value, name


def test_json_round_trip_and_older_cases_unchanged():
    for path in FILES.glob("*.shader_test"):
        case = st.load(path)
        assert Case.from_json(case.to_json()) == case
    # the fields added for shader_test stay out of other cases' JSON
    from conftest import fault_case
    text = fault_case("none").to_json()
    for name in ("uniforms", "keep_image", "image_format", "probes", "Read", "unsupported", "queries",
                 "storage", "work_groups", "Clear"):
        assert name not in text


# -- real drivers --------------------------------------------------------------------------------

def _expected_outcomes(ex, target):
    where = f"{target} (renderer)"
    verdicts = {p.stem: judge(st.load(p), ex.run(st.load(p)), where) for p in sorted(FILES.glob("*.shader_test"))}
    for name in ("legacy-colour-uniform", "tess-no-tcs-levels", "clip-vertex-ortho"):
        assert verdicts[name].status == "pass", (name, verdicts[name].message)
    assert verdicts["unsupported-texture"].status == "skip"
    assert "texture shadow2D 0 (8, 8)" in verdicts["unsupported-texture"].message
    wrong = verdicts["wrong-colour"]
    assert wrong.status == "fail"
    assert "probe all rgba 1.0 0.0 0.0 1.0 (line 17)" in wrong.message
    assert "colour = (0, 1, 0, 1), expected (1, 0, 0, 1)" in wrong.message
    assert where in wrong.message


def test_gl_targets(executor):
    _expected_outcomes(executor, executor.target.name)


def test_vulkan_backend_on_lavapipe():
    from harness.executor.executor import Executor
    from harness.executor.targets import get
    ex = Executor(get("lavapipe"), case_timeout=60, mesa=pinned_mesa())
    try:
        if ex.info().status != "ok":
            pytest.fail(f"lavapipe did not start: {ex.info().message}")
        _expected_outcomes(ex, "lavapipe")
    finally:
        ex.close()


def test_pytest_option_end_to_end(tmp_path):
    """--shader-tests collects the files as cases named `<id>[<target>]` and records verdicts."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "harness.pytest_adapter.plugin", "-q", "-n", "0",
                           "--target", "llvmpipe", "--results-dir", str(tmp_path), "--shader-tests", str(FILES)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    results = {e["id"]: e for e in json.loads((tmp_path / "results.json").read_text())["results"]}
    assert {i.rsplit("/", 1)[1]: e["status"] for i, e in results.items()} == {
        "clip-vertex-ortho": "pass", "legacy-colour-uniform": "pass", "tess-no-tcs-levels": "pass",
        "unsupported-texture": "skip", "wrong-colour": "fail"}, proc.stdout[-2000:]
    assert proc.returncode == 1
    assert "shader_test/selftest/shader_tests/wrong-colour[llvmpipe]" in proc.stdout


def test_rlimit_is_the_cases_address_space_budget():
    case = st.to_case("[require]\nGLSL >= 1.10\nrlimit 268435456\n[vertex shader passthrough]\n[test]\n", "shader_test/x")
    assert case.requires.address_space == 268435456 and not case.requires.unsupported
    assert Case.from_json(case.to_json()) == case


def test_vulkan_backend_skips_atomic_counters_and_gl_error_checks():
    from harness.executor.executor import Executor
    from harness.executor.targets import get
    head = "[require]\nGLSL >= 4.20\n[vertex shader passthrough]\n[fragment shader]\nout vec4 c;\n" \
           "void main() { c = vec4(1.0); }\n[test]\n"
    counters = st.to_case(head + "atomic counters 1\ndraw rect -1 -1 2 2\nprobe atomic counter 0 == 0\n",
                          "shader_test/counters")
    no_probe = st.to_case(head + "draw rect -1 -1 2 2\n", "shader_test/no-probe")
    ex = Executor(get("lavapipe"), case_timeout=60, mesa=pinned_mesa())
    try:
        for case, reason in ((counters, "does not support atomic counters"), (no_probe, "cannot report a GL error")):
            verdict = judge(case, ex.run(case), "lavapipe")
            assert verdict.status == "skip" and reason in verdict.message, verdict.message
    finally:
        ex.close()


def test_an_imported_case_exports_back_to_a_script_that_imports_to_the_same_steps():
    """export's shader_test of an imported case, imported again: the same kinds of steps and the
    same checks (labels aside, which name the lines). Textures and `draw rect tex` coordinates
    are not exported (see docs/piglit.md), so the texture files' draws differ."""
    from harness.run import export
    files = sorted(FILES.glob("*.shader_test")) + sorted((FILES.parent / "shader_tests_fidelity").glob("*.shader_test"))
    compared = 0
    for path in files:
        case = st.load(path)
        if case.requires.unsupported or any(a.array for a in case.attributes):
            continue
        again = st.to_case(export.shader_test(case), case.id)
        assert not again.requires.unsupported, (path.name, again.requires.unsupported)
        assert [type(s).__name__ for s in again.steps] == [type(s).__name__ for s in case.steps], path.name

        def checks(c):
            return [(e.step, e.counts, [dataclasses.replace(p, label="") for p in e.probes],
                     [dataclasses.replace(q, label="") for q in e.queries],
                     [dataclasses.replace(s, label="") for s in e.storage]) for e in c.expect]
        assert checks(again) == checks(case), path.name
        compared += 1
    assert compared >= 15


def test_a_generated_image_case_exports_to_a_shader_test_that_imports_and_fails_where_it_fails(executor):
    """export's shader_test of a generated image case (its RGBA32F image as `texture rgbw ...
    GL_RGBA32F` + `fb tex 2d 0`, values above 1 probed) imports back to a case that checks it: on
    real drivers it passes on llvmpipe and fails on zink as the case does, with the same wrong value
    (zink draws the row gl_ClipVertex clips: triage folder st-lowered-clip-planes-not-uploaded,
    baselined on every Mesa)."""
    from harness.run import export
    from harness.sources import catalog
    case = catalog.find("varyings/vs-fs/glsl130compat/builtins-color+tex1/clipvertex/users-2xvec4-8c")
    assert export.shader_test_unsupported(case) == ""
    again = st.to_case(export.shader_test(case), "shader_test/exported")
    assert not again.requires.unsupported, again.requires.unsupported
    assert (again.readback.image, again.readback.image_format) == (case.readback.image, "RGBA32F")
    target = executor.target.name
    original, imported = (judge(c, executor.run(c), target) for c in (case, again))
    if target == "llvmpipe":
        assert (original.status, imported.status) == ("pass", "pass"), imported.message
        return
    assert (original.status, imported.status) == ("fail", "fail"), imported.message
    assert "row 1 (clipped by gl_ClipVertex), FS input gl_Color.x (gl_FrontColor.x) = 0.0351562" in original.message
    assert "pixel (0, 1) colour = (0.0351562, " in imported.message, imported.message


def test_a_shader_test_that_cannot_check_its_case_says_so():
    """A case shader_runner cannot probe (two of a texel's four channels expected) is written with
    its expected values as comments, and a first comment saying the file is no test."""
    from harness.run import export
    from harness.sources import catalog
    case = catalog.find("primitives/quads/pv-last/arrays")
    text = export.shader_test(case)
    assert text.splitlines()[3].startswith("# NOT A TEST THAT CAN FAIL: shader_runner probes whole texels")
    assert "# expected, draw 0 (glDrawArrays(GL_QUADS)): primitive 1 (vertices 6, 7, 8, 9), pixel (23, 12): " \
           "gl_PrimitiveID = 1" in text.splitlines()
    assert "probe" not in "".join(line for line in text.splitlines() if not line.startswith("#"))
