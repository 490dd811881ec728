"""End to end: pytest runs real cases on llvmpipe and zink and writes JUnit and results.json."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from harness.executor import targets
from harness.model.facts import Facts
from conftest import ROOT, SYSTEM_ONLY_ENV, on_the_systems_mesa
from junitparser import Failure, JUnitXml, Properties

SELECTION = "no-tcs/quads/equal/pv4 or no-tcs/isolines/equal/initial"


def pytest_run(*args, cwd=ROOT, env=None):
    # This checkout's harness, also from a tree elsewhere (an installed one may be another's).
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": path, **(env or {})})


def test_parallel_run_writes_junit_and_results(tmp_path):
    proc = pytest_run("-n", "2", "tests/tess", "-k", SELECTION, "--target", "llvmpipe",
                      "--target", "zink", "--results-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    suite = next(iter(JUnitXml.fromfile(str(tmp_path / "junit.xml"))))
    cases = {tc.name: tc for tc in suite}
    ids = {name.rsplit("[", 1)[0] for name in cases}
    assert "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7" in ids
    assert "tess/no-tcs/isolines/equal/initial" in ids
    assert set(cases) == {f"{i}[{t}]" for i in ids for t in ("llvmpipe", "zink")}
    for name, tc in cases.items():
        props = {p.name: p.value for p in tc.child(Properties)}
        assert props["case_id"] == name.rsplit("[", 1)[0]
        assert props["target"] == name[:-1].rsplit("[", 1)[1]
        assert props["status"] == "pass" and tc.is_passed
        assert ("zink" in props["renderer"]) == (props["target"] == "zink")
        assert props["gl_version"].startswith("4.")

    results = json.loads((tmp_path / "results.json").read_text())["results"]
    assert sorted((r["id"], r["target"]) for r in results) == \
        sorted((n.rsplit("[", 1)[0], n[:-1].rsplit("[", 1)[1]) for n in cases)
    assert all(r["status"] == "pass" and r["duration"] > 0 for r in results)


HAZARD_FAMILY = '''
"""A family whose second draw forgets to set the levels: the stale-levels hazard."""
import dataclasses, importlib.util, sys
# The real tess family, a package of sub-family modules, under a name of its own.
spec = importlib.util.spec_from_file_location("real_tess", {tess!r} + "/cases.py", submodule_search_locations=[{tess!r}])
tess = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = tess
spec.loader.exec_module(tess)

def generate():
    case = {{c.id: c for c in tess.generate()}}[{case_id!r}]
    draws = list(case.steps)
    draws[1] = dataclasses.replace(draws[1], state=dataclasses.replace(
        draws[1].state, default_outer=None, default_inner=None))
    return [dataclasses.replace(case, steps=tuple(draws))]
'''


def family_tree(tmp_path, source: str):
    """A project tree with one family, tests/tess/cases.py, holding `source`."""
    (tmp_path / "tests" / "tess").mkdir(parents=True)
    (tmp_path / "tests" / "tess" / "cases.py").write_text(source)
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["harness.pytest_adapter.plugin"]\n')
    (tmp_path / "pytest.ini").write_text("[pytest]\njunit_logging = system-out\njunit_log_passing_tests = false\n")
    return tmp_path


def test_failure_reaches_junit_with_observed_and_expected(tmp_path):
    case_id = "tess/no-tcs/triangles/equal/pv4/o2_3_4-i6/then/o2.5_1.25_3.75-i3.5"
    tree = family_tree(tmp_path, HAZARD_FAMILY.format(tess=str(ROOT / "tests" / "tess"), case_id=case_id))
    proc = pytest_run("tests/tess", "--target", "llvmpipe", "--rootdir", str(tree), cwd=tree)
    assert proc.returncode == 1, proc.stdout[-3000:]
    suite = next(iter(JUnitXml.fromfile(str(tree / "results" / "junit.xml"))))
    (tc,) = list(suite)
    assert tc.name == f"{case_id}[llvmpipe]"
    (failure,) = [r for r in tc.result if isinstance(r, Failure)]
    text = failure.text or failure.message
    assert "patch 0, TES: gl_TessLevelOuter = (2, 3, 4), expected (2.5, 1.25, 3.75)" in text
    assert "llvmpipe: llvmpipe (LLVM" in text                 # target and renderer string
    (entry,) = json.loads((tree / "results" / "results.json").read_text())["results"]
    assert entry["status"] == "fail" and "gl_TessLevelOuter" in entry["message"]


def test_baseline_expected_failure_and_unexpected_pass(tmp_path):
    case_id = "tess/no-tcs/triangles/equal/pv4/o2_3_4-i6/then/o2.5_1.25_3.75-i3.5"
    tree = family_tree(tmp_path, HAZARD_FAMILY.format(tess=str(ROOT / "tests" / "tess"), case_id=case_id))
    proc = pytest_run("tests/tess", "--target", "llvmpipe", "--target", "zink", cwd=tree)
    assert proc.returncode == 1
    failures = (tree / "results" / "failures.csv").read_text().splitlines()
    assert sorted(failures[1:]) == [f"{case_id}[llvmpipe],Fail", f"{case_id}[zink],Fail"]

    results_csv = (tree / "results" / "results.csv").read_text()
    assert sorted(line.rsplit(",", 1)[0] for line in results_csv.splitlines()) == \
        [f"{case_id}[llvmpipe],Fail", f"{case_id}[zink],Fail"]              # deqp-runner's spelling

    # failures.csv is a baseline, and so is results.csv as deqp-runner's is: with either the same
    # run passes, JUnit shows what was expected, and the manifest names the file that did it.
    (tree / "base.csv").write_text("\n".join(failures) + "\n")
    (tree / "results.csv").write_text(results_csv)
    for gate in ("base.csv", "results.csv"):
        proc = pytest_run("tests/tess", "--target", "llvmpipe", "--target", "zink", "--baseline", gate, cwd=tree)
        assert proc.returncode == 0, proc.stdout[-2000:]
        assert "2 expected fail" in proc.stdout.splitlines()[-1]          # named as such, not as skips
        for tc in next(iter(JUnitXml.fromfile(str(tree / "results" / "junit.xml")))):
            (skipped,) = tc.result
            assert skipped.message.startswith("expected Fail (baseline): draw 1 (glDrawArrays")
        manifest = json.loads((tree / "results" / "manifest.json").read_text())
        assert manifest["baseline"] == [{"path": gate, "sha256": hashlib.sha256((tree / gate).read_bytes()).hexdigest()}]
        assert manifest["flakes"] == manifest["skips"] == []
    assert {line.split(",")[-2] for line in (tree / "results" / "results.csv").read_text().splitlines()} == \
        {"ExpectedFail"}

    # A case listed twice, across baselines as in one, is an error naming both lines.
    proc = pytest_run("tests/tess", "--target", "llvmpipe", "--baseline", "base.csv", "--baseline", "results.csv",
                      cwd=tree)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"Exit: ERROR: {case_id}[llvmpipe] is listed twice: base.csv:{failures.index(f'{case_id}[llvmpipe],Fail') + 1} "
        f"and results.csv:{results_csv.splitlines().index(next(l for l in results_csv.splitlines() if '[llvmpipe]' in l)) + 1} "
        "(a baseline lists a case once)"]

    # A case the baseline expects to fail that passes fails the run: the baseline is stale.
    passing = "tess/no-tcs/quads/equal/initial"
    (tree / "stale.csv").write_text(f"# stale\n{passing},Fail\n")
    proc = pytest_run(str(ROOT / "tests" / "tess"), "--rootdir", str(ROOT), "-k", f"{passing}[llvmpipe]",
                      "--target", "llvmpipe", "--baseline", str(tree / "stale.csv"),
                      "--results-dir", str(tmp_path / "stale"), cwd=ROOT)
    assert proc.returncode == 1
    assert "unexpected pass: the baseline expects Fail; update the baseline" in proc.stdout
    assert "harness: the failures include 1 unexpected pass" in proc.stdout


def test_malformed_baseline_is_one_line(tmp_path):
    (tmp_path / "bad.csv").write_text("tess/no-tcs/quads/equal/initial,Broken\n")
    proc = pytest_run("tests/tess", "--target", "llvmpipe", "--baseline", str(tmp_path / "bad.csv"))
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"Exit: ERROR: {tmp_path / 'bad.csv'}:1: expected 'case-id,Fail|Crash|Timeout' (or a results.csv line: "
        "'case-id,Status,duration'), got 'tess/no-tcs/quads/equal/initial,Broken'"]


def test_malformed_case_file_is_a_clear_error(tmp_path):
    tree = family_tree(tmp_path, "def generate():\n    return [{'id': 'not a case'}]\n")
    proc = pytest_run("tests/tess", "--target", "llvmpipe", cwd=tree)
    assert proc.returncode not in (0, 5)
    assert "tests/tess/cases.py" in proc.stdout


def test_unknown_target_is_one_line_and_nonzero():
    proc = pytest_run("tests/tess", "--target", "nope")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "Exit: ERROR: unknown target 'nope' (known: llvmpipe, zink, zink-optimal, system-gl, lavapipe, lavapipe-split, "
        "system-vk, zink-system)"]


def test_a_target_running_another_driver_is_refused():
    """Seen on the GPU machine: with NVIDIA's EGL vendor file set, the llvmpipe target's child
    got NVIDIA's GL. A target whose renderer is not its driver's is not available."""
    llvmpipe = targets.get("llvmpipe")
    assert llvmpipe.wrong_driver(Facts(renderer="llvmpipe (LLVM 15.0.6, 256 bits)")) == ""
    why = llvmpipe.wrong_driver(Facts(renderer="NVIDIA H100 80GB HBM3/PCIe/SSE2"))
    assert "NVIDIA H100" in why and "/^llvmpipe/" in why
    assert targets.get("zink").wrong_driver(Facts(renderer="zink (NVIDIA H100 80GB HBM3)"))       # zink, not on lavapipe
    assert targets.get("system-gl").wrong_driver(Facts(renderer="anything")) == ""


def test_target_with_missing_driver_is_refused_with_reason():
    """An explicitly requested target whose driver (here: the Vulkan ICD) is missing."""
    proc = pytest_run("tests/tess", "--target", "system-vk",
                      env={"VK_ICD_FILENAMES": "/nonexistent/icd.json", "VK_DRIVER_FILES": "/nonexistent/icd.json"})
    assert proc.returncode == 2
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("Exit: ERROR: target system-vk is not available: ")
    assert "Vulkan" in line


def test_harness_targets_env_selects():
    proc = pytest_run("tests/tess", "--collect-only", "-q", env={"HARNESS_TARGETS": "zink"})
    items = [line for line in proc.stdout.splitlines() if "::" in line]
    assert len(items) >= 100 and all(line.endswith("[zink]") for line in items)


ONE_CASE = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"


def platform_of_one_case(tmp_path, *args, prefix=(), env=None, base=None) -> str:
    """Run one real case on llvmpipe; return the GL platform its JUnit properties name."""
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/tess",
         "-k", f"{ONE_CASE}[llvmpipe]", "--target", "llvmpipe",
         "--results-dir", str(tmp_path), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={**(base or os.environ), **(env or {})})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "1 passed" in proc.stdout
    (tc,) = list(next(iter(JUnitXml.fromfile(str(tmp_path / "junit.xml")))))
    return {p.name: p.value for p in tc.child(Properties)}["platform"]


@pytest.mark.skipif(not shutil.which("xvfb-run"), reason="xvfb-run not installed (Debian package xvfb)")
def test_glfw_platform_under_xvfb(tmp_path):
    """On the system's Mesa: GLFW's context comes through GLX (glvnd's libGLX_mesa), which a
    fetched Mesa's folder does not hold, so under the pinned Mesa the host's GLX loads and, on a
    host of another release (Debian 13's 25.0.7), the harness rightly refuses the target
    ('loaded .../libgallium-25.0.7-2+deb13u1.so, not only Mesa 22.3.6')."""
    on_the_systems_mesa({"llvmpipe": [ONE_CASE]})
    assert platform_of_one_case(tmp_path, "--gl-platform", "glfw", prefix=("xvfb-run", "-a"),
                                base=SYSTEM_ONLY_ENV).startswith("GLFW 3.")


def test_egl_device_platform_fallback(tmp_path):
    """Where surfaceless EGL is missing, the EGL device platform is used (forced here)."""
    assert platform_of_one_case(tmp_path, env={"HARNESS_EGL_PLATFORM": "device"}) == "EGL 1.5 device 0"
    assert platform_of_one_case(tmp_path) == "EGL 1.5 surfaceless"


def test_targets_command_prints_facts():
    proc = subprocess.run([sys.executable, "-m", "harness", "targets", "llvmpipe", "zink"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # zink names its Vulkan device: "zink (llvmpipe ...)" in 22.3.6, "zink Vulkan 1.4(llvmpipe ...)" later
    assert "renderer: llvmpipe (LLVM" in out and re.search(r"renderer: zink .*\(llvmpipe", out)
    for limit in ("GL_MAX_VARYING_COMPONENTS = ", "GL_MAX_PATCH_VERTICES = 32", "GL_MAX_TESS_GEN_LEVEL = 64"):
        assert out.count(limit) == 2
    assert "4.6 (Compatibility Profile)" in out and "4.5 (Core Profile)" in out
    bad = subprocess.run([sys.executable, "-m", "harness", "targets", "nope"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown target 'nope'" in bad.stderr
