"""Failures grouped by defect in every view (harness/results/defect_groups.py): `harness report`,
`harness compare`, `history flakes`, `history lines`, the KCIDB export, and the dashboard, served
and exported, in Debian's chromium. Real case ids and the project's own triage records: a known
failure of two defects, a new failure a known defect's patterns cover (labelled, counted new) and
a new untriaged one, which comes first."""
from __future__ import annotations

import json
import re

import pytest

from harness.history import dashboard, ingest, kcidb, lines, queries, sources, store
from harness.model import defects
from harness.model.ids import file_name
from harness.model.status import Status
from harness.report import html
from harness.results import compare, defect_groups, files
from harness.run import defect_lines
from browser import serving
from make import MESA, record, run

POLYGON = ("primitives/quad_strip/pv-last/arrays/polygon-line", "zink")       # known: zink-polygon-mode-converted
STRIP = ("primitives/quad_strip/pv-first-quads-last/arrays", "llvmpipe")     # known: llvmpipe-quad-strip-first-provoking
QUADS_ID = ("primitives/quads/pv-last/arrays", "zink")                        # new, zink-quads-primitive-id's pattern
UNTRIAGED = ("tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7", "zink")             # new, no record covers it
REGISTRY = defects.load_all()


def test_the_cases_are_what_the_records_say():
    """The premise of the tests below, from the records themselves."""
    assert REGISTRY.match(*POLYGON, MESA).id == "zink-polygon-mode-converted"
    assert REGISTRY.match(*STRIP, MESA).id == "llvmpipe-quad-strip-first-provoking"
    assert REGISTRY.match(*QUADS_ID, MESA).id == "zink-quads-primitive-id"
    assert REGISTRY.match(*QUADS_ID, "25.0.7-2+deb13u1") is None           # fixed in 25.0.7: out of its window
    assert REGISTRY.match(*UNTRIAGED, MESA) is None


def records(day: int = 1) -> list:
    return [record(POLYGON[0], Status.FAIL, target=POLYGON[1], known=True),
            record(STRIP[0], Status.FAIL, target=STRIP[1], known=True),
            record(QUADS_ID[0], Status.FAIL, target=QUADS_ID[1]) if day > 1 else record(QUADS_ID[0], target="zink"),
            record(UNTRIAGED[0], Status.CRASH if day > 2 else Status.PASS, target=UNTRIAGED[1]),
            record("tess/no-tcs/quads/equal/pv3/o1_1_1_1-i1_1", target="llvmpipe")]


def test_grouping_new_untriaged_first_and_each_defect_once():
    failures = [defect_groups.Failure(r.id, r.target, r.mesa, r.status.value, r.outcome.failed)
                for r in records(3) if r.status is not Status.PASS]
    grouping = defect_groups.group(failures, REGISTRY)
    assert [g.id for g in grouping.new] == ["untriaged", "zink-quads-primitive-id"]
    assert grouping.new_count == 2                    # the labelled one still counts as new
    assert sorted(g.id for g in grouping.known) == ["llvmpipe-quad-strip-first-provoking", "zink-polygon-mode-converted"]
    text = "\n".join(grouping.lines())
    assert text.index("untriaged") < text.index("zink-quads-primitive-id") < text.index("known failures")
    assert "zink-polygon-mode-converted: 1 case, 1 failure on zink (Mesa 22.3.6); open, first bad 22.3.6 or earlier, " \
           "fixed in not yet; zink; triage/mesa-22.3.6/zink-polygon-mode-converted/" in text
    assert "fixed in 25.0.7" in text                  # zink-quads-primitive-id's record


def test_report_shows_defects_new_first(tmp_path):
    folder = run(tmp_path / "r", records(3), "2026-12-07T01:00:00+00:00")
    page = html.write_report([folder], tmp_path / "out").read_text()
    found = re.findall(r'data-defect="([^"]+)" data-part="([^"]+)"', page)
    assert found[:2] == [("untriaged", "new"), ("zink-quads-primitive-id", "new")]
    assert set(found[2:]) == {("llvmpipe-quad-strip-first-provoking", "known"), ("zink-polygon-mode-converted", "known")}
    assert "triage/mesa-22.3.6/zink-quads-primitive-id/" in page and "New failures by defect (2)" in page
    assert "5fb8ba0eb8b7" not in page        # zink-quads-primitive-id's bisection, not verified: not shown


def test_report_shows_a_defects_verified_bisections(tmp_path):
    edge = record("primitives/triangles/pv-last/arrays/polygon-line/edge-flags", Status.FAIL, target="zink", known=True)
    page = html.write_report([run(tmp_path / "r", [edge], "2026-12-07T01:00:00+00:00")], tmp_path / "out").read_text()
    assert re.search(r'class="bisection">first bad <code>90a8525d7033</code> zink: handle edgeflags', page)


def test_compare_lists_what_fails_by_defect(tmp_path):
    old = files.read(run(tmp_path / "a", records(1), "2026-12-06T01:00:00+00:00"))
    new = files.read(run(tmp_path / "b", records(3), "2026-12-07T01:00:00+00:00"))
    text = compare.format_report(compare.compare(old, new), registry=REGISTRY)
    tail = text[text.index("failing in NEW, by defect"):]
    assert tail.index("untriaged") < tail.index("zink-quads-primitive-id") < tail.index("known failures")
    assert f"{UNTRIAGED[0]}[zink]" in tail and "new failures (2;" in tail
    assert "by defect" not in compare.format_report(compare.compare(old, new))     # without records: as before


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("defects")
    url = f"sqlite:///{root / 'history.sqlite'}"
    folders = [run(root / f"r{day}", records(day), f"2026-12-0{day}T01:00:00+00:00", ci_job_name="conformance-system",
                   ci_pipeline_id=str(300 + day)) for day in (1, 2, 3)]
    ingest.ingest(store.open_store(url), sources.runs(folders))
    return url


def test_lines_are_written_under_their_defect_and_pass_the_check(stored, tmp_path):
    with store.open_store(stored, readonly=True).connect() as connection:
        found = queries.rates(connection)
    written = lines.under_defects(found, lines.baseline_lines, REGISTRY)
    heads = [line for line in written if line.startswith("# defect:")]
    assert heads[0] == "# defect: untriaged" and len(heads) == len(set(heads)) == 4
    path = tmp_path / "mesa-22.3.6-1+deb12u2.csv"
    path.write_text("\n".join(written) + "\n")
    assert defect_lines.problems([path], defects.Registry(tuple(
        d for d in REGISTRY.defects if d.id in {h.split()[-1] for h in heads}))) == []
    path.write_text("\n".join(lines.baseline_lines(found)) + "\n")             # the same lines, no defect named
    assert len(defect_lines.problems([path], REGISTRY)) >= 4


def test_the_kcidb_issues_come_from_the_records(stored):
    with store.open_store(stored, readonly=True).connect() as connection:
        newest = queries.runs(connection)[0]
        data = kcidb.document([kcidb.Stored(newest, "f" * 64, queries.records(connection, newest.id), {})], REGISTRY)
    kcidb.validate(data)
    issues = {i["id"]: i for i in data["issues"]}
    assert set(issues) == {f"{kcidb.ORIGIN}:defect:{name}" for name in
                           ("zink-polygon-mode-converted", "llvmpipe-quad-strip-first-provoking", "zink-quads-primitive-id")}
    quads = issues[f"{kcidb.ORIGIN}:defect:zink-quads-primitive-id"]
    assert quads["misc"]["folder"] == "triage/mesa-22.3.6/zink-quads-primitive-id" and quads["culprit"]["code"]
    assert {i["issue_id"].rsplit(":", 1)[-1] for i in data["incidents"]} == {
        "zink-polygon-mode-converted", "llvmpipe-quad-strip-first-provoking", "zink-quads-primitive-id"}


def test_history_flakes_groups_by_defect(stored, capsys):
    from harness.__main__ import main as harness_main
    assert harness_main(["history", "flakes", "--all", "--store", stored]) == 0
    out = capsys.readouterr().out
    grouped = out[out.index("by defect"):]
    assert grouped.index("untriaged") < grouped.index("zink-quads-primitive-id") < grouped.index("known failures")
    assert "first failed 2026-12-02" in grouped          # the quads case's first failing run
    assert harness_main(["history", "flakes", "--all", "--json", "--store", stored]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["case"], r["defect"]) for r in rows} >= {(QUADS_ID[0], "zink-quads-primitive-id"), (UNTRIAGED[0], "untriaged")}


def sections(browser) -> list[tuple[str, str]]:
    from selenium.webdriver.common.by import By
    return [(s.get_attribute("data-defect"), s.get_attribute("data-part"))
            for s in browser.find_elements(By.CSS_SELECTOR, "#by-defect section.defect") if s.is_displayed()]


def test_grouped_run_page_in_chromium(browser, stored):
    from selenium.webdriver.common.by import By
    server = serving(stored)
    try:
        with store.open_store(stored, readonly=True).connect() as connection:
            runs = sorted(r.id for r in queries.runs(connection))
        browser.get(server.url + f"runs/{runs[-1]}.html")
        assert sections(browser)[:2] == [("untriaged", "new"), ("zink-quads-primitive-id", "new")]
        assert {s for s in sections(browser)[2:]} == {("zink-polygon-mode-converted", "known"),
                                                      ("llvmpipe-quad-strip-first-provoking", "known")}
        new = browser.find_element(By.CSS_SELECTOR, 'section[data-defect="zink-quads-primitive-id"]')
        assert new.find_element(By.CSS_SELECTOR, "dd.fixed").text.startswith("25.0.7")
        assert new.find_element(By.CSS_SELECTOR, "dd.folder").text == "triage/mesa-22.3.6/zink-quads-primitive-id/"
        first = new.find_element(By.CSS_SELECTOR, "dd.first-run a")
        assert first.text == f"run {runs[1]}"                       # it first failed in the second run
        new.find_element(By.TAG_NAME, "summary").click()
        new.find_element(By.LINK_TEXT, QUADS_ID[0]).click()
        assert f"/cases/{file_name(QUADS_ID[0])}.html" in browser.current_url
        browser.get(server.url + "flakes.html")
        assert sections(browser)[0] == ("untriaged", "new")
    finally:
        server.shutdown()
        server.server_close()


def test_grouped_static_site_in_chromium(browser, stored, tmp_path):
    site = tmp_path / "site"
    dashboard.export(store.open_store(stored, readonly=True), site, days=36500)
    browser.get((site / "flakes.html").as_uri())
    assert sections(browser)[:2] == [("untriaged", "new"), ("zink-quads-primitive-id", "new")]
