"""The dashboard (harness/history/dashboard.py, serve.py, `harness dashboard`) over a store of
synthetic runs with a planted regression, a planted flake, a known (baselined) failure and a
message and renderer string holding HTML: the pages' content from the store, on SQLite and
PostgreSQL, the server's routes and the command line; then the pages in Debian's chromium
(selenium), served and exported: the plot, the filter, a case's history strip and first bad run,
the flakes ranking, the hostile text shown as text, and the static site's links from file://.

Run as a script (`python tests/selftest/history/test_dashboard.py OUT`) it writes the screenshots
docs/images/dashboard-*.png show from the same store.
"""
from __future__ import annotations

import datetime
import hashlib
import re
import subprocess
import sys
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from harness.__main__ import main as harness_main
from harness.history import dashboard, plots, queries, sources, stats
from harness.history.ingest import ingest
from harness.history.store import open_store
from harness.model.ids import file_name
from harness.model.outcome import Judged, Outcome, Record
from harness.model.status import Status
from harness.results import files
from browser import chromium, serving

NOW = datetime.datetime.now(datetime.UTC).replace(tzinfo=None, second=0, microsecond=0)
JOB = "gl-conformance"
PIPELINE_URL = "https://gitlab.example/mesa/ci/-/pipelines/{}"
MESAS = ["25.0.7", "25.0.7", "25.0.7", "25.0.7", "25.1.0", "25.1.0", "25.1.0", "25.1.0"]
PASSING = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"
REGRESSED = "draw_params/MultiDrawArrays/f0c3i1bv0bi0+f3c3i1bv0bi0/glsl460/vs"
FLAKY = "varyings/flat/vec4/pv2/o1-i1"
KNOWN = "tess/no-tcs/triangles/equal/pv3/o1_1_1-i1"
FLAKY_RUNS = {1, 3, 6}                         # the flake's failing runs (of 8): rate 3/8
HOSTILE = "gl_DrawID = 0, expected 1 <script>alert(1)</script><img src=x onerror=\"document.title='xss'\">"
RENDERER = "zink Vulkan 1.4(llvmpipe <b>LLVM 19.1.7</b>, 256 bits)"


def mesa_commit(version: str) -> str:
    return hashlib.sha1(version.encode()).hexdigest()


def run_records(number: int) -> list[Record]:
    """Run `number`'s records: the regression from run 4 (Mesa 25.1.0) on zink, the flake in
    FLAKY_RUNS, the known failure in every run."""
    mesa = MESAS[number]
    out = []
    for target, renderer in (("llvmpipe", "llvmpipe (LLVM 19.1.7, 256 bits)"), ("zink", RENDERER)):
        def record(case, status, judged=Judged.AS_IS, message="", target=target, renderer=renderer, **extra):
            return Record(case, target, Outcome(status, judged), message=message, mesa=mesa, renderer=renderer,
                          duration=0.1, **extra)
        out.append(record(PASSING, Status.PASS))
        if target == "zink" and number >= 4:
            out.append(record(REGRESSED, Status.FAIL, message=HOSTILE,
                              reproducer=f"results/repro/{REGRESSED.replace('/', '~')}[zink]/repro.c"))
        else:
            out.append(record(REGRESSED, Status.PASS))
        if target == "zink" and number in FLAKY_RUNS:
            out.append(record(FLAKY, Status.FLAKE, message="flat varying 0: got 0.5, expected 1 (passed on re-run)"))
        else:
            out.append(record(FLAKY, Status.PASS))
        if target == "zink":
            out.append(record(KNOWN, Status.FAIL, Judged.EXPECTED_FAIL, "tessellation: 3 primitives, expected 4",
                              expected="Fail"))
    return out


def build_store(folder: Path, url: str | None = None) -> str:
    """Eight runs of one CI job, a day apart up to NOW, ingested into `url` (default: an SQLite
    file in `folder`); the store's URL."""
    url = url or f"sqlite:///{folder / 'history.sqlite'}"
    paths = []
    for number in range(8):
        started = NOW - datetime.timedelta(days=7 - number, hours=1)
        path = folder / f"run{number}"
        files.write(path, run_records(number), path / "junit.xml",
                    {"started": started.isoformat(), "ci_pipeline_id": str(1000 + number), "ci_job_name": JOB,
                     "ci_pipeline_url": PIPELINE_URL.format(1000 + number), "mesa": MESAS[number],
                     "mesa_commit": mesa_commit(MESAS[number]), "machine": "runner-7", "ci_commit_sha": "c0ffee" * 6})
        paths.append(path)
    ingest(open_store(url), sources.runs(paths))
    return url



# ---- reading the pages


class Element:
    def __init__(self, tag: str, attrs: dict):
        self.tag, self.attrs, self.text = tag, attrs, ""

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())


class Elements(HTMLParser):
    """Every element of a page with its attributes and the text inside it (nested text too)."""
    VOID = {"meta", "br", "img", "input", "link", "hr", "rect", "line", "circle", "polyline"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.all: list[Element] = []
        self.open: list[Element] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.all.append(element)
        if tag not in self.VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.all.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop().tag == tag:
                break

    def handle_data(self, data):
        for element in self.open:
            element.text += data

    def find(self, tag: str, cls: str | None = None, **attrs) -> list[Element]:
        return [e for e in self.all if e.tag == tag and (cls is None or cls in e.classes)
                and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def one(self, tag: str, cls: str | None = None, **attrs) -> Element:
        found = self.find(tag, cls, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag} class={cls} {attrs}>"
        return found[0]


def run_ids(connection) -> list[int]:
    """The stored runs' ids, oldest first (run 0 of run_records first)."""
    return [r.id for r in reversed(queries.runs(connection))]


def bisect_line(good: str, bad: str, case: str = REGRESSED, target: str = "zink", rate: str = "") -> str:
    return (f"python -m harness bisect {case} --target {target} --tree /path/to/mesa --good {good} --bad {bad}"
            + (f" --rate {rate}" if rate else ""))


# ---- pure parts


def make_run(number: int, mesa: str, lane: str = JOB, **counts) -> queries.Run:
    started = datetime.datetime(2026, 1, 1) + datetime.timedelta(days=number)
    return queries.Run(number, started, "", lane, "", "", "", mesa, "", "", "", "", "", "", lane,
                       targets={"zink": {"passed": 100, "skipped": 0, "flaked": 0, "failed": 0, "known": 0, **counts}})


def test_timeline_stacks_counts_and_marks_each_mesa_once():
    runs = [make_run(0, "25.0.7", failed=2, known=6), make_run(1, "25.1.0", lane="other", flaked=2),
            make_run(2, "25.0.7", failed=1), make_run(3, "25.1.0", lane="other", known=4, passed=50)]
    plot = plots.timeline("zink", runs[::-1], dashboard.Links())      # queries.runs' order: newest first
    assert [b["href"] for b in plot["bars"]] == [f"runs/{n}.html" for n in range(4)]
    xs = [d["x"] for d in plot["dots"]]
    assert xs == sorted(xs) and xs[0] == plot["left"] and xs[-1] == plot["right"]
    assert plot["bars_max"] == 10                                        # 8 stacked, rounded up
    first = {s["kind"]: s["height"] for s in plot["bars"][0]["segments"]}
    assert first == {"failed": pytest.approx(2 / 10 * plots.PLOT["bars"]),
                     "known": pytest.approx(6 / 10 * plots.PLOT["bars"])}
    assert [s["kind"] for s in plot["bars"][1]["segments"]] == ["flaked"]
    assert [m["label"] for m in plot["marks"]] == ["Mesa 25.0.7", "Mesa 25.1.0"]    # not again at each switch
    assert "2 new failures, 6 known failures" in plot["bars"][0]["title"]
    assert plot["dots"][3]["y"] > plot["dots"][0]["y"]                   # 50 passed sits lower than 100


def point(run: queries.Run, status: Status) -> queries.Point:
    return queries.Point(run, status, Judged.AS_IS, status is not Status.PASS, "", 0.0, "")


def test_first_bad_range_and_its_bisect_command():
    runs = [queries.Run(n, datetime.datetime(2026, 1, 1 + n), "", JOB, "", "", "", mesa, commit, "", "", "", "", "", JOB)
            for n, (mesa, commit) in enumerate([("25.0.7", "")] * 4 + [("25.1.0", "a" * 40)] * 4)]

    def history(*statuses):
        return queries.History(FLAKY, "zink", JOB, [point(r, s) for r, s in zip(runs, statuses)])
    P, F = Status.PASS, Status.FAIL
    intermittent = dashboard.first_bad(history(P, P, P, P, F, P, F, F))
    assert intermittent["good"].run.id == 3 and intermittent["bad"].run.id == 4
    assert intermittent["command"] == bisect_line("mesa-25.0.7", "a" * 40, FLAKY, rate="0.75")   # 3 of 4 since
    assert intermittent["why"] == "" and intermittent["history"] == \
        f"python -m harness history bisect 'varyings/flat/vec4/pv2/o1-i1[zink]' --tree /path/to/mesa --lane {JOB}"
    regressed = dashboard.first_bad(history(P, P, P, P, F, F, F, F))
    assert regressed["command"] == bisect_line("mesa-25.0.7", "a" * 40, FLAKY)
    never_passed = dashboard.first_bad(history(F, F, F, F, F, F, F, F))
    assert never_passed["good"] is None and never_passed["command"] == "" and "never passed" in never_passed["why"]
    same_mesa = dashboard.first_bad(history(P, P, P, F, F, F, F, F))
    assert same_mesa["command"] == "" and "same Mesa" in same_mesa["why"]
    assert dashboard.first_bad(history(*[P] * 8)) is None


# ---- the pages from a store, on SQLite and PostgreSQL


def test_pages_from_the_store(database_url, tmp_path):
    build_store(tmp_path, database_url)
    engine = open_store(database_url, readonly=True)
    with engine.connect() as connection:
        ids = run_ids(connection)
        pages = {"index": dashboard.index(connection), "flakes": dashboard.flakes(connection, now=NOW),
                 "run": dashboard.run(connection, ids[6]), "case": dashboard.case(connection, REGRESSED),
                 "flaky": dashboard.case(connection, FLAKY), "pairs": dashboard.regressions_index(connection),
                 "diff": dashboard.regressions(connection, ids[3], ids[4]),
                 "lane": dashboard.lane_regressions(connection, ids[4])}
        assert dashboard.run(connection, 10**6) is None and dashboard.case(connection, "no/such/case") is None
        assert dashboard.lane_regressions(connection, ids[0]) is None        # the lane's first run
        for name in (REGRESSED, FLAKY, KNOWN, PASSING):
            assert dashboard.case_named(connection, file_name(name)) == name
        assert dashboard.case_named(connection, file_name("no/such")) is None
    assert pages["lane"] == re.sub(r'href="(?!https?:)', 'href="../', pages["diff"])    # the same, one folder down

    index = Elements(pages["index"])
    assert {f.attrs["data-target"] for f in index.find("figure", "plot")} == {"llvmpipe", "zink"}
    assert len(index.find("svg")) == 2
    rows = index.find("tr", data_target="zink")
    assert len(rows) == 8 and len(index.find("tr", data_target="llvmpipe")) == 8
    assert "1007" in rows[0].text and "25.1.0" in rows[0].text          # newest first
    assert "&lt;b&gt;LLVM 19.1.7&lt;/b&gt;" in pages["index"] and "<b>LLVM" not in pages["index"]

    run = Elements(pages["run"])               # run 6: the regression (new), the known failure, the flake
    assert REGRESSED in run.one("table", id="failures-new").text
    assert KNOWN not in run.one("table", id="failures-new").text
    assert KNOWN in run.one("table", id="failures-known").text and REGRESSED not in run.one("table", id="failures-known").text
    assert FLAKY in run.one("table", id="failures-flakes").text
    assert [td.text for td in run.find("td", "st-known")] == ["expected fail"]
    assert [td.text for td in run.find("td", "st-fail")] == ["fail"]
    assert run.one("a", href=PIPELINE_URL.format(1006)).text == "1006"
    assert "runner-7" in pages["run"] and mesa_commit("25.1.0") in pages["run"]

    case = Elements(pages["case"])
    assert len(case.find("div", "strip", data_runs="8")) == 2
    cells = case.find("a", "cell")
    assert len(cells) == 16                                      # 8 runs on llvmpipe and on zink
    statuses = [a.attrs["data-status"] for a in cells[8:]]
    assert statuses == ["pass"] * 4 + ["fail"] * 4
    assert [a.attrs["data-run"] for a in cells[8:]] == [str(i) for i in ids]
    assert case.one("tr", "first-bad-run").attrs["data-run"] == str(ids[4])
    assert case.one("pre", "bisect").text == bisect_line(mesa_commit("25.0.7"), mesa_commit("25.1.0"))
    assert "python -m harness history bisect" in pages["case"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages["case"] and "<script>alert" not in pages["case"]
    assert len(case.find("pre", "message")) == 1                 # four failing runs, one message
    assert case.one("code", "reproducer").text.endswith("repro.c")
    flaky = Elements(pages["flaky"])
    assert not flaky.find("pre", "bisect") and "same Mesa" in flaky.one("p", "no-bisect").text

    flakes = Elements(pages["flakes"])
    assert [tr.attrs["data-case"] for tr in flakes.find("tr", data_kind="flaky")] == [FLAKY]
    row = flakes.one("tr", data_kind="flaky")
    low, high = stats.wilson(3, 8)
    assert "3/8" in row.text and f"{low:.0%}–{high:.0%}" in row.text and "new" in row.text
    others = {tr.attrs["data-case"]: tr for tr in flakes.find("tr") if tr.attrs.get("data-kind") in ("regressed", "failing")}
    assert set(others) == {REGRESSED, KNOWN}
    assert "known" in others[KNOWN].text and "new" in others[REGRESSED].text

    diff = Elements(pages["diff"])
    regressions = diff.one("table", data_change="regressions")
    assert REGRESSED in regressions.text and KNOWN not in regressions.text
    assert "(known)" in diff.one("table", data_change="still failing").text
    assert len([tr for tr in Elements(pages["pairs"]).find("tr") if "data-new" in tr.attrs]) == 7


def screenshots(out: Path) -> None:
    """docs/images/dashboard-{index,case,flakes}.png: the pages of the test store, served."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        url = build_store(Path(tmp))
        server = serving(url)
        browser = chromium(Path(tmp) / "profile")
        try:
            pages = {"index": "", "case": f"cases/{file_name(REGRESSED)}.html", "flakes": "flakes.html"}
            for name, path in pages.items():
                browser.set_window_size(1280, 400)                # then as tall as the page
                browser.get(server.url + path)
                height = browser.execute_script("return document.body.getBoundingClientRect().bottom")
                browser.set_window_size(1280, min(int(height) + 160, 1600))
                browser.save_screenshot(str(out / f"dashboard-{name}.png"))
        finally:
            browser.quit()
            server.shutdown()



# ---- the server and the command line (SQLite), then the pages in chromium


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> str:
    return build_store(tmp_path_factory.mktemp("dashboard"))


@pytest.fixture(scope="module")
def server(store):
    running = serving(store)
    yield running
    running.shutdown()
    running.server_close()


def fetch(url: str, method: str = "GET") -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_server_routes(server, store):
    with open_store(store, readonly=True).connect() as connection:
        ids = run_ids(connection)
    ok = ["", "index.html", "flakes.html", "regressions.html", f"runs/{ids[0]}.html", f"regressions/{ids[4]}.html",
          f"regressions.html?old={ids[0]}&new={ids[7]}", f"cases/{file_name(PASSING)}.html"]
    for path in ok:
        status, text = fetch(server.url + path)
        assert status == 200 and text.startswith("<!DOCTYPE html>"), path
    assert '<form method="get" action="regressions.html">' in fetch(server.url + "regressions.html")[1]
    assert REGRESSED in fetch(server.url + f"regressions.html?old={ids[0]}&new={ids[7]}")[1]
    missing = ["runs/999999.html", "cases/no~2fsuch.html", "cases/a%20b.html", "cases/a=zz.html", f"regressions/{ids[0]}.html",
               "runs/1.html/", "../history.sqlite", "history.sqlite", "runs/", "style.css"]
    for path in missing:
        assert fetch(server.url + path)[0] == 404, path
    status, text = fetch(server.url + "regressions.html?old=1%3Cb%3E&new=2")
    assert status == 400 and "&lt;b&gt;" in text and "<b>" not in text
    assert fetch(server.url + "index.html", "POST")[0] == 501
    assert fetch(server.url + "index.html", "HEAD") == (200, "")


def test_cli_bad_store_is_one_line(tmp_path, capsys):
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_text("not a database\n" * 100)
    for store in (tmp_path / "missing.sqlite", garbage):
        assert harness_main(["dashboard", "--store", str(store), "--static", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err
        assert err.startswith("python -m harness dashboard: ") and len(err.strip().splitlines()) == 1, err
    with pytest.raises(SystemExit) as exited:
        harness_main(["dashboard", "--store", str(garbage), "--days", "0"])
    assert exited.value.code == 2 and "positive number of days" in capsys.readouterr().err


def test_cli_serves_on_a_free_port(store, tmp_path):
    child = subprocess.Popen([sys.executable, "-m", "harness", "dashboard", "--store", store, "--port", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path)
    try:
        line = child.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:[0-9]+/", line)
        assert url and url[0] != "http://127.0.0.1:0/", line
        status, text = fetch(url[0] + "flakes.html")
        assert status == 200 and FLAKY in text
    finally:
        child.terminate()
        child.wait(timeout=30)


@pytest.fixture(scope="module")
def site(store, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    assert harness_main(["dashboard", "--store", store, "--static", str(out)]) == 0
    return out


def test_static_site_links_resolve(site):
    assert len(list((site / "runs").iterdir())) == 8 and len(list((site / "regressions").iterdir())) == 7
    assert links_resolve(site) > 200


def test_static_site_of_the_newest_runs_links_resolve(store, tmp_path):
    """--last-runs 3: run and regressions pages of the three newest runs only (each against its lane's
    previous run, which has no page of its own), older runs' links to one page saying so."""
    assert harness_main(["dashboard", "--store", store, "--static", str(tmp_path), "--last-runs", "3"]) == 0
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["6.html", "7.html", "8.html", "older.html"]
    assert len(list((tmp_path / "regressions").iterdir())) == 3
    assert "older than the 3 newest runs" in (tmp_path / "runs" / "older.html").read_text()
    assert links_resolve(tmp_path) > 50


def links_resolve(site: Path) -> int:
    """Every relative link of the static site names one of its files; how many were checked."""
    pages = sorted(site.rglob("*.html"))
    assert {p.relative_to(site).as_posix() for p in pages} >= {"index.html", "flakes.html", "regressions.html",
                                                               f"cases/{file_name(REGRESSED)}.html"}
    checked = 0
    for page in pages:
        for element in Elements(page.read_text(encoding="utf-8")).all:
            href = element.attrs.get("href")
            if not href or href.startswith("https://"):
                continue
            assert "://" not in href and not href.startswith("/"), (page, href)
            target = (page.parent / unquote(urlsplit(href).path)).resolve()
            assert target.is_file() and site in target.parents, (page, href)
            checked += 1
    return checked


def visible_rows(browser, table: str) -> list:
    from selenium.webdriver.common.by import By
    return [row for row in browser.find_elements(By.CSS_SELECTOR, f"table#{table} > tbody > tr") if row.is_displayed()]


def test_index_plot_and_filter_in_chromium(browser, server):
    from selenium.webdriver.common.by import By
    browser.get(server.url)
    assert browser.title == "Conformance history · conformance history"
    plots = browser.find_elements(By.CSS_SELECTOR, "figure.plot svg")
    assert len(plots) == 2 and all(p.size["width"] > 500 and p.size["height"] > 150 for p in plots)
    zink = browser.find_element(By.CSS_SELECTOR, 'figure[data-target="zink"] svg')
    assert len(zink.find_elements(By.CSS_SELECTOR, "g.bar")) == 8
    assert len(zink.find_elements(By.CSS_SELECTOR, "rect.seg-failed")) == 4       # the regression's runs
    assert len(zink.find_elements(By.CSS_SELECTOR, "rect.seg-known")) == 8
    assert [t.text for t in zink.find_elements(By.CSS_SELECTOR, "text.mesa")] == ["Mesa 25.0.7", "Mesa 25.1.0"]
    assert len(visible_rows(browser, "runs")) == 16
    box = browser.find_element(By.ID, "filter")
    box.send_keys("1007")                                         # the newest run's pipeline
    rows = visible_rows(browser, "runs")
    assert len(rows) == 2 and {r.get_attribute("data-target") for r in rows} == {"llvmpipe", "zink"}
    box.clear()
    box.send_keys("ZINK 25.0.7")                                  # every word, anywhere in the row, any case
    rows = visible_rows(browser, "runs")
    assert len(rows) == 4 and {r.get_attribute("data-target") for r in rows} == {"zink"}
    box.send_keys(" no-such-word")
    assert visible_rows(browser, "runs") == []
    box.clear()
    box.send_keys(" ")
    assert len(visible_rows(browser, "runs")) == 16


def test_case_page_in_chromium(browser, server, store):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By
    with open_store(store, readonly=True).connect() as connection:
        ids = run_ids(connection)
    browser.get(server.url + f"cases/{file_name(REGRESSED)}.html")
    assert browser.title == f"Case {REGRESSED} · conformance history"     # no injected script renamed it
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text                              # noqa: B018 - raises with no alert open
    strip = browser.find_element(By.CSS_SELECTOR, 'section[data-target="zink"] div.strip')
    cells = strip.find_elements(By.CSS_SELECTOR, "a.cell")
    assert len(cells) == 8 and all(c.is_displayed() and c.size["width"] > 5 for c in cells)
    assert [c.get_attribute("data-status") for c in cells] == ["pass"] * 4 + ["fail"] * 4
    assert "Mesa 25.1.0: fail" in cells[4].get_attribute("title")
    first_bad = browser.find_element(By.CSS_SELECTOR, 'section[data-target="zink"] tr.first-bad-run')
    assert first_bad.get_attribute("data-run") == str(ids[4]) and "25.1.0" in first_bad.text
    message = browser.find_element(By.CSS_SELECTOR, "pre.message")
    assert message.is_displayed() and HOSTILE in message.text
    assert not browser.find_elements(By.CSS_SELECTOR, "pre.message script, pre.message img")
    bisect = browser.find_element(By.CSS_SELECTOR, "pre.bisect").text
    assert bisect == bisect_line(mesa_commit("25.0.7"), mesa_commit("25.1.0"))
    cells[4].click()                                              # a cell links to its run
    assert browser.current_url.endswith(f"/runs/{ids[4]}.html")
    assert RENDERER in browser.find_element(By.ID, "counts").text


def test_flakes_page_in_chromium(browser, server):
    from selenium.webdriver.common.by import By
    browser.get(server.url + "flakes.html")
    rows = visible_rows(browser, "flaky-table")
    assert [r.get_attribute("data-case") for r in rows] == [FLAKY]
    assert "3/8" in rows[0].text and "flaky" in rows[0].text
    assert rows[0].find_element(By.CSS_SELECTOR, "svg.interval rect.range").size["width"] > 10


def test_static_site_from_file_in_chromium(browser, site, store):
    from selenium.webdriver.common.by import By
    with open_store(store, readonly=True).connect() as connection:
        newest = run_ids(connection)[-1]
    browser.get((site / "index.html").as_uri())
    assert len(browser.find_elements(By.CSS_SELECTOR, "figure.plot svg")) == 2
    browser.find_element(By.LINK_TEXT, str(newest)).click()
    assert browser.current_url.endswith(f"/runs/{newest}.html") and browser.find_element(By.TAG_NAME, "h1").text == f"Run {newest}"
    browser.find_element(By.LINK_TEXT, REGRESSED).click()
    assert browser.current_url.startswith("file://") and "/cases/" in browser.current_url
    assert len(browser.find_elements(By.CSS_SELECTOR, 'section[data-target="zink"] a.cell')) == 8
    browser.find_element(By.LINK_TEXT, "Flakes").click()
    assert browser.current_url.endswith("/flakes.html")
    assert [r.get_attribute("data-case") for r in visible_rows(browser, "flaky-table")] == [FLAKY]
    browser.find_element(By.LINK_TEXT, "Regressions").click()
    browser.find_element(By.CSS_SELECTOR, f'tr[data-new="{newest}"] a').click()
    assert browser.current_url.endswith(f"/regressions/{newest}.html")
    assert "Still failing" in browser.find_element(By.TAG_NAME, "body").text


if __name__ == "__main__":
    screenshots(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images"))
