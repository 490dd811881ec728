"""A stored link never runs script: a run's ci_pipeline_url comes from run.json, which
any pipeline writes. The ingest refuses one that is not http(s), in one line naming the field;
a store that took one before (written by an older harness) shows it as text, never as a link,
on the served pages and the static site, in Debian's chromium (every href and src resolved)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from browser import chromium, serving
from harness.__main__ import main as harness_main
from harness.history import ingest, schema, sources, store, weblinks
from harness.results.files import ResultsError
from make import series

ROOT = Path(__file__).resolve().parents[3]
HOSTILE = ["javascript:document.title='xss'", " JavaScript:document.title='xss'", "java\tscript:alert(1)",
           "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "//evil.example/x", "https:no-host"]
GOOD = "https://gitlab.example/mesa/ci/-/pipelines/7"


@pytest.mark.parametrize("url", HOSTILE)
def test_only_http_urls_are_links(url):
    assert weblinks.web_url(url) == ""
    assert weblinks.web_url(GOOD) == GOOD and weblinks.web_url("HTTP://ci.example/p/1") == "HTTP://ci.example/p/1"


def test_ingest_refuses_a_script_url_in_one_line(tmp_path):
    folder = series(tmp_path, {"tess/a": "."}, ci_pipeline_id="7", ci_job_name="gate",
                    ci_pipeline_url=HOSTILE[0])[0]
    with pytest.raises(ResultsError, match="ci_pipeline_url .javascript:"):
        sources.runs([folder])
    db = tmp_path / "h.sqlite"
    done = subprocess.run([sys.executable, "-m", "harness", "history", "--store", str(db), "ingest", str(folder)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "ci_pipeline_url" in done.stderr and "not an http(s) URL" in done.stderr, done.stderr
    assert not db.exists() or _runs(str(db)) == 0
    again = sources.runs([folder], {"ci_pipeline_url": ""})         # what the message offers: stored without it
    assert again[0].properties["ci_pipeline_url"] == ""


def _runs(url: str) -> int:
    with store.open_store(url).connect() as connection:
        return connection.execute(select(func.count()).select_from(schema.runs)).scalar()


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory) -> str:
    """Runs as a store written before the ingest refused such URLs holds them: one per hostile
    URL (set in the table, as an older harness stored it), and one with a good URL."""
    folder = tmp_path_factory.mktemp("links")
    url = f"sqlite:///{folder / 'history.sqlite'}"
    found = series(folder, {"tess/a": "F" * (len(HOSTILE) + 1)}, ci_pipeline_id="{day}", ci_job_name="gate",
                   ci_pipeline_url=GOOD)
    stored = ingest.ingest(store.open_store(url), sources.runs(found))
    with store.open_store(url).begin() as connection:
        for s, hostile in zip(stored, HOSTILE):
            connection.execute(update(schema.runs).where(schema.runs.c.id == s.run_id).values(url=hostile))
    return url


LINKS = """return Array.from(document.querySelectorAll('[href], [src]')).map(function (e) {
  var raw = e.getAttribute('href') || e.getAttribute('src');
  return [raw, new URL(raw, document.baseURI).protocol]; });"""


def _links(browser, page: str) -> list:
    browser.get(page)
    assert browser.execute_script("return document.readyState") == "complete"
    return browser.execute_script(LINKS)


def test_no_script_link_in_chromium(hostile_store, tmp_path):
    from selenium.webdriver.common.by import By
    server = serving(hostile_store)
    site = tmp_path / "site"
    assert harness_main(["dashboard", "--store", hostile_store, "--static", str(site)]) == 0
    browser = chromium(tmp_path / "profile")
    try:
        pages = [server.url] + [f"{server.url}runs/{n}.html" for n in range(1, len(HOSTILE) + 2)]
        pages += [(site / "index.html").as_uri()] + [(site / "runs" / f"{n}.html").as_uri()
                                                      for n in range(1, len(HOSTILE) + 2)]
        for page in pages:
            found = _links(browser, page)
            assert found, page
            bad = [(raw, protocol) for raw, protocol in found if protocol not in ("http:", "https:", "file:")]
            assert not bad, (page, bad)
            assert "xss" not in browser.title, page
        browser.get(f"{server.url}runs/1.html")                  # the hostile URL shows, as text
        assert "javascript:document.title='xss'" in browser.find_element(By.CSS_SELECTOR, "dl.props .refused-url").text
        browser.get(f"{server.url}runs/{len(HOSTILE) + 1}.html")   # a good URL stays a link
        assert browser.find_element(By.LINK_TEXT, str(len(HOSTILE) + 1)).get_attribute("href") == GOOD
    finally:
        browser.quit()
        server.shutdown()
        server.server_close()
