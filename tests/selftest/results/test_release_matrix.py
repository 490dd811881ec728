"""The release matrix (harness/results/release_matrix.py, `python -m harness matrix`): Debian's version order,
the first-bad / first-fixed rule, and the matrix of recorded runs of five Mesa releases (small
results.json files written here, given in no order) with its text, matrix.json and JUnit; one
real run of the system's Mesa through the command."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml, Properties, Skipped

from harness.base import debversion
from harness.results import release_matrix as matrix
from harness.__main__ import main as harness_main
from harness.cli import matrix as matrix_cli
from harness.model.outcome import Outcome, Record
from harness.model.status import Status

# Debian's packaged Mesas, oldest first (../shared/DESIGN.md)
RELEASES = ["22.3.6", "25.0.7-2~bpo12+1", "25.0.7-2+deb13u1", "26.1.6-1~bpo13+1", "26.2.6-1"]
REGRESSED = "tess/tcs/quads/equal/in1-out1"                    # pass, pass, pass, fail, crash
FIXED = "tess/no-tcs/triangles/equal/pv3/o1_1_1-i1"            # pass, fail, skip, -, pass
ALWAYS_BAD = "varyings/vs-fs/legacy/gl_Color"                  # fail on every release
ALWAYS_GOOD = "draw_params/DrawArrays/f0c4/glsl450/vs"         # pass on every release
DIED = "draw_params/DrawArrays/f5c4/glsl450/vs"                # pass, then a dead worker (no mesa)
# (case id, target) -> status per release; None: no entry
RECORDED = {
    (REGRESSED, "zink"): ["pass", "pass", "pass", "fail", "crash"],
    (FIXED, "llvmpipe"): ["pass", "fail", "skip", None, "pass"],
    (ALWAYS_BAD, "lavapipe"): ["fail"] * 5,
    (ALWAYS_GOOD, "llvmpipe"): ["pass"] * 5,
    (DIED, "zink"): ["pass", "pass", "crash", "crash", "crash"],
}


def write_runs(root: Path) -> list[Path]:
    """One results directory per release, as the plugin writes them; in a shuffled order."""
    folders = []
    for n, release in enumerate(RELEASES):
        entries = [{"id": case_id, "target": target, "status": statuses[n], "expected": "", "duration": 0.1,
                    "renderer": f"{target} renderer", "message": "" if statuses[n] == "pass" else "why",
                    # a worker that died mid-case leaves an entry without properties
                    "mesa": "" if case_id == DIED and statuses[n] == "crash" else release}
                   for (case_id, target), statuses in RECORDED.items() if statuses[n]]
        folder = root / f"run-{n}"
        folder.mkdir(parents=True)
        (folder / "results.json").write_text(json.dumps({"results": entries}, indent=1))
        folders.append(folder)
    random.Random(28).shuffle(folders)
    return folders


@pytest.mark.parametrize("older, newer", [
    ("22.3.6", "25.0.7-2~bpo12+1"),
    ("25.0.7-2~bpo12+1", "25.0.7-2+deb13u1"),          # bookworm-backports before trixie
    ("25.0.7-2+deb13u1", "26.1.6-1~bpo13+1"),
    ("26.1.6-1~bpo13+1", "26.2.6-1"),
    ("1.0~rc1", "1.0"), ("1.0", "1.0a"), ("1.0a", "1.0+b1"), ("1.0", "1.0.1"), ("9", "10"),
    ("2.0~~", "2.0~"), ("2.0~", "2.0"), ("1.0-1", "1.0-1.1"), ("1.0-1", "1.0-1ubuntu1"),
    ("2:1.0", "3:0.1"), ("26.2.6-1", "1:22.3.6"), ("26.2.6", "26.3.0-devel"),
])
def test_debian_version_order(older, newer):
    assert debversion.compare(older, newer) < 0 < debversion.compare(newer, older)


@pytest.mark.parametrize("a, b", [("1.0", "1.0"), ("0:1.0", "1.0"), ("1.0-0", "1.0"), ("1.01", "1.1")])
def test_debian_versions_equal(a, b):
    assert debversion.compare(a, b) == 0


def test_releases_sort_in_version_order():
    assert sorted(random.Random(1).sample(RELEASES, len(RELEASES)), key=debversion.key) == RELEASES


def changes(*statuses):
    pairs = [(str(n), s and Status(s)) for n, s in enumerate(statuses, 1)]
    return [(t.kind, t.before, t.after, t.old.value, t.new.value) for t in matrix.transitions(pairs)]


def test_pass_to_fail_is_a_regression_fail_to_pass_a_fix():
    assert changes("pass", "pass", "fail", "fail") == [("regression", "2", "3", "pass", "fail")]
    assert changes("timeout", "pass") == [("fix", "1", "2", "timeout", "pass")]


def test_skips_flakes_errors_and_missing_results_are_no_change():
    assert changes("pass", "skip", None, "flake", "error", "fail") == [("regression", "1", "6", "pass", "fail")]
    assert changes("fail", "skip", "fail", None, "fail") == []
    assert changes("skip", None, "fail") == [] and changes() == []


def test_every_change_is_listed_and_a_change_of_failure_too():
    assert changes("pass", "fail", "pass", "crash", "fail") == [
        ("regression", "1", "2", "pass", "fail"), ("fix", "2", "3", "fail", "pass"),
        ("regression", "3", "4", "pass", "crash"), ("change", "4", "5", "crash", "fail")]


def test_transition_text():
    [t] = matrix.transitions([("22.3.6", Status.PASS), ("25.0.7", Status.FAIL)])
    assert str(t) == "regression: last good 22.3.6 (pass), first bad 25.0.7 (fail)"
    [t] = matrix.transitions([("25.0.7", Status.CRASH), ("26.2.6", Status.PASS)])
    assert str(t) == "fix: last bad 25.0.7 (crash), first fixed 26.2.6 (pass)"


def test_matrix_of_recorded_runs(tmp_path, capsys):
    folders = write_runs(tmp_path)
    out = tmp_path / "out"
    assert harness_main(["matrix", "--from-results", *map(str, folders), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert [line.split(". ", 1)[1] for line in text.splitlines()[1:6]] == RELEASES
    assert "regression: last good 25.0.7-2+deb13u1 (pass), first bad 26.1.6-1~bpo13+1 (fail)" in text
    assert "5 cases x targets on 5 releases: 3 regressions, 1 fixes, 1 changes of failure" in text

    data = json.loads((out / "matrix.json").read_text())
    assert data["versions"] == RELEASES
    rows = {(r["id"], r["target"]): r for r in data["rows"]}
    assert [(c["kind"], c["before"], c["after"]) for c in rows[REGRESSED, "zink"]["changes"]] == [
        ("regression", "25.0.7-2+deb13u1", "26.1.6-1~bpo13+1"), ("change", "26.1.6-1~bpo13+1", "26.2.6-1")]
    assert [(c["kind"], c["before"], c["after"]) for c in rows[FIXED, "llvmpipe"]["changes"]] == [
        ("regression", "22.3.6", "25.0.7-2~bpo12+1"), ("fix", "25.0.7-2~bpo12+1", "26.2.6-1")]
    assert rows[FIXED, "llvmpipe"]["verdicts"] == {"22.3.6": "pass", "25.0.7-2~bpo12+1": "fail",
                                                   "25.0.7-2+deb13u1": "skip", "26.2.6-1": "pass"}
    # the dead worker's entries take their run's release
    assert [(c["kind"], c["after"]) for c in rows[DIED, "zink"]["changes"]] == [("regression", "25.0.7-2+deb13u1")]
    assert rows[ALWAYS_BAD, "lavapipe"]["changes"] == rows[ALWAYS_GOOD, "llvmpipe"]["changes"] == []
    assert [(r["id"], r["target"]) for r in data["rows"]][:3] == [(DIED, "zink"), (FIXED, "llvmpipe"),
                                                                 (REGRESSED, "zink")]    # changed first

    suite = next(iter(JUnitXml.fromfile(str(out / "matrix-junit.xml"))))
    cases = {tc.name: tc for tc in suite}
    assert set(cases) == {f"{i}[{t}]" for i, t in RECORDED}
    regressed = cases[f"{REGRESSED}[zink]"]
    props = [(p.name, p.value) for p in regressed.child(Properties)]
    assert ("mesa 22.3.6", "pass") in props and ("mesa 26.2.6-1", "crash") in props
    assert ("regression", "regression: last good 25.0.7-2+deb13u1 (pass), first bad 26.1.6-1~bpo13+1 (fail)") in props
    assert regressed.classname == "zink.tess" and isinstance(regressed.result[0], Failure)
    assert regressed.result[0].message.startswith("crash on Mesa 26.2.6-1; regression: last good")
    assert cases[f"{FIXED}[llvmpipe]"].is_passed and cases[f"{ALWAYS_GOOD}[llvmpipe]"].is_passed
    assert not cases[f"{ALWAYS_BAD}[lavapipe]"].is_passed


def test_only_skips_is_skipped_in_junit(tmp_path):
    entries = [Record(ALWAYS_GOOD, "zink", Outcome(Status.SKIP), mesa=m) for m in RELEASES[:2]]
    suite = next(iter(matrix_cli.junit(matrix.build(entries))))
    assert isinstance(next(iter(suite)).result[0], Skipped)


def test_a_run_naming_no_mesa_is_one_line(tmp_path, capsys):
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps({"results": [
        {"id": ALWAYS_GOOD, "target": "llvmpipe", "status": "pass", "duration": 0.1}]}))
    assert harness_main(["matrix", "--from-results", str(folder), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "records no Mesa version" in err


@pytest.mark.parametrize("argv, says", [
    ([], "give --mesa PATH"),
    (["--from-results", "x", "--case", ALWAYS_GOOD], "choose what --mesa runs"),
    (["--mesa", "system"], "choose the cases"),
    (["--mesa", "system", "--case", "nofamily/x"], "no case source owns it"),
    (["--from-results", "no/such/dir"], "no such results file"),
])
def test_usage_errors_are_one_line(tmp_path, capsys, argv, says):
    assert harness_main(["matrix"] + argv + ["-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and says in err


def test_failures_of_a_run_select_their_cases_and_targets(tmp_path):
    write_runs(tmp_path)
    folder = tmp_path / "run-4"                                        # 26.2.6-1's run
    argv = matrix_cli.selection([], str(folder), "", [], [])
    assert argv == ["tests/tess", "tests/varyings", "tests/draw_params",
                    "--case", f"{REGRESSED}[zink]", "--case", f"{ALWAYS_BAD}[lavapipe]", "--case", f"{DIED}[zink]",
                    "--target", "lavapipe", "--target", "zink"]
    assert matrix_cli.selection([], str(folder), "", [], ["zink"])[-2:] == ["--target", "zink"]
    assert matrix_cli.selection([], None, "quads", [], [])[:5] == \
        ["tests/tess", "tests/draw_params", "tests/varyings", "tests/primitives", "-k"]


def test_each_mesa_is_a_plain_harness_run(tmp_path):
    command = matrix_cli.pytest_command("mesa/26.2.6", tmp_path / "26.2.6-1", ["tests/tess", "--case", FIXED],
                                        ["--case-timeout", "10"])
    assert command[1:] == ["-m", "pytest", "-p", "no:cacheprovider", "-n", "auto", "tests/tess", "--case", FIXED,
                           "--mesa", str(Path("mesa/26.2.6").resolve()), "--results-dir",
                           str(tmp_path / "26.2.6-1"), "--case-timeout", "10"]
    assert "--mesa" not in matrix_cli.pytest_command("system", tmp_path, [], [])
    assert not any(a.startswith("--baseline") for a in command)      # gated as a plain run: auto


def test_the_system_mesa_through_the_command(tmp_path, capsys):
    """A real run: --case by id (every target) and by id[target] (that one only)."""
    ran = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"
    one = "draw_params/DrawArrays/f0c4/glsl450/vs"
    assert harness_main(["matrix", "--mesa", "system", "--case", ran, "--case", f"{one}[llvmpipe]",
                            "--target", "llvmpipe", "--target", "zink", "-o", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "matrix.json").read_text())
    [release] = data["versions"]
    assert sorted((r["id"], r["target"], r["verdicts"][release]) for r in data["rows"]) == [
        (one, "llvmpipe", "pass"), (ran, "llvmpipe", "pass"), (ran, "zink", "pass")]
    assert (tmp_path / "system" / "results.json").is_file() and (tmp_path / "system" / "pytest.log").is_file()
