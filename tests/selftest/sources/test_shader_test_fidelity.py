"""shader_test import as shader_runner runs it, on real llvmpipe and zink: a core file
that only enables GL_CLIP_DISTANCEi, uniform commands on uniform block members, `link error`
and `link success`-only files, several shaders a stage, 1D, 2D and 3D rgbw textures (the 1D
and 3D ones read through a fixed-function vertex stage's texture coordinates), `[vertex data]`
columns for the elements of an attribute array at an explicit location, atomic counters, a file
that draws without a probe, display lists and `active shader program` with SSO, program queries (`active uniform`,
`verify program_interface_query`), a compute shader with `probe ssbo`. Each file
passes, and a twin with one thing changed (a wrong expected colour or count, a program that links,
a draw that leaves a GL error) fails: the
import checks what the file says, not less. The files under shader_tests_fidelity/ were
written for these tests."""
from __future__ import annotations

import re

import pytest
from conftest import SELFTEST

from harness.sources import shader_test as st
from harness.oracle.verdict import judge

FILES = SELFTEST / "shader_tests_fidelity"
# file -> (text to replace, replacement) that must turn its pass into a fail
TWINS = {
    "core-clip-distance": ("probe rect rgba (0, 0, 12, 32) (0.0, 0.0, 0.0, 1.0)",
                           "probe rect rgba (0, 0, 12, 32) (0.0, 1.0, 0.0, 1.0)"),
    "ubo-members": ("probe all rgba 0.5 0.75 0.25 1.0", "probe all rgba 0.5 0.5 0.25 1.0"),
    "link-error": ("vec4 shade();", "vec4 shade() { return vec4(1.0); }"),
    "link-success": ("\treturn v * 0.5;", "\treturn v * undeclared;"),
    "texture-rgbw": ("relative probe rgba (0.75, 0.25) (0.0, 1.0, 0.0, 1.0)",
                     "relative probe rgba (0.75, 0.25) (0.0, 0.0, 1.0, 1.0)"),
    # as if the counters were reset for each draw
    "atomic-counters": ("probe atomic counter 0 == 8", "probe atomic counter 0 == 5"),
    # GL_PATCHES without a tessellation evaluation shader: GL_INVALID_OPERATION
    "draw-no-probe": ("draw arrays GL_TRIANGLES 0 3", "draw arrays GL_PATCHES 0 3"),
    # the lists' own patch size is what is drawn (the one set outside is 6 already)
    "dlist-patch-vertices": ("patch parameter vertices 3", "patch parameter vertices 6"),
    # both uniform commands then set the FS program's location 2, the VS's stays 0
    "sso-active-program": ("active shader program GL_VERTEX_SHADER", "active shader program GL_FRAGMENT_SHADER"),
    "texture-3d": ("relative probe rgba (0.25, 0.625) (1.0, 1.0, 0.0, 1.0)",       # the front slice's red
                   "relative probe rgba (0.25, 0.625) (1.0, 0.0, 0.0, 1.0)"),
    "texture-1d": ("probe rect rgba (0, 0, 16, 32) (0.0, 0.0, 1.0, 1.0)",
                   "probe rect rgba (0, 0, 16, 32) (0.0, 1.0, 0.0, 1.0)"),
    "attrib-array-columns": ("probe all rgba 1.0 0.5 0.0 1.0", "probe all rgba 0.25 0.5 0.75 1.0"),   # element 0's
    "active-uniform": ("Block.m GL_UNIFORM_TYPE GL_FLOAT_MAT3x2", "Block.m GL_UNIFORM_TYPE GL_FLOAT_MAT2x3"),
    "interface-query": ("Values GL_BUFFER_DATA_SIZE 96", "Values GL_BUFFER_DATA_SIZE 80"),
    "compute-ssbo": ("probe ssbo int 0 16 == -28", "probe ssbo int 0 16 == -27"),
}
# Files whose every check line gets a twin of its own (wrong_value) that must fail naming it.
CHECKED_LINE = re.compile(r"^(active uniform|verify program_interface_query|probe ssbo) .*$", re.M)
NEGATED = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "!=": "=="}


def status(executor, case) -> tuple[str, str]:
    verdict = judge(case, executor.run(case), executor.target.name)
    return verdict.status, verdict.message


@pytest.mark.parametrize("name", sorted(TWINS))
def test_file_passes_and_its_twin_fails(executor, name):
    path = FILES / f"{name}.shader_test"
    case = st.load(path)
    assert not case.requires.unsupported, case.requires.unsupported
    assert status(executor, case) == ("pass", "")
    old, new = TWINS[name]
    text = path.read_text()
    assert old in text
    twin = st.to_case(text.replace(old, new), case.id + "-twin")
    result, message = status(executor, twin)
    assert result == "fail", message


def test_link_only_files_check_the_link():
    error, success = st.load(FILES / "link-error.shader_test"), st.load(FILES / "link-success.shader_test")
    assert [e.counts for e in error.expect] == [(("link_failed", 1),)]
    assert [e.counts for e in success.expect] == [(("link_failed", 0),)]
    assert [stage for stage, _ in success.shaders] == ["vs", "vs", "fs"]      # both VS sections


def test_clip_planes_only_where_the_file_sets_them():
    core = st.load(FILES / "core-clip-distance.shader_test")
    assert all(draw.state.clip_planes == () for draw in core.draws())
    assert core.draws()[0].state.enable == ("CLIP_DISTANCE0",)


def _with_rlimit(text: str, limit: int) -> str:
    return text.replace("[require]\n", f"[require]\nrlimit {limit}\n", 1)


def test_rlimit_is_a_budget_for_the_case_alone(executor):
    """`rlimit N`: the case may map N bytes beyond what its child holds. With a 2048x2048 window
    (a 16 MiB framebuffer, read back as 64 MiB of floats), 1 MiB is too little (a crash or a
    fail, never a pass) and 1 GiB plenty; the limit ends with the case, so a case queued
    behind a budgeted one still passes."""
    text = (FILES / "texture-rgbw.shader_test").read_text()
    assert "SIZE 32 32" in text
    text = text.replace("SIZE 32 32", "SIZE 2048 2048")
    plain = st.to_case(text, "shader_test/rlimit-none")
    tight = st.to_case(_with_rlimit(text, 1 << 20), "shader_test/rlimit-1m")
    roomy = st.to_case(_with_rlimit(text, 1 << 30), "shader_test/rlimit-1g")
    assert (tight.requires.address_space, plain.requires.address_space) == (1 << 20, 0)
    for case in (roomy, tight, plain):                  # queued together, as the plugin does
        executor.send(case)
    assert status(executor, roomy) == ("pass", "")
    result, message = status(executor, tight)
    assert result in ("crash", "fail"), message
    assert status(executor, plain) == ("pass", "")


def test_atomic_counters_are_read_after_the_draw_before_the_probe():
    case = st.load(FILES / "atomic-counters.shader_test")
    assert case.readback.atomic_counters == 2
    assert [type(s).__name__ for s in case.steps] == ["Draw", "Read", "Draw", "Read"]
    assert [(e.step, e.counts) for e in case.expect] == [
        (1, (("atomic counter 0", 5), ("atomic counter 1", 2))),
        (3, (("atomic counter 0", 8), ("atomic counter 1", 3)))]


def test_a_file_without_probes_checks_each_step_for_gl_errors():
    case = st.load(FILES / "draw-no-probe.shader_test")
    assert [type(s).__name__ for s in case.steps] == ["Clear", "Draw"]
    assert case.readback.gl_error and [(e.step, e.counts) for e in case.expect] == [
        (0, (("gl_error", 0),)), (1, (("gl_error", 0),))]


def test_a_file_without_probes_fails_when_its_program_does_not_link(executor):
    text = (FILES / "draw-no-probe.shader_test").read_text()
    assert "\tcolour = tint;" in text
    text = text.replace("\tcolour = tint;", "\tcolour = missing();").replace("in vec4 tint;\n", "vec4 missing();\n")
    result, message = status(executor, st.to_case(text, "shader_test/draw-no-probe-unlinked"))
    assert result == "fail" and "failed to link" in message, message


def test_array_element_columns_follow_the_explicit_location():
    case = st.load(FILES / "attrib-array-columns.shader_test")
    assert [(a.name, a.location) for a in case.attributes] == [("pos", 0), ("colours", 3), ("", 4)]
    assert case.attributes[2].data[:4] == (1.0, 0.5, 0.0, 1.0)


def wrong_value(line: str) -> str:
    """The check line with a value it must not see: another type enum, the number plus one
    (a half for floats), or for an ordering the opposite comparison."""
    words = line.split()
    if words[-2] in NEGATED:
        words[-2] = NEGATED[words[-2]]
    elif words[-1] == "GL_FLOAT_VEC2":
        words[-1] = "GL_FLOAT_VEC3"
    elif words[-1].startswith("GL_"):
        words[-1] = "GL_FLOAT_VEC2"
    elif "float" in words:
        words[-1] = str(float(words[-1]) + 0.5)
    else:
        words[-1] = str(int(words[-1], 0) + 1)
    return " ".join(words)


@pytest.mark.parametrize("name", ["active-uniform", "interface-query", "compute-ssbo"])
def test_each_check_fails_with_a_wrong_value(executor, name):
    text = (FILES / f"{name}.shader_test").read_text()
    lines = [m[0] for m in CHECKED_LINE.finditer(text)]
    assert len(lines) >= 6
    for line in lines:
        wrong = wrong_value(line)
        twin = st.to_case(text.replace(line + "\n", wrong + "\n", 1), f"shader_test/twin/{name}")
        result, message = status(executor, twin)
        assert result == "fail", (wrong, message)
        assert wrong in message and "expected" in message, message


def test_query_failures_name_the_enums(executor):
    text = (FILES / "active-uniform.shader_test").read_text()
    old, new = TWINS["active-uniform"]
    result, message = status(executor, st.to_case(text.replace(old, new), "shader_test/twin/enum"))
    assert result == "fail"
    assert "glGetActiveUniformsiv = GL_FLOAT_MAT3x2 (0x8b67), expected GL_FLOAT_MAT2x3 (0x8b65)" in message
    missing = st.to_case(text.replace("active uniform Block.first ", "active uniform Block.absent "),
                         "shader_test/twin/absent")
    result, message = status(executor, missing)
    assert result == "fail" and "Block.absent" in message and "no active resource of that name" in message
