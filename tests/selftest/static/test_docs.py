"""The user documentation holds together: the README stays a short guide (at most 200 lines),
and every relative link in README.md, CHANGELOG.md and docs/*.md names a file or folder of this
checkout and, where it names an anchor in a Markdown file, a heading or `<a id>` there."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT

PAGES = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
EXTERNAL = ("http://", "https://", "mailto:")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a Markdown page: each heading's slug, and explicit <a id="...">."""
    text = FENCE.sub("", page.read_text())
    found = set(re.findall(r'<a id="([^"]+)"', text))
    for heading in re.findall(r"^#+\s+(.*)$", text, re.M):
        heading = re.sub(r"<a id=\"[^\"]*\"></a>", "", heading)
        found.add(re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-"))
    return found


def links(page: Path) -> list[str]:
    return [target for target in LINK.findall(FENCE.sub("", page.read_text())) if not target.startswith(EXTERNAL)]


def test_the_readme_is_a_short_guide():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    assert page.is_file(), f"{page} is missing"
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no {where}")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading or <a id> '{anchor}' in {where.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_the_anchors_code_cites_exist():
    """Comments cite design decisions as docs/decisions.md#<anchor>."""
    cited = set()
    for source in [*ROOT.glob("harness/**/*.py"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("bin/*")]:
        if source.is_file():
            cited |= set(re.findall(r"docs/decisions\.md#([\w-]+)", source.read_text(errors="replace")))
    assert cited, "no comment cites docs/decisions.md"
    assert cited <= anchors(ROOT / "docs" / "decisions.md"), cited - anchors(ROOT / "docs" / "decisions.md")
