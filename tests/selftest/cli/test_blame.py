"""`python -m harness blame`: bad input is one line and a non-zero exit; the fetched validation layer's JSON."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_an_unknown_case_is_one_line_and_exit_2():
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/no/such/case"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "python -m harness blame: no case 'draw_params/no/such/case' in family draw_params"]


def test_a_validation_layer_folder_without_the_layer_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/DrawArrays/f5c4/glsl450/gs",
                           "--validation-layer-path", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"python -m harness blame: no VkLayer_khronos_validation.json in {tmp_path} "
        "(bin/fetch-validation-layer prints such a folder)"]


def test_the_fetched_layer_json_names_its_library_by_absolute_path(tmp_path):
    from harness.mesa.fetch_layer import layer_json
    package = {"file_format_version": "1.2.0",
               "layer": {"name": "VK_LAYER_KHRONOS_validation", "library_path": "libVkLayer_khronos_validation.so"}}
    library = tmp_path / "root" / "libVkLayer_khronos_validation.so"
    written = layer_json(package, library)
    assert written["layer"] == {"name": "VK_LAYER_KHRONOS_validation", "library_path": str(library)}
    assert package["layer"]["library_path"] == "libVkLayer_khronos_validation.so"    # the input untouched


def test_repeats_below_one_is_one_line_and_exit_2():
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/DrawArrays/f5c4/glsl450/gs",
                           "--repeats", "0"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["python -m harness blame: --repeats 0: give 1 or more"]


def test_a_bad_failure_expression_is_one_line_and_exit_2():
    """blame's --failure is compiled as bisect's is (bisect_run.pattern), with the same line."""
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/DrawArrays/f5c4/glsl450/gs",
                           "--failure", "gl_BaseVertex ("], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "python -m harness blame: --failure 'gl_BaseVertex (' is not a regular expression: "
        "missing ), unterminated subpattern at position 14"]


def test_the_old_runs_flag_warns_and_still_means_repeats():
    """--runs, blame's old name of --repeats, for one release: one warning line, the same value."""
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/DrawArrays/f5c4/glsl450/gs",
                           "--runs", "0"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "python -m harness blame: --runs is deprecated, renamed --repeats; the old name goes in the next release",
        "python -m harness blame: --repeats 0: give 1 or more"]


def test_a_row_fails_when_one_of_its_runs_does_and_says_how_many(monkeypatch):
    """An intermittent crash (zink-seq-delete-crash: some runs in twelve) is a failing row; the
    runs are scripted here (the rows' logic, not a driver)."""
    from harness.triage import blame
    from harness.triage.blame_rules import Row
    script = iter([Row("zink/lavapipe", "25.0.7", "pass"),
                   Row("zink/lavapipe", "25.0.7", "crash", "child process died: SIGSEGV"),
                   Row("zink/lavapipe", "25.0.7", "pass")])
    monkeypatch.setattr(blame, "_once", lambda *args: next(script))
    setup = blame.Setup("zink/lavapipe", target=None)
    row = blame._repeated(None, setup, None, 1.0, "", runs=3)
    assert (row.status, row.message) == ("crash", "child process died: SIGSEGV (1 of 3 runs)")
    script = iter([Row("llvmpipe", "25.0.7", "pass")] * 2)
    assert blame._repeated(None, blame.Setup("llvmpipe", target=None), None, 1.0, "", runs=2) == \
        Row("llvmpipe", "25.0.7", "pass", "(2 runs)")


def test_evidence_saved_on_one_machine_joins_the_table_on_another(tmp_path):
    """A GPU machine's zink/other row (blame --save-evidence there) fills the setup this machine
    cannot run, for the same Mesa only; it then decides rule 6 (docs/triage.md)."""
    from harness.triage import blame
    from harness.triage.blame_rules import Row, judge
    here = [Row("llvmpipe", "25.0.7", "pass"), Row("zink/lavapipe", "25.0.7", "crash", "SIGSEGV (2 of 12 runs)"),
            Row("layer/native", "25.0.7", "pass", zinks_path=True), Row("layer/split", "25.0.7", "pass")]
    assert judge(here).component == "undecided"
    gpu = [Row("llvmpipe", "25.0.7", "pass", renderer="llvmpipe (LLVM 19.1.7)"),
           Row("zink/lavapipe", "25.0.7", "error", "did not start: no lavapipe"),
           Row("zink/other", "25.0.7", "crash", "SIGSEGV (5 of 5 runs)", renderer="zink Vulkan 1.4(NVIDIA H100)"),
           Row("zink/other", "26.2.6", "pass")]
    path = tmp_path / "gpu.json"
    blame.save(path, {"tess/seq/x": gpu})
    loaded = blame.recorded(path)["tess/seq/x"]
    assert [(r.setup, r.mesa, r.status, r.recorded) for r in loaded] == \
        [(r.setup, r.mesa, r.status, str(path)) for r in gpu]
    table, left_out = blame.merge(here, loaded)
    assert [r.setup for r in table] == ["llvmpipe", "zink/lavapipe", "layer/native", "layer/split", "zink/other"]
    assert {(r.setup, r.mesa) for r in left_out} == {("llvmpipe", "25.0.7"), ("zink/lavapipe", "25.0.7"),
                                                    ("zink/other", "26.2.6")}
    verdict = judge(table)
    assert verdict.component == "zink", verdict.reason
    assert "[zink Vulkan 1.4(NVIDIA H100); recorded in" in blame.table(table)


def test_a_file_that_is_not_evidence_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"cases": {"x": [{"nope": 1}]}}')
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/DrawArrays/f5c4/glsl450/gs",
                           "--evidence", str(bad)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith(f"python -m harness blame: --evidence {bad}: not evidence written by blame")
