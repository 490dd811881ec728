"""`harness export --format piglit` (harness/run/export_piglit.py): one case of each kind, checked
structurally (where it goes in piglit's tree, its CMake line and opengl.py entry, piglit's
framework and style); and, where a built piglit tree is at hand (bench/piglit_export.sh builds
Debian 12's; $PIGLIT_SRC names another), the C tests compiled against piglit's framework and run
on llvmpipe 22.3.6: the harness's expected values pass, a planted wrong one fails, as piglit
reports it."""
from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, pinned_args
from harness.run import export, export_c, export_piglit
from harness.sources import catalog

TESS_NO_TCS = "tess/no-tcs/triangles/equal/pv4/o1_1_1-i1"
MULTI_DRAW = "draw_params/MultiDrawElements/uint/f2c3+f0c0+f5c2/glsl450/vs"
INDIRECT_COUNT = "draw_params/explore/v1-k0as11.ak1as36.1.aa4.1.m3x0zz.0.t.0zz.s14.f.450z"
VARYINGS = "varyings/vs-fs/glsl130compat/builtins-none/users-3xvec4-12c"
PIGLIT = Path(os.environ.get("PIGLIT_SRC", "/var/tmp/piglit/piglit-124bca3c9"))

needs_piglit = pytest.mark.skipif(not (PIGLIT / "lib" / "libpiglitutil_gl.so").exists(),
                                  reason=f"no built piglit tree at {PIGLIT} (bench/piglit_export.sh builds one)")


def _export(case_id: str, tmp_path: Path, name: str = "") -> list[Path]:
    return export_piglit.export(catalog.find(case_id), tmp_path, name)


@pytest.mark.parametrize("case_id, area", [
    (TESS_NO_TCS, "arb_tessellation_shader"), (MULTI_DRAW, "arb_shader_draw_parameters"),
    (INDIRECT_COUNT, "arb_indirect_parameters")])
def test_a_case_shader_runner_cannot_run_is_a_c_test_on_piglits_framework(tmp_path, case_id, area):
    case = catalog.find(case_id)
    assert export.shader_test_unsupported(case) and not export_c.unsupported(case)
    source, cmake, entry = _export(case_id, tmp_path, "t")
    assert source == tmp_path / "tests" / "spec" / area / "t.c"
    c = source.read_text()
    for part in ("#include \"piglit-util-gl.h\"", "PIGLIT_GL_TEST_CONFIG_BEGIN",
                 f"config.supports_gl_core_version = {case.requires.gl_version[0]}{case.requires.gl_version[1]};",
                 "\nvoid\npiglit_init(int argc, char **argv)\n", "\nenum piglit_result\npiglit_display(void)\n",
                 "piglit_check_gl_error(GL_NO_ERROR)", "return PIGLIT_PASS;", "return PIGLIT_FAIL;"):
        assert part in c
    assert not re.search(r"^ {4}", c, re.M), "piglit's style: tab indents"
    assert cmake.read_text().splitlines() == [f"# tests/spec/{area}/CMakeLists.gl.txt",
                                              f"piglit_add_executable ({area}-t t.c)"]
    fragment = entry.read_text()
    compile(fragment, str(entry), "exec")                    # appended to tests/opengl.py as it is
    assert f"g(['{area}-t'], 't')" in fragment


def test_the_parameter_buffer_holds_0_where_no_count_is_read(tmp_path):
    """A plain indirect draw on Mesa's state tracker reads that word as its count
    (triage/mesa-22.3.6/st-indirect-draw-parameter-buffer): the piglit test holds 0 there, the
    standalone program the harness's marker."""
    case = catalog.find(INDIRECT_COUNT)
    assert "parameters[2] = {0u, 1u}" in export_piglit.c_test(case)
    assert "parameters[2] = {0xDEADBEEFu, 1u}" in export_c.program(case)


def test_a_case_shader_runner_can_run_is_a_shader_test(tmp_path):
    case = catalog.find(VARYINGS)
    assert not export.shader_test_unsupported(case)
    (path,) = _export(VARYINGS, tmp_path)
    assert path.parent == tmp_path / "tests" / "spec" / export_piglit.area(case) / "execution"
    text = path.read_text()
    assert text == export.shader_test(case)
    assert "[require]" in text and "\nprobe rgba " in text


def test_a_case_neither_form_expresses_says_why_for_both():
    case = next(c for c in catalog.cases("tess") if c.expect and c.expect[0].tess_coord is not None
                and not c.separable and c.requires.profile == "core")
    with pytest.raises(export_c.NotExportable, match="not a shader_test .*, not a C test"):
        export_piglit.export(case, Path("/nonexistent"))


def test_a_name_piglit_cannot_take_is_refused():
    with pytest.raises(export_c.NotExportable, match="--name"):
        export_piglit.placement(catalog.find(MULTI_DRAW), "Bad Name")


def _build_and_run(source: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """The exported C compiled as piglit's CMake does (its -Wall, gnu99), against the tree's
    framework, and run on llvmpipe as a piglit test is (-auto -fbo, surfaceless EGL)."""
    binary = tmp_path / "test"
    subprocess.run(["cc", "-std=gnu99", "-Wall", "-Werror", "-DPIGLIT_USE_OPENGL", "-DPIGLIT_USE_WAFFLE",
                    "-DWAFFLE_API_VERSION=0x0103", "-D_GNU_SOURCE", f"-I{PIGLIT / 'src'}", f"-I{PIGLIT / 'tests/util'}",
                    str(source), "-o", str(binary), f"-Wl,-rpath,{PIGLIT / 'lib'}", str(PIGLIT / "lib/libpiglitutil_gl.so"),
                    str(PIGLIT / "lib/libpiglitutil.so"), "-lGL", "-lEGL", "-lwaffle-1", "-lm"], check=True)
    env = {**os.environ, "PIGLIT_PLATFORM": "surfaceless_egl"}
    return subprocess.run([sys.executable, "-m", "harness", "exec", "llvmpipe", *pinned_args(), "--", str(binary),
                           "-auto", "-fbo"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _planted(case_id: str):
    """The case with its first expected count one more than the harness's."""
    case = catalog.find(case_id)
    exp = next(e for e in case.expect if e.counts)
    (name, value), *rest = exp.counts
    wrong = dataclasses.replace(exp, counts=((name, value + 1), *rest))
    return dataclasses.replace(case, expect=tuple(wrong if e is exp else e for e in case.expect)), name, value


@needs_piglit
@pytest.mark.parametrize("case_id", [TESS_NO_TCS, MULTI_DRAW])
def test_the_piglit_test_passes_and_a_planted_wrong_value_fails(tmp_path, case_id):
    (source, _, _) = _export(case_id, tmp_path, "t")
    right = _build_and_run(source, tmp_path)
    assert '"result": "pass"' in right.stdout, right.stdout + right.stderr
    case, name, value = _planted(case_id)
    source.write_text(export_piglit.c_test(case))
    wrong = _build_and_run(source, tmp_path)
    assert f": {name} = {value}, expected {value + 1}" in wrong.stdout
    assert '"result": "fail"' in wrong.stdout, wrong.stdout + wrong.stderr
