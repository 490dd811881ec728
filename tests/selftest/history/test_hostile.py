"""The dashboard and the HTML report are safe to publish from untrusted artifacts: run.json and
results.json are written by whatever pipeline ran (a fork's merge request pipeline too). Every
field of both, found from their writers (harness/base/provenance.py, harness/run/gating.py,
harness/history/sources.py's SETTABLE, the Record dataclass), so that a new field is planted
without a change here, gets `javascript:` and `data:` URLs and HTML that would run script
(attribute-breaking quotes, `<svg/onload>`, `<img onerror>`, `</script><script>`, `</title>`) —
so do the results folder's name, the case ids, targets, Mesa versions, lanes, messages and
renderer strings. Where the ingest refuses such a value (a non-http(s) ci_pipeline_url, a start
that is not a time) the refusal is asserted apart and a value it takes is planted instead (an
https URL carrying the same HTML); the `javascript:` URL is also put in the table, as a store
written before the ingest refused it holds it. Every text column of the store is checked to hold
a plant, so a new column is covered or this test says it is not.

The live dashboard (served from the store), the static one and `harness report` of the same
results are then loaded in Debian's headless chromium: every page reachable by same-site links,
every such link clicked, every button and summary clicked. No planted script may run (it would
set document.title to PWNED), no element may carry an inline event handler, no script element
may hold a plant, no href/src/action may resolve to anything but http(s) or file, and wherever a
plant shows, it shows whole, as text. Links off the site (the planted https URL) are not followed:
nothing of ours runs there."""
from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urldefrag, urlsplit

import pytest
from sqlalchemy import String, Text, select, update

from browser import chromium, serving
from harness.base import config, provenance
from harness.__main__ import main as harness_main
from harness.history import schema, sources, store
from harness.model.outcome import Judged, Outcome, Record
from harness.model.status import Status
from harness.results import files
from harness.run import gating

ROOT = Path(__file__).resolve().parents[3]
RAN = "PWNED"
JS = f"document.title='{RAN}'"
# No whitespace and no comma (a URL refuses whitespace; results.csv splits on commas).
HTML = f"\"'><svg/onload={JS}></title></textarea></script><script>{JS}</script><img/src=x/onerror={JS}>"
SCHEMES = (f"javascript:{JS}//", f"data:text/html,<script>{JS}</script>")   # run 1's, run 2's
NOT_PLANTED = {"started": "a start that is not ISO 8601 is refused"}        # asserted in test_the_ingest_refuses
# Columns no run.json or results field reaches: computed (digests), or a closed set the schema CHECKs.
COMPUTED = {("runs", "fingerprint"), ("messages", "digest"), ("results", "status"), ("results", "judged"),
            ("culprits", "component")}
# What the pages must show (escaped): a plant of each is looked for as text on some page.
# (A record's Mesa, expected status and platform, a culprit's reason and the pipeline URL, but as an
# href, are not on the dashboard's pages; they are planted all the same.)
SHOWN = {"record.id", "record.target", "record.message", "record.renderer", "record.gl_version", "record.reproducer",
         "run.ci_job_name", "run.ci_job_ids", "run.ci_pipeline_id", "run.ci_commit_sha", "run.ci_commit_ref_name",
         "run.machine", "run.mesa", "run.mesa_commit", "run.harness_version", "run.harness_commit", "run.url", "folder"}
REPORT_SHOWN = {"record.id", "record.target", "record.message", "record.renderer", "record.mesa", "record.expected",
                "folder"}


def run_fields(build: Path) -> set[str]:
    """Every property a run.json may carry: what the harness writes (with every CI variable set,
    and `build` a bin/build-mesa build folder), what the merge adds and what the ingest lets a
    caller set."""
    with pytest.MonkeyPatch.context() as patch:
        for name in config.CI_VARIABLES:
            patch.setenv(name, "1")
        written = set(provenance.run_properties())
    build.mkdir(parents=True, exist_ok=True)
    (build / gating.BUILT).write_text(json.dumps({"commit": "1"}))
    mesa = set(gating.mesa_properties(SimpleNamespace(root=build)))    # duck-typed: it reads .root alone
    return written | mesa | set(sources.SETTABLE) | {"ci_job_ids"}


RECORD_TEXT = [f.name for f in dataclasses.fields(Record) if f.type == "str"]


def plant(where: str, run: int) -> str:
    """A hostile value of one field of one run, carrying its name (to find where it shows)."""
    return f"{SCHEMES[run - 1]}H{run}.{where}{HTML}"


def hostile_run(root: Path, run: int) -> Path:
    """A results folder as a run writes it, every field planted; its name planted too."""
    folder = root / f"run{run}H{run}.folder\"'><img src=x onerror={JS}>"
    properties = {name: plant(f"run.{name}", run) for name in run_fields(root) - set(NOT_PLANTED)}
    properties |= {"started": f"2026-11-0{run}T06:00:00+00:00", "ci_job_name": plant("run.ci_job_name", 1),  # one lane
                   "ci_pipeline_url": f"https://ci.example/{plant('run.ci_pipeline_url', run)}"}
    statuses = [(Status.FAIL, Judged.AS_IS), (Status.FAIL, Judged.EXPECTED_FAIL), (Status.FLAKE, Judged.AS_IS),
                (Status.PASS if run == 1 else Status.CRASH, Judged.AS_IS)]
    records = []
    for n, (status, judged) in enumerate(statuses):
        text = {name: plant(f"record.{name}", run) for name in RECORD_TEXT}
        text |= {"id": f"tess/{n}/{plant('record.id', 1)}", "target": plant("record.target", 1)}
        records.append(Record(outcome=Outcome(status, judged), duration=0.5, **text))
    files.write(folder, records, folder / "junit.xml", properties)
    return folder


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> SimpleNamespace:
    """The planted results, the store they are ingested into (and a culprit recorded), the static
    site and the report."""
    root = tmp_path_factory.mktemp("hostile")
    folders = [hostile_run(root / "results", run) for run in (1, 2)]
    url = f"sqlite:///{root / 'history.sqlite'}"
    for command in (["ingest", *map(str, folders)],
                    ["culprit", f"tess/0/{plant('record.id', 1)}", "--mesa-version",
                     plant("run.mesa", 1), "--component", "zink", "--reason", plant("culprit.reason", 1)]):
        done = harness("history", "--store", url, *command)
        assert done.returncode == 0, done.stderr
    with store.open_store(url).begin() as connection:        # as a store from before the ingest refused it
        connection.execute(update(schema.runs).where(schema.runs.c.id == 1).values(url=plant("run.url", 1)))
    site, pages = root / "site", root / "report"
    assert harness_main(["dashboard", "--store", url, "--static", str(site)]) == 0
    assert harness_main(["report", *map(str, folders), "-o", str(pages)]) == 0
    return SimpleNamespace(root=root, folders=folders, url=url, site=site, report=pages)


def harness(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_the_ingest_refuses_script_urls_and_bad_times(hostile, tmp_path):
    for name, value in (("ci_pipeline_url", plant("run.ci_pipeline_url", 1)),
                        ("ci_pipeline_url", plant("run.ci_pipeline_url", 2)), ("started", plant("run.started", 1))):
        folder = tmp_path / name
        source = hostile.folders[0]
        properties = {**files.read_run(source), name: value}
        files.write(folder, files.read(source), None, properties)
        done = harness("history", "--store", str(tmp_path / "refused.sqlite"), "ingest", str(folder))
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, (name, value, done.stderr)
        assert name in done.stderr or "start time" in done.stderr, done.stderr
        assert RAN in done.stderr                       # said as it is, in a terminal: one line, no markup


def test_every_text_column_holds_a_plant(hostile):
    with store.open_store(hostile.url, readonly=True).connect() as connection:
        for table in schema.metadata.sorted_tables:
            for column in table.columns:
                if not isinstance(column.type, (String, Text)) or (table.name, column.name) in COMPUTED:
                    continue
                values = connection.execute(select(column)).scalars().all()
                assert any(RAN in str(v) for v in values), (table.name, column.name, values[:3])


# In the page: what the checks read (every attribute a URL goes in, every event handler, scripts).
DOM = """
var urls = [], handlers = [], scripts = [];
document.querySelectorAll('*').forEach(function (e) {
  for (var i = 0; i < e.attributes.length; i++) {
    var a = e.attributes[i];
    if (/^on/i.test(a.name)) handlers.push(e.tagName + ' ' + a.name);
    if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data'].indexOf(a.name.toLowerCase()) >= 0)
      urls.push([a.value, new URL(a.value, document.baseURI).href]);
  }
});
document.querySelectorAll('script').forEach(function (s) { scripts.push(s.textContent); });
return {title: document.title, urls: urls, handlers: handlers, scripts: scripts,
        text: document.title + '\\n' + document.documentElement.textContent};
"""
CLICKABLE = "a[href], button, summary, input[type=submit], input[type=button]"
CLICK = "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}))"


class Crawl:
    """Every page reachable from the first by links inside `site` (a URL prefix), each checked."""

    def __init__(self, browser, site: str):
        self.browser, self.site = browser, site
        self.seen: set[str] = set()
        self.shown: set[str] = set()
        self.clicked: set[str] = set()

    def inside(self, url: str) -> bool:
        return url.startswith(self.site)

    def check(self, page: str) -> list[str]:
        """The page as loaded now: its links (absolute, without fragments)."""
        found = self.browser.execute_script(DOM)
        assert found["title"] != RAN, f"{page}: a planted script ran"
        assert not found["handlers"], (page, found["handlers"])
        assert not [s for s in found["scripts"] if RAN in s], (page, "a planted script element")
        bad = [raw for raw, absolute in found["urls"] if urlsplit(absolute).scheme not in ("http", "https", "file")]
        assert not bad, (page, bad)
        for where in _tags(found["text"]):              # each plant shown whole, as text
            assert _whole(where) in found["text"], (page, where)
            self.shown.add(where.split(".", 1)[1])
        return [urldefrag(absolute)[0] for _, absolute in found["urls"]]

    def run(self, start: str) -> None:
        queue = [start]
        while queue:
            page = queue.pop()
            if page in self.seen:
                continue
            self.seen.add(page)
            self.browser.get(page)
            links = [link for link in self.check(page) if self.inside(link)]
            queue += [link for link in links if link not in self.seen]
            self.click_everything(page)

    def click_everything(self, page: str) -> None:
        from selenium.webdriver.common.by import By
        count = len(self.browser.find_elements(By.CSS_SELECTOR, CLICKABLE))
        for i in range(count):
            element = self.browser.find_elements(By.CSS_SELECTOR, CLICKABLE)[i]
            href = element.get_attribute("href")
            if href and not self.inside(urldefrag(href)[0]) and urlsplit(href).scheme in ("http", "https"):
                continue                                # off the site: not followed
            if href:
                if href in self.clicked:
                    continue                            # the same link elsewhere: the same click
                self.clicked.add(href)
            self.browser.execute_script(CLICK, element)     # SVG's <a> has no click(): an event
            landed = self.browser.current_url
            if self.inside(urldefrag(landed)[0]):
                self.check(landed)
            else:                                       # it left the site: what it ran ran here
                assert self.browser.title != RAN, (page, href)
            if urldefrag(landed)[0] != page:
                self.browser.get(page)


def _tags(text: str) -> set[str]:
    """The plants named in `text` ('H1.record.message', ...)."""
    return set(re.findall(r"H[12]\.(?:record|run|culprit|folder)\.?[a-z_]*", text))


def _whole(where: str) -> str:
    return f"{where}{HTML}" if not where.endswith(".folder") else f"{where}\"'><img src=x onerror={JS}>"


def test_no_planted_script_runs_in_chromium(hostile, tmp_path):
    server = serving(hostile.url)
    browser = chromium(tmp_path / "profile")
    try:
        crawls = {"served": Crawl(browser, server.url), "static": Crawl(browser, hostile.site.as_uri() + "/"),
                  "report": Crawl(browser, hostile.report.as_uri() + "/")}
        crawls["served"].run(server.url)
        crawls["static"].run((hostile.site / "index.html").as_uri())
        crawls["report"].run((hostile.report / "index.html").as_uri())
    finally:
        browser.quit()
        server.shutdown()
        server.server_close()
    served, static = crawls["served"], crawls["static"]
    written = {p.relative_to(hostile.site).as_posix() for p in hostile.site.rglob("*.html")}
    assert {"runs/2.html", "regressions/2.html", "flakes.html"} <= written and len(written) >= 10, sorted(written)
    assert {page.removeprefix(static.site) for page in static.seen} == written      # every page reached
    assert written <= {page.removeprefix(served.site) for page in served.seen}
    shown = served.shown | static.shown
    assert SHOWN <= shown, sorted(SHOWN - shown)
    assert REPORT_SHOWN <= crawls["report"].shown, sorted(REPORT_SHOWN - crawls["report"].shown)
