"""Debian's chromium under selenium, and the dashboard served in a thread: what the history's
browser self-tests share (test_dashboard.py, test_links.py)."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from harness.history import serve
from harness.history.store import open_store

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def chromium(profile: Path):
    """Headless Debian chromium under selenium; fails, in one line, where it is not installed."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not Path(path).is_file()]
    if missing:
        pytest.fail(f"{' and '.join(missing)} missing: bin/selftest installs Debian's chromium and chromium-driver",
                    pytrace=False)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     f"--user-data-dir={profile}", "--window-size=1200,900"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def serving(url: str) -> serve.Server:
    """The dashboard over the store at `url`, on a free port of 127.0.0.1, in a thread."""
    server = serve.Server(open_store(url, readonly=True), ("127.0.0.1", 0), days=30)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
