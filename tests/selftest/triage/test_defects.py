"""Defect records (triage/*/*/defect.toml, harness/model/defects.py) and the `# defect:` lines of
the baselines and flakes files (harness/run/defect_lines.py): every folder has a valid record, every
line names its defect or `untriaged`, records and lines agree; and each refusal fires on bad input."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from harness.model import defects
from harness.model.defects import DefectError, Registry
from harness.run import defect_lines

BASELINES = ROOT / "baselines"
GOOD = """id = "{id}"
title = "a defect"
status = "open"
targets = ["zink", "llvmpipe"]
mesas = ["22.3.6"]
cases = ["tess/no-tcs/*/types/*/struct/pv*", "tess/tcs/*/gs/multi[zink]"]
[component]
name = "zink"
blame = "undecided"
evidence = "llvmpipe passes"
[first_bad]
version = "22.3.6"
or_earlier = true
"""


def record(tmp_path: Path, text: str, name: str = "some-defect") -> Path:
    folder = tmp_path / "triage" / "mesa-22.3.6" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / defects.WRITE_UP).write_text("# a defect" + "\n")
    (folder / "defect.toml").write_text(text.format(id=name))
    return folder / "defect.toml"


def test_every_triage_folder_has_a_valid_record():
    registry = defects.load_all()
    folders = defects.folders()
    assert len(registry.defects) == len(folders) >= 24
    assert sorted(d.folder for d in registry.defects) == folders


def test_every_baseline_and_flakes_line_names_its_defect():
    paths = defect_lines.files(BASELINES)
    assert len(paths) >= 13
    assert defect_lines.problems(paths, defects.load_all()) == []


def test_a_record_is_read_and_matched(tmp_path):
    defect = defects.load(record(tmp_path, GOOD))
    registry = Registry((defect,))
    assert defect.first_bad.or_earlier and str(defect.first_bad) == "22.3.6 or earlier" and str(defect.fixed) == "not yet"
    assert registry.match("tess/no-tcs/quads/equal/types/var/struct/pv3", "zink", "26.2.6-1") is defect
    assert registry.match("tess/no-tcs/quads/equal/types/var/struct/pv3", "lavapipe") is None      # not its target
    assert registry.match("tess/tcs/quads/equal/gs/multi", "zink") is defect
    assert registry.match("tess/tcs/quads/equal/gs/multi", "llvmpipe") is None     # the pattern's [zink] only
    fixed = defects.load(record(tmp_path, GOOD.replace('status = "open"', 'status = "fixed"')
                                + '[fixed]\nversion = "25.0.7"\n', "fixed-one"))
    assert fixed.affects("24.0.0") and not fixed.affects("25.0.7-2~bpo12+1") and fixed.affects("")


@pytest.mark.parametrize("change, message", [
    (('status = "open"', 'status = "maybe"'), "`status` 'maybe': expected one of open, fixed, gone"),
    (('status = "open"', 'status = "fixed"'), "status 'fixed' needs `fixed.version`"),
    (('blame = "undecided"', 'blame = "zink, probably"'), "`component.blame` 'zink, probably': expected one of"),
    (('id = "some-defect"', 'id = "other"'), "`id` 'other' must be its folder's name"),
    (('version = "22.3.6"', 'version = "22.3"'), "`first_bad.version` '22.3' is no version"),
    (('cases = [', 'cases = []\nold = ['), "unknown field `old`"),
    (('cases = ["tess', 'cases = ["tess/a[lavapipe]", "tess'), "case pattern 'tess/a[lavapipe]' names a target not in"),
    (('targets = ["zink", "llvmpipe"]', 'targets = "zink"'), "`targets` must be a list"),
    (('evidence = "llvmpipe passes"', 'evidence = "see"\nfiles = ["blame.txt"]'), "names 'blame.txt', which is not in"),
    (('[first_bad]', '[first_bad'), "not TOML"),
    (('or_earlier = true', 'commit = "v22.3.6"'), "`first_bad.commit` 'v22.3.6' is no commit hash (7 to 40 hex digits)"),
])
def test_a_bad_record_is_refused_in_one_line(tmp_path, change, message):
    path = record(tmp_path, GOOD.format(id="some-defect").replace(*change))
    assert GOOD.format(id="some-defect") != path.read_text()
    with pytest.raises(DefectError) as caught:
        defects.load(path)
    assert message in str(caught.value) and "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_a_record_with_no_cases_must_say_why(tmp_path):
    no_cases = GOOD.replace('cases = ["tess/no-tcs/*/types/*/struct/pv*", "tess/tcs/*/gs/multi[zink]"]', "")
    with pytest.raises(DefectError, match="no `cases`"):
        defects.load(record(tmp_path, no_cases))
    said = no_cases.replace("[component]", 'covers_none = "a cache file, no case"\n[component]')
    assert defects.load(record(tmp_path, said)).covers_none == "a cache file, no case"


BISECTION = """
[[bisections]]
finds = "first bad"
commit = "90a8525d7033"
subject = "zink: handle edgeflags"
verified = true
log = "bisect.log"
what = "the triangle case"
"""


@pytest.mark.parametrize("log, change, message", [
    ("first bad commit: 90a8525d7033", None, None),
    (None, None, "`log` names 'bisect.log', which is not in"),
    ("first bad commit: 1280cf5b2afa", None, "bisect.log does not name commit 90a8525d7033"),
    ("90a8525d7033", ('finds = "first bad"', 'finds = "culprit"'), "`finds` 'culprit': expected one of"),
    ("90a8525d7033", ("verified = true", 'verified = "yes"'), "`verified` must be a bool"),
    ("90a8525d7033", ('what = "the triangle case"', 'what = "x"\nsteps = 3'), "unknown field `steps`"),
    ("HEAD~1", ('commit = "90a8525d7033"', 'commit = "HEAD~1"'), "`commit` 'HEAD~1' is no commit hash (7 to 40 hex"),
])
def test_a_records_bisections_name_their_log(tmp_path, log, change, message):
    path = record(tmp_path, GOOD + BISECTION.replace(*(change or ("", ""))))
    if log is not None:
        (path.parent / "bisect.log").write_text(log + "\n")
    if message is None:
        (found,) = defects.load(path).bisections
        assert found.verified and found.commit == "90a8525d7033" and "first bad 90a8525d7033" in str(found)
        return
    with pytest.raises(DefectError) as caught:
        defects.load(path)
    assert message in str(caught.value) and "bisections[0]" in str(caught.value)


def test_a_folder_without_a_record_is_refused(tmp_path):
    record(tmp_path, GOOD)
    (tmp_path / "triage" / "mesa-22.3.6" / "bare").mkdir()
    (tmp_path / "triage" / "mesa-22.3.6" / "bare" / defects.WRITE_UP).write_text("# no record" + "\n")
    with pytest.raises(DefectError, match="bare: no defect.toml"):
        defects.load_all(tmp_path / "triage")


def test_each_line_problem_is_found(tmp_path):
    registry = Registry((defects.load(record(tmp_path, GOOD)),
                         defects.load(record(tmp_path, GOOD.replace("cases = [", 'covers_none = "a cache"\ncases = ['),
                                             "quiet-one"))))
    baseline = tmp_path / "mesa-22.3.6-1.csv"
    baseline.write_text("# a header\n"
                        "tess/no-tcs/quads/equal/pv3[zink],Fail\n"                                   # 2: no defect above
                        "# defect: some-defect\n"
                        "tess/no-tcs/quads/equal/types/var/struct/pv3[zink],Crash\n"                 # right
                        "tess/no-tcs/quads/equal/types/var/struct/pv3[lavapipe],Crash\n"             # 5: not its target
                        "# defect: no-such-folder\n"
                        "tess/no-tcs/quads/equal/pv4[zink],Fail\n"                                   # 7
                        "# defect: untriaged\n"
                        "tess/tcs/quads/equal/gs/multi[zink],Fail\n"                                 # 9: a record covers it
                        "tess/tcs/quads/equal/gs/multi[llvmpipe],Fail\n"                             # right
                        "# defect: two words\n"                                                      # 11
                        "# defect: quiet-one\n"
                        "tess/no-tcs/quads/equal/pv5[zink],Fail\n")                                  # 13, and quiet-one covers none
    flakes = tmp_path / "mesa-22.3.6-1-flakes.txt"
    flakes.write_text("^tess/seq/.*\\[zink\\]$  crash  # 1/10\n")                                   # 1: no defect above
    found = defect_lines.problems([baseline, flakes], registry)
    expected = [f"{baseline}:2: no `# defect: <id>`", f"{baseline}:5: under `# defect: some-defect`, but its",
                f"{baseline}:7: `# defect: no-such-folder` names no triage folder's",
                f"{baseline}:9: under `# defect: untriaged`, yet some-defect's",
                f"{baseline}:11: expected `# defect: <id>`", f"{baseline}:13: under `# defect: quiet-one`",
                "quiet-one/defect.toml: says it covers none", f"{flakes}:1: no `# defect: <id>`"]
    assert len(found) == len(expected), found
    for start in expected:
        assert any(line.startswith(start) or start in line for line in found), (start, found)
    baseline.write_text("# defect: untriaged\ntess/no-tcs/quads/equal/pv3[zink],Fail\n")
    flakes.write_text("# defect: untriaged\n^x$  crash\n")
    assert [p for p in defect_lines.problems([baseline, flakes], registry) if "some-defect" in p] == [
        f"{registry.defects[0].where}/defect.toml: no baseline or flakes line names it: name it "
        "(`# defect: some-defect`) or say why none does (covers_none)"]


def test_the_defect_lines_stay_comments_deqp_runner_reads_past():
    from harness.run import baseline
    for path in defect_lines.files(BASELINES):
        if path.name.endswith(defect_lines.FLAKES_SUFFIX):
            assert baseline.load_flakes([path]) is not None
        else:
            assert baseline.load([path])
