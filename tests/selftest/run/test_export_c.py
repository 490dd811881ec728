"""`harness export --format c`: the standalone C reproducer (harness/run/export_c.py), compiled with
the system's cc against EGL alone and run as a target's child is started (`harness exec`), on
bookworm's 22.3.6 llvmpipe (the fetched one, else the system's: Debian 12's is the same release).
It fails on the kept first-count-zero case there (triage/mesa-22.3.6/multidraw-first-count-zero),
and passes a multi-draw with a zero count that is not first (the same code path, right)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, pinned_args
from harness.sources import catalog
from harness.run import export_c

FIRST_COUNT_ZERO = "draw_params/explore/v1-k0as11.ak1as29.n.aa0.1.m3x0z.a1.1.m3x0zz.0.f.0zz.s14.f.450z"
ZERO_IN_THE_MIDDLE = "draw_params/MultiDrawElements/uint/f2c3+f0c0+f5c2/glsl450/vs"

needs_cc = pytest.mark.skipif(not shutil.which("cc") or not Path("/usr/include/EGL/egl.h").exists(),
                              reason="no cc or EGL headers (bin/setup.sh installs libegl-dev)")


def _run_exported(case_id: str, tmp_path) -> subprocess.CompletedProcess:
    exported = subprocess.run([sys.executable, "-m", "harness", "export", case_id, "--format", "c",
                               "-o", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    source = exported.stdout.strip()
    subprocess.run(["cc", "-Wall", "-Werror", source, "-lEGL", "-o", str(tmp_path / "repro")], check=True)
    mesa = pinned_args()
    return subprocess.run([sys.executable, "-m", "harness", "exec", "llvmpipe", *mesa, "--", str(tmp_path / "repro")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


@needs_cc
def test_the_first_count_zero_reproducer_fails_on_llvmpipe_22_3_6(tmp_path):
    proc = _run_exported(FIRST_COUNT_ZERO, tmp_path)
    assert "Mesa 22.3.6" in proc.stderr
    assert proc.stdout.splitlines() == ["FAIL draw 0 (glMultiDrawElements): xfb_vertices = 0, expected 1"]
    assert proc.returncode == 1


@needs_cc
def test_a_multi_draw_with_a_later_zero_count_passes(tmp_path):
    proc = _run_exported(ZERO_IN_THE_MIDDLE, tmp_path)
    assert proc.stdout.splitlines() == ["PASS"], proc.stderr
    assert proc.returncode == 0


def test_a_case_the_program_cannot_express_is_one_line_and_exit_2(tmp_path):
    image_case = next(c for c in catalog.cases("varyings") if c.readback.image and c.requires.profile == "core")
    assert export_c.unsupported(image_case)
    proc = subprocess.run([sys.executable, "-m", "harness", "export", image_case.id, "--format", "c",
                           "-o", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"python -m harness export: --format c: case {image_case.id}: only transform-feedback readback is "
        "written (no image, counters or GL errors)"]


@needs_cc
def test_every_part_of_the_template_compiles(tmp_path):
    """The template's branches the families' exportable cases do not reach (program switches and
    deletes, patch state and enables, integer attributes, an empty multi-draw), in one program
    compiled with -Wall -Werror; and each of the 20 draw commands, over the draw_params cases."""
    import dataclasses

    from harness.model.case import DrawState
    cases = [c for c in catalog.cases("draw_params") if not export_c.unsupported(c)]
    assert {s.command for c in cases for s in c.steps} >= set(export_c.SINGLE + export_c.INDIRECT)
    multi = next(c for c in cases if len(c.steps) == 1 and c.steps[0].command == "MultiDrawElementsBaseVertex")
    draw = multi.steps[0]
    state = DrawState(patch_vertices=3, default_outer=(1.0, 2.5, 3.0, 4.0), default_inner=(0.5, 2.0),
                      enable=("DEPTH_TEST",))
    attributes = tuple(dataclasses.replace(a, type=t, name=f"a{i}")
                       for i, (a, t) in enumerate(zip(multi.attributes, ("int", "uint"))))
    case = dataclasses.replace(multi, programs=(multi.shaders,), attributes=attributes, steps=(
        dataclasses.replace(draw, program=1, state=state, restart_index=7),
        dataclasses.replace(draw, entries=(), delete_programs=(1,), label="")))
    source = export_c.program(case)
    for line in ("glUseProgram(progs[1]);", "glDeleteProgram(progs[1]);", "glPatchParameteri(GL_PATCH_VERTICES, 3);",
                 "glEnable(GL_DEPTH_TEST);", "glDisable(GL_DEPTH_TEST);", "glPrimitiveRestartIndex(7u);",
                 "glVertexAttribIPointer(", "const void *offsets[] = {NULL};", '"draw 1"'):
        assert line in source
    (tmp_path / "repro.c").write_text(source)
    subprocess.run(["cc", "-Wall", "-Werror", "-fsyntax-only", str(tmp_path / "repro.c")], check=True)
