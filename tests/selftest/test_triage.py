"""Triage tooling: compare, shards and merge, skips and flakes, JUnit attachments, bisect-run, export."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT
from junitparser import JUnitXml, Properties
from test_plugin_e2e import HAZARD_FAMILY, family_tree, pytest_run

from harness import catalog, export, results
from harness.case import DrawEntry
from harness.compare import compare, format_report

HAZARD_ID = "tess/no-tcs/triangles/equal/pv4/o2_3_4-i6/then/o2.5_1.25_3.75-i3.5"


def entry(case_id, target, status):
    return {"id": case_id, "target": target, "status": status, "duration": 0.1}


def test_compare_orders_by_severity():
    old = [entry("a/x", "t", "pass"), entry("a/y", "t", "pass"), entry("a/z", "t", "crash"),
           entry("a/gone", "t", "pass"), entry("a/w", "t", "skip")]
    new = [entry("a/x", "t", "fail"), entry("a/y", "t", "crash"), entry("a/z", "t", "pass"),
           entry("a/new", "t", "timeout"), entry("a/w", "t", "fail")]
    diff = compare(old, new)
    assert diff["regressions"] == [("a/y[t]", "pass", "crash"), ("a/x[t]", "pass", "fail")]
    assert diff["fixes"] == [("a/z[t]", "crash", "pass")]
    assert diff["new"] == [("a/new[t]", "", "timeout")] and diff["removed"] == [("a/gone[t]", "pass", "")]
    assert "regressions: 2\n  a/y[t]: pass -> crash" in format_report(diff)
    by_id = compare([entry("a/x", "llvmpipe", "pass")], [entry("a/x", "zink", "fail")], by_id=True)
    assert by_id["regressions"] == [("a/x", "pass", "fail")]


def harness_cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def test_compare_cli_exit_status(tmp_path):
    for name, status in (("old", "pass"), ("new", "fail")):
        results.write(tmp_path / name, [entry("tess/no-tcs/x", "llvmpipe", status)])
    assert harness_cli("compare", str(tmp_path / "old"), str(tmp_path / "new")).returncode == 1
    assert harness_cli("compare", str(tmp_path / "new"), str(tmp_path / "old")).returncode == 0
    bad = harness_cli("compare", str(tmp_path / "nowhere"), str(tmp_path / "old"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no such results file" in bad.stderr


def test_shards_run_every_case_exactly_once(tmp_path):
    full = pytest_run("tests/draw_params", "--target", "llvmpipe", "--collect-only", "-q", "-p", "no:xdist")
    everything = {line for line in full.stdout.splitlines() if "::" in line}
    assert len(everything) > 300
    for k in (1, 2, 3):
        proc = pytest_run("tests/draw_params", "--target", "llvmpipe", "--shard", f"{k}/3", "-p", "no:xdist", "-q",
                          "--results-dir", str(tmp_path / f"shard{k}"))
        assert proc.returncode == 0, proc.stdout[-2000:]
    merged = harness_cli("merge", str(tmp_path / "all"), *(str(tmp_path / f"shard{k}") for k in (1, 2, 3)))
    assert merged.returncode == 0, merged.stderr
    entries = results.read(tmp_path / "all")
    keys = [results.key(e) for e in entries]
    assert len(keys) == len(set(keys)) == len(everything)
    junit = list(next(iter(JUnitXml.fromfile(str(tmp_path / "all" / "junit.xml")))))
    assert len(junit) >= 1
    assert sum(len(list(suite)) for suite in JUnitXml.fromfile(str(tmp_path / "all" / "junit.xml"))) == len(keys)
    twice = harness_cli("merge", str(tmp_path / "dup"), str(tmp_path / "shard1"), str(tmp_path / "shard1"))
    assert twice.returncode == 2 and "is in both" in twice.stderr


def test_failure_junit_classname_properties_and_attachment(tmp_path):
    tree = family_tree(tmp_path, HAZARD_FAMILY.format(tess=str(ROOT / "tests" / "tess"), case_id=HAZARD_ID))
    proc = pytest_run("tests/tess", "--target", "llvmpipe", cwd=tree)
    assert proc.returncode == 1
    (tc,) = list(next(iter(JUnitXml.fromfile(str(tree / "results" / "junit.xml")))))
    assert tc.classname == "llvmpipe.tess"
    props = {p.name: p.value for p in tc.child(Properties)}
    assert props["harness_version"] and props["harness_git"] and props["renderer"].startswith("llvmpipe")
    attachment = tc.system_out.split("[[ATTACHMENT|", 1)[1].split("]]", 1)[0]
    reproducer = json.loads(open(attachment).read())
    assert reproducer["id"] == HAZARD_ID
    stem = export.file_stem(HAZARD_ID, "llvmpipe")
    observation = json.loads((tree / "results" / "observations" / f"{stem}.json").read_text())
    assert observation["target"] == "llvmpipe" and observation["observation"]["draws"]


def test_skips_and_flakes_files(tmp_path):
    tree = family_tree(tmp_path, HAZARD_FAMILY.format(tess=str(ROOT / "tests" / "tess"), case_id=HAZARD_ID))
    (tree / "skips.txt").write_text("# skip it on zink only\n\\[zink\\]$\n")
    (tree / "flakes.txt").write_text("tess/no-tcs/triangles/.*\\[llvmpipe\\]\n")
    proc = pytest_run("tests/tess", "--target", "llvmpipe", "--target", "zink", "--skips", "skips.txt",
                      "--flakes", "flakes.txt", cwd=tree)
    assert proc.returncode == 0, proc.stdout[-2000:]
    by_target = {e["target"]: e for e in results.read(tree / "results")}
    assert by_target["zink"]["status"] == "skip" and "skips.txt:2" in by_target["zink"]["message"]
    assert by_target["llvmpipe"]["status"] == "flake" and "flakes.txt:1" in by_target["llvmpipe"]["message"]
    (tree / "bad.txt").write_text("([unclosed\n")
    bad = pytest_run("tests/tess", "--target", "llvmpipe", "--flakes", "bad.txt", cwd=tree)
    assert bad.returncode == 2 and "bad.txt:1: bad regular expression" in bad.stderr


def test_bisect_run_exit_codes():
    case = "draw_params/DrawArrays/f5c4/glsl450/vs"
    assert harness_cli("bisect-run", case, "--target", "lavapipe").returncode == 0
    failing = harness_cli("bisect-run", case, "--target", "lavapipe", "--vk-without", "base-vertex")
    assert failing.returncode == 1 and "gl_BaseVertex = 5, expected 0" in failing.stdout
    broken = harness_cli("bisect-run", case, "--target", "system-vk",
                         env={"VK_ICD_FILENAMES": "/nonexistent.json", "VK_DRIVER_FILES": "/nonexistent.json"})
    assert broken.returncode == 125 and "cannot start" in broken.stdout
    assert harness_cli("bisect-run", "tess/no/such/case", "--target", "llvmpipe").returncode == 128


@pytest.mark.parametrize("fmt, suffixes", [("glsl", (".json", ".vert", ".tese")), ("shader_test", (".shader_test",)),
                                           ("vkrunner", (".vk_shader_test",))])
def test_export_formats(tmp_path, fmt, suffixes):
    case = catalog.find("tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7")
    written = export.export(case, fmt, tmp_path)
    assert tuple(p.suffix for p in written) == suffixes
    text = written[0].read_text()
    if fmt == "glsl":
        assert json.loads(text)["id"] == case.id and written[2].read_text() == dict(case.shaders)["tes"]
    else:
        assert "[tessellation evaluation shader]" in text and "patch parameter vertices 4" in text
        assert "patch parameter default level outer 2 3 4 5" in text
        assert "# expected, draw 0 (glDrawArrays(GL_PATCHES, 0, 8)), patch 0, TES: gl_TessLevelOuter" in text
    if fmt == "vkrunner":
        assert "[tessellation control shader]" in text and "_layer.outer[0]" in text    # the injected TCS


@pytest.mark.parametrize("fmt, line", [("shader_test", "draw arrays instanced GL_PATCHES 0 4 3"),
                                       ("vkrunner", "draw arrays instanced PATCHES 0 4 3")])
def test_export_instanced_draw_in_the_runners_syntax(tmp_path, fmt, line):
    """shader_runner and VkRunner read `draw arrays instanced MODE first count instances`."""
    case = catalog.find("tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7")
    draw = case.draws[0]
    case = dataclasses.replace(case, draws=(dataclasses.replace(
        draw, command="DrawArraysInstanced", entries=(DrawEntry(4, instance_count=3),)),))
    text = export.export(case, fmt, tmp_path)[0].read_text()
    assert line in text.splitlines()
