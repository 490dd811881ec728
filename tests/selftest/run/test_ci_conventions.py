"""Mesa CI's result conventions (deqp-runner's): results.csv spelling, baselines read from a
results.csv, strict baselines, UnexpectedImprovement, the run's manifest, capped JUnit."""
from __future__ import annotations

import dataclasses
import json

import pytest
from junitparser import Failure, JUnitXml

from conftest import ROOT
from harness.run import baseline
from harness.results import files as results
from harness.model.outcome import Judged, Record, RecordError, Report
from harness.run.policy import decide
from harness.model.status import Status, Verdict

UNEXPECTED_IMPROVEMENT = Judged.UNEXPECTED_IMPROVEMENT.value

CASE = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"
WITH_COMMAS = "tess/no-tcs/x/levels-2,3,4,5_6,7"         # ids may hold commas


def entry(case_id=CASE, target="zink", status="pass", label="", report=""):
    """A Record as results.json writes it (`report` is derived: results.json's is not read)."""
    return Record.from_json({"id": case_id, "target": target, "status": status, "label": label or status,
                             "report": report or ("failed" if Status(status).is_failure() else "passed"),
                             "duration": 0.5, "message": f"{status}: draw 0"})


def test_a_failure_less_severe_than_the_listed_one_is_an_unexpected_improvement():
    out, message = decide(Verdict(Status.FAIL, "draw 0: wrong"), expected=Status.CRASH)
    assert (out.report, out.label) == (Report.FAILED, UNEXPECTED_IMPROVEMENT)
    assert message.startswith("unexpected improvement: fail, the baseline expects Crash; update the baseline")
    assert decide(Verdict(Status.CRASH, "x"), expected=Status.FAIL)[0].label == "crash"    # worse: a regression


def test_expected_fail_expects_any_failure_the_driver_is_blamed_for():
    any_failure = baseline._expectation("ExpectedFail", "f:1")
    for status in (Status.FAIL, Status.CRASH, Status.TIMEOUT):
        assert decide(Verdict(status, "x"), expected=any_failure)[0].report is Report.SKIPPED
    assert decide(Verdict(Status.ERROR, "x"), expected=any_failure)[0].report is Report.FAILED


@pytest.mark.parametrize("fields,spelled", [
    (dict(status="pass"), "Pass"), (dict(status="skip", report="skipped"), "Skip"),
    (dict(status="flake", report="skipped"), "Flake"), (dict(status="fail"), "Fail"),
    (dict(status="crash"), "Crash"), (dict(status="timeout"), "Timeout"),
    (dict(status="crash", label="expected fail", report="skipped"), "ExpectedFail"),
    (dict(status="pass", label="unexpected pass", report="failed"), "UnexpectedImprovement(Pass)"),
    (dict(status="fail", label=UNEXPECTED_IMPROVEMENT), "UnexpectedImprovement(Fail)")])
def test_results_csv_spells_statuses_as_deqp_runner(fields, spelled):
    assert entry(**fields).outcome.deqp == spelled


def test_a_results_csv_is_a_baseline(tmp_path):
    rows = [entry(status="pass"), entry(WITH_COMMAS, status="fail"), entry(target="llvmpipe", status="skip"),
            entry(WITH_COMMAS, "llvmpipe", status="crash", label="expected fail"),
            entry("tess/a", status="pass", label="unexpected pass"), entry("tess/b", status="fail",
                                                                           label=UNEXPECTED_IMPROVEMENT)]
    results.write(tmp_path, rows)
    expected = baseline.load([tmp_path / "results.csv"])
    assert {k: sorted(e.statuses) for k, e in expected.items()} == {
        f"{WITH_COMMAS}[zink]": [Status.FAIL],
        f"{WITH_COMMAS}[llvmpipe]": [Status.FAIL, Status.TIMEOUT, Status.CRASH],
        "tess/b[zink]": [Status.FAIL]}
    assert expected[f"{WITH_COMMAS}[zink]"].where == f"{tmp_path / 'results.csv'}:2"
    assert set(baseline.load([tmp_path / "failures.csv"])) == {f"{WITH_COMMAS}[zink]", f"{WITH_COMMAS}[llvmpipe]",
                                                               "tess/b[zink]"}


def test_a_case_listed_twice_in_one_file_names_both_lines(tmp_path):
    (tmp_path / "b.csv").write_text(f"# header\n{CASE}[zink],Fail\n{WITH_COMMAS},Crash\n\n{CASE}[zink],Crash\n")
    with pytest.raises(baseline.BaselineError) as error:
        baseline.load([tmp_path / "b.csv"])
    assert str(error.value) == (f"{CASE}[zink] is listed twice: {tmp_path / 'b.csv'}:2 and {tmp_path / 'b.csv'}:5 "
                                "(a baseline lists a case once)")


@pytest.mark.parametrize("path", sorted((ROOT / "baselines").glob("*.csv")), ids=lambda p: p.name)
def test_the_projects_baselines_list_each_case_once(path):
    assert baseline.load([path])                # strict: raises on a case listed twice


def test_junit_capped_with_a_link_and_merge_keeps_the_manifest(tmp_path):
    failures = [entry(f"tess/f{i}", status="fail") for i in range(5)]
    rows = [entry(status="pass"), *failures]
    (tmp_path / "base.csv").write_text("# nothing expected\n")
    manifest = results.manifest([str(tmp_path / "base.csv")], [], [],
                                results.JunitOptions(2, "https://ci.example/repro/{stem}/?case={name}"))
    shards = []
    for k, part in enumerate((rows[:3], rows[3:]), 1):
        results.write(tmp_path / f"s{k}", part, tmp_path / f"s{k}" / "junit.xml", run_manifest=manifest)
        shards.append(tmp_path / f"s{k}")
    merged = results.merge(shards, tmp_path / "merged")
    assert len(merged) == 6
    assert json.loads((tmp_path / "merged" / "manifest.json").read_text()) == manifest
    suite = next(iter(JUnitXml.fromfile(str(tmp_path / "merged" / "junit.xml"))))
    failed = [tc for tc in suite if any(isinstance(r, Failure) for r in tc.result)]
    assert [tc.name for tc in failed] == ["tess/f0[zink]", "tess/f1[zink]", "harness/junit-limit"]
    assert "https://ci.example/repro/tess~f0[zink]/?case=tess/f0[zink]" in failed[0].result[0].text
    assert failed[2].result[0].message == "3 more failures not listed here (--junit-limit 2)"

    results.merge(shards, tmp_path / "all", {"limit": None})                    # harness merge --junit-limit
    suite = next(iter(JUnitXml.fromfile(str(tmp_path / "all" / "junit.xml"))))
    assert sum(any(isinstance(r, Failure) for r in tc.result) for tc in suite) == 5

    other = {**manifest, "baseline": []}
    (tmp_path / "s2" / "manifest.json").write_text(json.dumps(other))
    with pytest.raises(results.ResultsError, match="different baseline, flakes, skips"):
        results.merge(shards, tmp_path / "mixed")


def test_one_record_reader_and_writer(tmp_path):
    """Record.to_json writes results.json's entries as they always were (status, label, report,
    then the fields; `finished` where the journal stamped it), from_json reads them back to the
    same Record, and reads an earlier entry without label and report (or a JUnit file) by
    judging its status against its `expected`."""
    written = {"id": CASE, "target": "zink", "status": "crash", "label": "expected fail", "report": "skipped",
               "message": "expected Crash (baseline): died", "expected": "Crash", "duration": 0.25,
               "renderer": "zink", "gl_version": "4.6", "mesa": "22.3.6", "platform": "surfaceless",
               "reproducer": "", "finished": 1.5}
    record = Record.from_json(written)
    assert record.outcome.judged is Judged.EXPECTED_FAIL and record.key == f"{CASE}[zink]"
    assert json.dumps(record.to_json()) == json.dumps(written)                  # the same bytes
    older = {k: v for k, v in written.items() if k not in ("label", "report", "finished")}
    assert Record.from_json(older) == dataclasses.replace(record, finished=None)
    assert Record.from_json(older | {"status": "pass"}).outcome.label == "unexpected pass"
    assert Record.from_json(older | {"status": "fail"}).outcome.label == "unexpected improvement"
    with pytest.raises(RecordError, match="has an unknown status 'bad'"):
        Record.from_json(older | {"status": "bad"})
    with pytest.raises(RecordError, match="has label 'expected fail'"):
        Record.from_json(written | {"status": "pass"})
    results.write(tmp_path, [record], tmp_path / "junit.xml")
    assert results.read(tmp_path) == [dataclasses.replace(record)]
    (tmp_path / "results.json").unlink()
    from_junit, = results.read(tmp_path)                                            # JUnit alone
    assert (from_junit.outcome, from_junit.expected, from_junit.mesa) == (record.outcome, "Crash", "22.3.6")
