"""shader_test import as shader_runner runs it (issue 18), on real llvmpipe and zink: a core file
that only enables GL_CLIP_DISTANCEi, uniform commands on uniform block members, `link error`
and `link success`-only files, several shaders a stage, 2D rgbw textures, program queries
(`active uniform`, `verify program_interface_query`), a compute shader with `probe ssbo`. Each
file passes, and a twin with one thing changed (a wrong expected colour, a program that links)
fails: the import checks what the file says, not less. The files under shader_tests_fidelity/ were
written for these tests."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.importers import shader_test as st
from harness.verdict import judge

FILES = Path(__file__).parent / "shader_tests_fidelity"
# file -> (text to replace, replacement) that must turn its pass into a fail
TWINS = {
    "core-clip-distance": ("probe rect rgba (0, 0, 12, 32) (0.0, 0.0, 0.0, 1.0)",
                           "probe rect rgba (0, 0, 12, 32) (0.0, 1.0, 0.0, 1.0)"),
    "ubo-members": ("probe all rgba 0.5 0.75 0.25 1.0", "probe all rgba 0.5 0.5 0.25 1.0"),
    "link-error": ("vec4 shade();", "vec4 shade() { return vec4(1.0); }"),
    "link-success": ("\treturn v * 0.5;", "\treturn v * undeclared;"),
    "texture-rgbw": ("relative probe rgba (0.75, 0.25) (0.0, 1.0, 0.0, 1.0)",
                     "relative probe rgba (0.75, 0.25) (0.0, 0.0, 1.0, 1.0)"),
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
    assert all(draw.state.clip_planes == () for draw in core.draws)
    assert core.draws[0].state.enable == ("CLIP_DISTANCE0",)


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
