"""The KCIDB export (harness/history/kcidb.py, `harness history export`) and blame's verdicts in
the history (harness/history/culprits.py, `harness history culprit`): stored runs, on SQLite and on
a real PostgreSQL, exported and checked by kcidb-io's own validator."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import func, select

from harness.__main__ import main as harness_main
from harness.history import ingest, kcidb, schema, sources, store
from harness.model.status import Status
from harness.triage import blame
from harness.model.blame import COMPONENTS, Blame
from harness.triage.blame_rules import Row
from make import MESA, record, run

ROOT = Path(__file__).resolve().parents[3]
LONG = "line of a long failure message\n" * 1000           # 31000 characters: past KCIDB's 16384


def stored(url: str, folders: list[Path]) -> list[int]:
    return [s.run_id for s in ingest.ingest(store.open_store(url), sources.runs(folders))]


def history(capsys, *args: str) -> tuple[int, str, str]:
    """`python -m harness history ARGS` in this process: exit status, stdout, stderr."""
    code = harness_main(["history", *args])
    out, err = capsys.readouterr()
    return code, out, err


def export(capsys, url: str, *args: str) -> dict:
    code, out, err = history(capsys, "export", "--format", "kcidb", "--store", url, *args)
    assert code == 0, err
    return json.loads(out)


def one_run(tmp_path: Path) -> Path:
    repro = tmp_path / "run" / "repro" / "tess~a[zink]" / "tess~a.shader_test"
    records = [replace(record("tess/a", Status.FAIL, target="zink", message=LONG), reproducer=str(repro)),
               record("tess/b", Status.CRASH), record("tess/c", Status.FAIL, known=True), record("tess/d"),
               record("tess/e", Status.SKIP, message="GL_ARB_tessellation_shader: not supported"),
               record("tess/f", Status.ERROR, message="the child did not start"), record("tess/g", Status.FLAKE),
               record("tess/h", Status.TIMEOUT), record("tess/i", Status.ORDER_DEPENDENT),
               record("varyings/vs-fs/x.y+z/k_2E", Status.FAIL)]
    return run(tmp_path / "run", records, "2026-11-20T06:00:00+00:00", ci_pipeline_id="77", ci_job_name="zink 1/2",
               mesa_commit="0123456789abcdef0123456789abcdef01234567")


def test_an_exported_run_passes_kcidb_validation(database_url, tmp_path, capsys):
    [run_id] = stored(database_url, [one_run(tmp_path)])
    data = export(capsys, database_url, str(run_id))
    assert kcidb.SCHEMA.validate(data) is data and kcidb.SCHEMA is kcidb.kcidb_schema.LATEST
    assert data["version"] == {"major": kcidb.SCHEMA.major, "minor": kcidb.SCHEMA.minor}
    [checkout] = data["checkouts"]
    assert checkout["id"].startswith(f"{kcidb.ORIGIN}:") and checkout["origin"] == kcidb.ORIGIN
    assert checkout["git_commit_hash"] == "0123456789abcdef0123456789abcdef01234567"
    assert checkout["git_repository_url"] == kcidb.MESA_REPOSITORY and checkout["misc"]["mesa"] == MESA
    assert checkout["misc"]["ci_pipeline_id"] == "77" and checkout["misc"]["ci_job_name"] == "zink"
    assert {b["config_name"]: b["checkout_id"] for b in data["builds"]} == {"llvmpipe": checkout["id"],
                                                                            "zink": checkout["id"]}
    tests = {kcidb.case_of(t["path"]): t for t in data["tests"]}
    assert {case: t["status"] for case, t in tests.items()} == {
        "tess/a": "FAIL", "tess/b": "FAIL", "tess/c": "FAIL", "tess/d": "PASS", "tess/e": "SKIP", "tess/f": "ERROR",
        "tess/g": "FAIL", "tess/h": "FAIL", "tess/i": "PASS", "varyings/vs-fs/x.y+z/k_2E": "FAIL"}
    assert tests["tess/c"]["misc"]["known"] is True and tests["tess/c"]["misc"]["expected"] == "Fail"
    assert tests["tess/b"]["misc"]["known"] is False and tests["tess/b"]["misc"]["harness_status"] == "crash"
    a = tests["tess/a"]
    assert a["id"] == f"{a['build_id']}:tess/a" and a["build_id"].endswith(":zink")
    assert a["environment"]["misc"]["target"] == "zink" and "judged" not in a["misc"]
    assert tests["tess/c"]["misc"]["judged"] == "expected fail"
    assert len(a["log_excerpt"]) == kcidb.LOG_LIMIT and a["log_excerpt"].endswith(f"{len(LONG)} characters in all]")
    assert a["output_files"] == [{"name": "tess~a.shader_test", "url": Path(a["misc"]["reproducer"]).as_uri()}]
    assert tests["tess/e"]["log_excerpt"] == "GL_ARB_tessellation_shader: not supported"
    assert a["start_time"] == "2026-11-20T06:00:00+00:00" and a["duration"] == 0.25
    assert "issues" not in data and "incidents" not in data        # no verdict recorded


def test_case_paths_read_back(tmp_path):
    """path_of is reversible, and every path it writes is one KCIDB's schema takes."""
    names = ["tess/no-tcs/triangles/equal/types/block/struct/pv1", "varyings/vs-fs/builtins-color+tex1/users-8c",
             "draw_params/explore/v1-k0as11.ak1as36.1.aa4.1.m3x0zz.0.t.0zz.s14.f.450z", "a/_2E_AB_x_5F", "a/__",
             "a/b_", "a/é±"]
    names += [line.split("\t")[1] for line in (ROOT / "triage" / "blame.tsv").read_text().splitlines()
              if not line.startswith("#") and line.split("\t")[1] != "-"]
    for name in names:
        path = kcidb.path_of(name)
        assert kcidb.SCHEMA.path_re.fullmatch(path), path
        assert kcidb.case_of(path) == name
    assert kcidb.path_of("tess/a.b+c") == f"{kcidb.ORIGIN}.tess.a_2Eb_2Bc"
    with pytest.raises(ValueError):
        kcidb.case_of("ltp.sem01")


def test_a_culprit_is_an_issue_and_its_failures_incidents(database_url, tmp_path, capsys):
    old = run(tmp_path / "old", [record("tess/a", Status.FAIL, mesa="25.0.7-2+deb13u1")], "2026-11-19T06:00:00")
    new = run(tmp_path / "new", [record("tess/a", Status.FAIL), record("tess/a", Status.FAIL, target="zink"),
                                 record("tess/b", Status.FAIL, known=True), record("tess/c")], "2026-11-20T06:00:00")
    old_id, new_id = stored(database_url, [old, new])
    code, out, err = history(capsys, "culprit", "tess/a", "--mesa-version", MESA, "--component", "gallium draw module",
                             "--reason", "llvmpipe and lavapipe fail alike", "--store", database_url)
    assert code == 0, err
    assert out.splitlines() == [f"tess/a[llvmpipe] on Mesa {MESA}: gallium draw module",
                                f"tess/a[zink] on Mesa {MESA}: gallium draw module"]
    code, out, err = history(capsys, "culprit", "tess/b[llvmpipe]", "--mesa-version", MESA, "--component", "harness layer",
                             "--json", "--store", database_url)
    assert code == 0 and json.loads(out)["recorded"][0]["component"] == "harness layer"
    data = export(capsys, database_url, str(old_id), str(new_id))
    kcidb.validate(data)
    issues = {i["id"]: i for i in data["issues"]}
    draw, layer = kcidb.issue_id("gallium draw module"), kcidb.issue_id("harness layer")
    assert set(issues) == {draw, layer}
    assert issues[draw]["culprit"] == {"code": True, "tool": False, "harness": False}
    assert issues[layer]["culprit"] == {"code": False, "tool": True, "harness": False}
    tests = {t["id"]: t for t in data["tests"]}
    linked = {(kcidb.case_of(tests[i["test_id"]]["path"]), tests[i["test_id"]]["environment"]["misc"]["target"]):
              i for i in data["incidents"]}
    # the old run's Mesa has no verdict; the passing case none either
    assert set(linked) == {("tess/a", "llvmpipe"), ("tess/a", "zink"), ("tess/b", "llvmpipe")}
    assert all(tests[i["test_id"]]["build_id"].split(":")[1] == data["checkouts"][1]["id"].split(":")[1]
               for i in data["incidents"])
    assert linked[("tess/a", "zink")]["issue_id"] == draw and linked[("tess/b", "llvmpipe")]["issue_id"] == layer
    assert linked[("tess/a", "zink")]["comment"] == "llvmpipe and lavapipe fail alike"
    assert all(i["issue_version"] == issues[i["issue_id"]]["version"] and i["present"] for i in data["incidents"])
    # recorded again: the newer verdict replaces the older
    assert history(capsys, "culprit", "tess/a[zink]", "--mesa-version", MESA, "--component", "zink", "--store",
                   database_url)[0] == 0
    data = export(capsys, database_url, str(new_id))
    issue_of = {i["test_id"]: i["issue_id"] for i in data["incidents"]}
    [zink_a] = [t["id"] for t in data["tests"] if t["path"].endswith(".a") and t["build_id"].endswith(":zink")]
    assert issue_of[zink_a] == kcidb.issue_id("zink")


def test_culprits_from_blame_evidence(database_url, tmp_path, capsys):
    """blame --save-evidence's file, judged by blame's own rules: a decided verdict is recorded for
    each Mesa where the case failed, an undecided one is not."""
    rows = {"tess/a": [Row("llvmpipe", MESA, "fail", "wrong"), Row("zink/lavapipe", MESA, "pass")],
            "tess/b": [Row("llvmpipe", MESA, "pass"), Row("zink/lavapipe", MESA, "crash", "SIGSEGV")]}
    blame.save(tmp_path / "evidence.json", rows)
    folder = run(tmp_path / "run", [record("tess/a", Status.FAIL), record("tess/b", Status.CRASH, target="zink")],
                 "2026-11-20T06:00:00")
    [run_id] = stored(database_url, [folder])
    code, out, err = history(capsys, "culprit", "--from-blame", str(tmp_path / "evidence.json"), "--store",
                             database_url)
    assert code == 0, err
    assert out.splitlines()[0] == f"tess/a[llvmpipe] on Mesa {MESA}: llvmpipe"
    assert out.splitlines()[1].startswith("not recorded: tess/b: undecided (")
    data = export(capsys, database_url, str(run_id))
    assert [i["issue_id"] for i in data["incidents"]] == [kcidb.issue_id("llvmpipe")]


def test_a_window_exports_its_runs(database_url, tmp_path, capsys):
    folders = [run(tmp_path / f"run{day}", [record("tess/a", Status.PASS if day % 2 else Status.FAIL)],
                   f"2026-11-{day:02d}T06:00:00+00:00") for day in (1, 2, 3, 4)]
    ids = stored(database_url, folders)
    data = export(capsys, database_url, "--since", "2026-11-02", "--until", "2026-11-03T12:00")
    kcidb.validate(data)
    assert [c["start_time"] for c in data["checkouts"]] == ["2026-11-02T06:00:00+00:00", "2026-11-03T06:00:00+00:00"]
    assert [c["misc"]["history_run"] for c in data["checkouts"]] == ids[1:3]
    assert [t["status"] for t in data["tests"]] == ["FAIL", "PASS"]
    assert len({t["id"] for t in data["tests"]}) == 2          # one case, two runs: two tests
    code, out, err = history(capsys, "export", "--format", "kcidb", "--store", database_url, "-o",
                             str(tmp_path / "all.json"), "--since", "2026-10-01")
    assert code == 0 and "valid: 4 checkouts, 4 builds, 4 tests, 0 issues, 0 incidents" in out
    assert len(kcidb.validate(json.loads((tmp_path / "all.json").read_text()))["checkouts"]) == 4


def test_the_validator_refuses_a_broken_document(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'history.sqlite'}"
    [run_id] = stored(url, [one_run(tmp_path)])
    good = export(capsys, url, str(run_id))
    broken = [("tests", "path", "tess..a"), ("tests", "status", "CRASH"), ("builds", "id", "no origin"),
              ("checkouts", "git_commit_hash", "0123abc"), ("tests", "log_excerpt", "x" * (kcidb.LOG_LIMIT + 1))]
    for kind, field, value in broken:
        data = json.loads(json.dumps(good))
        data[kind][0][field] = value
        with pytest.raises(kcidb.InvalidDocument) as caught:
            kcidb.validate(data)
        assert f"$.{kind}[0].{field}" in str(caught.value) and "\n" not in str(caught.value)
    data = json.loads(json.dumps(good))
    data["tests"][0]["output_files"][0]["url"] = "not a uri"        # kcidb-io checks formats too
    with pytest.raises(kcidb.InvalidDocument):
        kcidb.validate(data)


def test_every_blame_component_has_culprit_layers():
    assert set(kcidb.LAYERS) == set(COMPONENTS) and Blame.UNDECIDED not in kcidb.LAYERS
    assert all(any(flags.values()) for flags in kcidb.LAYERS.values())     # all false: an invalid issue


def test_bad_input_is_one_line_and_stores_nothing(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'history.sqlite'}"
    stored(url, [run(tmp_path / "run", [record("tess/a", Status.FAIL)], "2026-11-20T06:00:00")])
    bad = [("export", "--format", "kcidb", "42"),
           ("export", "--format", "kcidb"),
           ("export", "--format", "kcidb", "1", "--days", "3"),
           ("export", "--format", "kcidb", "--since", "2027-01-01"),
           ("culprit", "tess/a", "--mesa-version", MESA, "--component", "the moon"),
           ("culprit", "tess/a", "--mesa-version", "99.0", "--component", "zink"),
           ("culprit", "tess/nope", "--mesa-version", MESA, "--component", "zink"),
           ("culprit", "tess/a", "--component", "zink"),
           ("culprit", "--from-blame", str(tmp_path / "run" / "results.json")),
           ("culprit", "--from-blame", str(tmp_path / "missing.json"))]
    for args in bad:
        code, out, err = history(capsys, *args, "--store", url)
        assert (code, out, len(err.splitlines())) == (2, "", 1), (args, err)
        assert err.startswith(f"python -m harness history {args[0]}: ")
    engine = store.open_store(url)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(schema.culprits)).scalar() == 0
    # the real entry point, as a user runs it
    done = subprocess.run([sys.executable, "-m", "harness", "history", "export", "--format", "kcidb", "42",
                           "--store", url], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "python -m harness history export: 42: no such run in the history\n"
