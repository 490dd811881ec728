"""Exploration and reduction (harness/explore): determinism for a seed, ids that rebuild their
case, the reducer reaching a known minimum on a stand-in failure (pure logic), and on real
drivers: a reduced case that still fails the same way, and a short fixed-seed exploration end
to end."""
from __future__ import annotations

import dataclasses
import json
import math
from types import SimpleNamespace

import pytest
from hypothesis import given, settings

from harness.sources import catalog
from harness.explore import findings, search
from harness.__main__ import main as harness_main
from harness.explore import coverage as compare
from harness.sources.explored import id_codec as ids, kept, space
from harness.explore.signature import finding_key, quantities, reduction_key, same_failure
from harness.model.status import Verdict
from harness.model.status import Status

from conftest import pinned_args, pinned_mesa


def passing(case) -> Verdict:
    return Verdict(Status.PASS)


def base_vertex_bug(case) -> Verdict:
    """A stand-in driver with the hazard's classic defect: gl_BaseVertex = first in a
    non-indexed draw with first != 0 that draws something."""
    for index, draw in enumerate(case.draws()):
        if "Elements" not in draw.command and any(e.first and e.count and e.instance_count for e in draw.entries):
            return Verdict(Status.FAIL, f"draw {index} (gl{draw.command}), vertex 0, instance 0: "
                                        f"gl_BaseVertex = {draw.entries[0].first}, expected 0\n[stand-in]")
    return Verdict(Status.PASS)


# The simplest case with that defect: one DrawArrays of one vertex from first 1, VS only.
BASE_VERTEX_MINIMUM = {"chain": "vs", "index_type": "uint", "only_draw_id": False, "version": 450,
                       "draws": [{"command": "DrawArrays", "entries": [[1, 1, 1, 0, 0]], "restart": False,
                                  "offset": 0, "stride": 0, "draw_count": None}]}


@pytest.mark.parametrize("family", space.FAMILIES)
def test_same_seed_same_cases(family):
    sp = space.get(family)
    first = [s.case.id for s in search.explore(sp, passing, 7, search.Budget(cases=15))]
    again = [s.case.id for s in search.explore(sp, passing, 7, search.Budget(cases=15))]
    other = [s.case.id for s in search.explore(sp, passing, 8, search.Budget(cases=15))]
    assert len(first) == 15 and first == again
    assert first != other


@pytest.mark.parametrize("family", space.FAMILIES)
def test_explored_ids_rebuild_their_case(family):
    sp = space.get(family)

    @settings(max_examples=40, database=None, deadline=None)
    @given(sp.strategy())
    def check(params):
        case = search.build(sp, params)
        if case is None:
            return
        assert ids.decode(case.id) == (family, params)
        again = ids.find(case.id)
        assert again.to_json() == case.to_json()
    check()


@pytest.mark.parametrize("family", space.FAMILIES)
def test_fixed_cases_map_into_the_space(family):
    """Every fixed case the space can express rebuilds with the same program and expectations."""
    sp = space.get(family)
    expressed = 0
    for case in catalog.cases(family)[::7]:
        params = sp.from_case(case)
        if params is None:
            continue
        expressed += 1
        rebuilt = sp.build(params)
        assert rebuilt.shaders == case.shaders and rebuilt.expect == case.expect, case.id
        assert ids.decode(ids.encode(family, params)) == (family, params)      # its words are in VOCAB
    assert expressed


def test_reducer_reaches_the_known_minimum():
    sp = space.get("draw_params")
    start = {"chain": "gs", "index_type": "ubyte", "only_draw_id": False, "version": 460, "draws": [
        {"command": "DrawElementsBaseVertex", "entries": [[4, 1, 2, 3, 0]], "restart": True, "offset": 0,
         "stride": 0, "draw_count": None},
        {"command": "MultiDrawArraysIndirect", "entries": [[4, 5, 7, 0, 10], [7, 5, 17, 0, 9]], "restart": False,
         "offset": 4, "stride": 24, "draw_count": None}]}
    original = base_vertex_bug(ids.build("draw_params", start))
    assert original.status is Status.FAIL
    result = search.reduce(sp, start, base_vertex_bug, reduction_key(original))
    assert result is not None and result.params == BASE_VERTEX_MINIMUM
    again = search.reduce(sp, start, base_vertex_bug, reduction_key(original))
    assert again.params == result.params                          # deterministic


def test_reducer_keeps_the_failure_kind():
    """A crash reduces to a crash, never to a case that fails some other way."""
    sp = space.get("draw_params")

    def crashes_on_gs(case):
        if case.shader("gs"):
            return Verdict(Status.CRASH, "child process died: killed by SIGSEGV\n[stand-in]")
        return base_vertex_bug(case)
    start = dict(BASE_VERTEX_MINIMUM, chain="gs", version=460)
    key = reduction_key(crashes_on_gs(ids.build("draw_params", start)))
    result = search.reduce(sp, start, crashes_on_gs, key)
    assert result.outcome.status is Status.CRASH and result.params["chain"] == "gs"
    assert result.params["version"] == 450


def test_signatures():
    message = ("fail: draw 0, patch 1, TES: gl_TessLevelOuter = (1, 1), expected (2, 3)\n"
               "draw 0 (glDrawArrays), entry 2, vertex 3, instance 0: gl_BaseVertex = 5, expected 0\n"
               "... and 3 more\n[llvmpipe: renderer]")
    assert quantities(message) == ("TES gl_TessLevelOuter", "gl_BaseVertex")
    assert quantities("draw 0 (glDrawArrays(GL_PATCHES, 0, 12)): pixel (2, 0): FS gl_PrimitiveID (patch 1) = 0, "
                      "expected 1\ndraw 0, record 5 (gl_PrimitiveID = 0): gl_TessCoord = (1, 2, 0), expected every "
                      "component in [0, 1]") == ("FS gl_PrimitiveID (patch #)", "gl_TessCoord")
    assert quantities("draw 0, patch 1, GS: gl_PrimitiveIDIn (GS): 2 of 2 expected values never seen, e.g. (0)\n"
                      "draw 0: nor is it patch 1, GS, the patch number\n[x]") == ("GS gl_PrimitiveIDIn (GS)",)
    key = reduction_key(Verdict(Status.FAIL, message))
    assert key == ("fail", "TES gl_TessLevelOuter")
    assert same_failure(key, Verdict(Status.FAIL, "draw 3, patch 0, TES: gl_TessLevelOuter = 0, expected 1\n[x]"))
    assert not same_failure(key, Verdict(Status.CRASH, "child process died: killed by SIGSEGV"))
    case = ids.build("draw_params", BASE_VERTEX_MINIMUM)
    crash = finding_key(case, Verdict(Status.CRASH, "child process died: killed by SIGSEGV\n--- stderr tail ---\n"
                                                    "vkCreateGraphicsPipelines: 0x7f00 failed\n[zink: x]"))
    assert crash == {"status": "crash", "stages": ["vs"],
                     "driver": "child process died: killed by SIGSEGV | vkCreateGraphicsPipelines: # failed"}


def test_reduced_case_fails_the_same_way_on_a_real_driver():
    """lavapipe with the layer's base-vertex lowering left out hands gl_BaseVertex = first to a
    non-indexed draw: a fixed case reduces to the known minimum, which fails that way again on
    a fresh child."""
    from harness.explore.driver import TRIAGE, driver
    without = dataclasses.replace(TRIAGE, mesa=pinned_mesa(), vk_without=("base-vertex",))
    sp = space.get("draw_params")
    case = catalog.find("draw_params/DrawArrays/f5c4/glsl450/gs")
    with driver("lavapipe", without) as run:
        original = run(case)
        assert original.status is Status.FAIL
        key = reduction_key(original)
        assert key == ("fail", "gl_BaseVertex")
        result = search.reduce(sp, sp.from_case(case), run, key, max_runs=60)
    assert result.params == BASE_VERTEX_MINIMUM
    with driver("lavapipe", without) as run:
        assert same_failure(key, run(ids.find(result.case.id)))
    with driver("lavapipe", dataclasses.replace(TRIAGE, mesa=pinned_mesa())) as run:     # the lowering on: it passes
        assert run(ids.find(result.case.id)).status is Status.PASS


def test_short_exploration_end_to_end(tmp_path, capsys):
    """A fixed-seed exploration of every family on llvmpipe, as CI runs it: it runs, writes its
    findings, and each finding's reduced id rebuilds."""
    argv = ["--seed", "1", "--budget", "6", "--target", "llvmpipe", "--results-dir", str(tmp_path),
            "--reduce-runs", "20"] + [a for f in space.FAMILIES for a in ("--family", f)] + pinned_args()
    code = harness_main(["explore", *argv])
    assert code in (0, 1)
    for family in space.FAMILIES:
        report = json.loads((tmp_path / family / "findings.json").read_text())
        judged = report["cases_run"] - report["statuses"].get("skip", 0)
        assert judged == 6 and report["seed"] == 1
        assert (code == 1) or not report["findings"]
        for finding in report["findings"]:
            assert ids.find(finding["reduced_id"])
            assert (tmp_path / family / finding["folder"] / "case.json").is_file()
    capsys.readouterr()
    assert harness_main(["explore", "summary", str(tmp_path)]) == 0
    table = capsys.readouterr().out
    assert all(f"| llvmpipe | {family} | " in table for family in space.FAMILIES)


def test_kept_findings_become_fixed_cases(tmp_path):
    (tmp_path / "tests" / "draw_params").mkdir(parents=True)
    case_id = ids.build("draw_params", BASE_VERTEX_MINIMUM).id
    kept.add(case_id, "gl_BaseVertex = first in a non-indexed draw", root=tmp_path)
    kept.add(case_id, "again", root=tmp_path)                           # kept once
    assert [c.id for c in kept.cases("draw_params", root=tmp_path)] == [case_id]
    assert kept.entries("draw_params", root=tmp_path)[0]["note"].startswith("gl_BaseVertex")


def test_compare_with_the_fixed_lists(tmp_path):
    """A finding is found by the fixed list where a baseline-listed case fails the same way."""
    listed = tmp_path / "baseline.csv"
    listed.write_text("# two fixed failures, one on another target\n"
                      "draw_params/DrawArrays/f5c4/glsl450/gs[lavapipe],Fail\n"
                      "draw_params/DrawArrays/f0c4/glsl450/vs[zink],Fail\n")
    fixed = compare.fixed_failures([listed], "draw_params", "lavapipe")
    assert fixed == ["draw_params/DrawArrays/f5c4/glsl450/gs"]
    case = ids.build("draw_params", BASE_VERTEX_MINIMUM)
    finding = findings.Finding({}, case, base_vertex_bug(case), case, base_vertex_bug(case), "test")
    result = compare.compare([finding], fixed, base_vertex_bug)
    assert result["matches"] == [fixed] and result["missed"] == []


def test_id_encoding_round_trip():
    sp = space.get("varyings")
    value = [[None, "vec4", "", 0, None, None]] * 33 + [[None, "float", "flat", 2, 3, None]]
    text = ids.pack(value, sp)
    assert text.startswith("am33x") and ids.unpack(text, sp) == value        # runs of equal items
    plain = [-2, 0, True, None, "vec4", [[], [7, 7]]]
    assert ids.unpack(ids.pack(plain, sp), sp) == plain
    with pytest.raises(catalog.NoSuchCase):
        ids.decode("varyings/explore/v1-k0aQz")


class _Vocabulary:
    """A space's vocabulary alone, with repeats: an id names a word by its first place."""
    family = "made-up"
    VOCAB = ("a", "b", "a", "c")
    FLOATS = (1.0, math.nan, 0.0, -0.0, 1.0, math.nan, math.inf)
    SHAPES = (("a", "b"), ("b", "c"), ("a", "b"))


def test_packing_names_each_word_float_and_shape_by_its_first_place():
    sp = _Vocabulary()
    assert ids.pack(["c", "a", "b"], sp) == "as3.s0.s1z"
    assert ids.pack([1.0, float("nan"), -0.0, 0.0, math.inf], sp) == "ar0.r1.r2.r2.r6z"    # -0.0 == 0.0
    assert ids.pack({"b": 2, "a": 1}, sp) == "k0a1.2z" and ids.pack({"c": 2}, sp) == "ds3.2z"
    for word, where in (("d", "VOCAB"), (2.5, "FLOATS")):
        with pytest.raises(ids.VocabularyError, match=where):
            ids.pack([word], sp)
    value = [{"b": "a", "a": [math.inf, None, True]}, {"c": math.nan, "a": 0}]
    assert ids.pack(ids.unpack(ids.pack(value, sp), sp), sp) == ids.pack(value, sp)


def test_the_catalog_finds_an_explored_id_and_export_names_its_files_within_limits(tmp_path):
    """export, bisect-run, --case and the report resolve ids through catalog.find."""
    from harness.run import export
    explored = "draw_params/explore/v1-k0as11.ak1as29.n.aa0.1.m3x0z.a1.1.m3x0zz.0.f.0zz.s14.f.450z"
    case = catalog.find(explored)
    assert case.id == explored and case.expect
    written = export.export(case, "glsl", tmp_path)
    assert written[0].name.startswith(export.file_stem(explored)) and len(export.file_stem("a/" + "b" * 400)) <= 200


def test_a_kept_finding_joins_its_family_in_the_catalog(tmp_path, monkeypatch):
    """catalog.generate appends tests/<family>/kept.json's cases to the family's fixed list."""
    family = tmp_path / "tests" / "draw_params"
    family.mkdir(parents=True)
    monkeypatch.setattr(catalog, "family_module", lambda path: SimpleNamespace(generate=lambda: []))
    monkeypatch.setenv("HARNESS_CASE_CACHE", "0")
    explored = "draw_params/explore/v1-k0as11.ak1as29.n.aa0.1.m3x0z.a1.1.m3x0zz.0.f.0zz.s14.f.450z"
    assert catalog.generate(family / "cases.py") == []
    kept.add(explored, "a zero-count first entry", root=tmp_path)
    assert [c.id for c in catalog.generate(family / "cases.py")] == [explored]


def test_findings_rewritten_export_each_reproducer_once(tmp_path, monkeypatch):
    """findings.json is rewritten at each new failure; a finding's reproducers and case files,
    written already in its folder, are not written again (findings._EXPORTED), unless its
    folder went away."""
    case = ids.build("draw_params", BASE_VERTEX_MINIMUM)
    finding = findings.Finding(finding_key(case, base_vertex_bug(case)), case, base_vertex_bug(case), case,
                               base_vertex_bug(case), "test")
    calls = []
    export_all = findings._export_all
    monkeypatch.setattr(findings, "_export_all", lambda *a: calls.append(a[0].id) or export_all(*a))
    command = {"target": "llvmpipe", "mesa": None, "vk_without": []}
    first = findings.write(tmp_path, {}, [finding], command)
    folder = tmp_path / finding.slug(1)
    readme, written = (folder / "README.txt").read_text(), (folder / "case.json").stat().st_mtime_ns
    findings.write(tmp_path, {}, [finding], command)
    assert calls == [case.id] and (folder / "README.txt").read_text() == readme
    assert (folder / "case.json").stat().st_mtime_ns == written
    import shutil
    shutil.rmtree(folder)
    findings.write(tmp_path, {}, [finding], command)
    assert calls == [case.id, case.id] and first.exists() and "glsl: " in readme
    assert json.loads((folder / "case.json").read_text())["id"] == case.id and (folder / "original.json").is_file()
