"""The user documentation holds together: the README stays a short guide (at most 200 lines),
and every relative link in README.md, CHANGELOG.md and docs/*.md names a file or folder of this
checkout and, where it names an anchor in a Markdown file, a heading or `<a id>` there."""
from __future__ import annotations

import ast
import io
import re
import tokenize
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


# ---- The maps in the code and the docs name what is there ----------------------------------
# Every `harness/...` (and `tests/selftest/...`) path and `harness.x.y` module named in a docstring, a comment, a help text,
# a script or a doc exists, and every README section a doc cites by name or anchor is a heading
# of the README. Not scanned: CHANGELOG.md and bench/results/ (dated records, naming what was
# there then), and triage/ (defect folders written against the tree of their day).
MAPS = sorted({*ROOT.glob("harness/**/*"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("bin/*"),
               *[p for p in ROOT.glob("bench/**/*") if "results" not in p.relative_to(ROOT / "bench").parts],
               ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "pyproject.toml", ROOT / "tox.ini",
               *(ROOT / "ci").glob("*"), *(ROOT / ".ci").glob("*")})
TEXT = (".py", ".md", ".j2", ".mako", ".css", ".sh", ".toml", ".ini", ".yml", "")
HARNESS_PATH = re.compile(r"(?<![\w./-])(?:harness|tests/selftest)/[\w./*<>{}-]*")
HARNESS_MODULE = re.compile(r"(?<![\w./-])harness(?:\.\w+)+")
# The wheel's own names for what a checkout keeps elsewhere (pyproject's [tool.setuptools]
# package-dir: tests/<family> becomes harness/bundled/tests/<family>).
WHEEL_ONLY = ("harness/bundled", "harness.bundled")
# Names that look like references and are not: the JUnit testcase that stands for the failures
# --junit-limit left out, and test_layers' stand-in module for a file outside the package.
NOT_REFERENCES = {"harness/junit-limit", "harness.x"}
README_SECTION = re.compile(r"README(?:\.md)?`?(?:'s)?\W{0,4}(?:sections?\s+)?[\"“]([^\"”\n]+)[\"”]"
                            r"(?:\s*(?:,|and|or)\s*[\"“]([^\"”\n]+)[\"”])*")
README_ANCHOR = re.compile(r"README\.md#([\w-]+)")


def stale_paths(text: str, root: Path = ROOT) -> list[str]:
    """The harness/... paths and harness.x.y modules named in `text` that `root` does not hold. A
    path with a placeholder (<layer>, *, {a,b}) is checked up to it; `harness.x.y.Name` is a
    module followed by a name its source mentions."""
    stale: list[str] = []
    for found in HARNESS_PATH.findall(text):
        if found in NOT_REFERENCES:
            continue
        path = re.split(r"[*<>{}]|\.\.\.", found)[0].rstrip(".")
        if not path.startswith(WHEEL_ONLY) and not (root / path).exists():
            stale.append(found.rstrip("."))
    for found in HARNESS_MODULE.findall(text):
        if found.startswith(WHEEL_ONLY) or found.endswith((".py", ".md")) or found in NOT_REFERENCES:
            continue
        parts = found.split(".")
        depth = max((n for n in range(1, len(parts) + 1) if _module(root, parts[:n])), default=0)
        rest = parts[depth:]
        if not depth or rest and not re.search(
                rf"\b{re.escape(rest[0])}\b", _module(root, parts[:depth]).read_text(errors="replace")):
            stale.append(found)
    return stale


def _module(root: Path, parts: list[str]) -> Path | None:
    base = root.joinpath(*parts)
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def cited_sections(text: str) -> set[str]:
    """The README sections `text` names: README's "Title" (and "Another"), README.md#anchor."""
    titles = set()
    for match in README_SECTION.finditer(text):
        titles |= set(re.findall(r"[\"“]([^\"”\n]+)[\"”]", match.group(0)))
    return titles | {f"#{anchor}" for anchor in README_ANCHOR.findall(text)}


def missing_sections(text: str, readme: Path = ROOT / "README.md") -> set[str]:
    headings = {h.strip().lower() for h in re.findall(r"^#+\s+(.*)$", FENCE.sub("", readme.read_text()), re.M)}
    return {s for s in cited_sections(text)
            if (s[1:] not in anchors(readme) if s.startswith("#") else s.lower() not in headings)}


def prose(source: str) -> str:
    """A Python source's comments and strings (docstrings, help texts, messages), not its code,
    where `harness.x` is an import or an attribute of a variable the import rule checks already."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return "\n".join(t.string for t in tokens if t.type in (tokenize.COMMENT, tokenize.STRING))


def _maps():
    for path in MAPS:
        if path.is_file() and path.suffix in TEXT and path != Path(__file__).resolve():
            text = path.read_text(errors="replace")
            yield path, text, prose(text) if path.suffix == ".py" else text


def test_every_harness_path_named_exists():
    stale = [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, text.find(ref)) + 1}: {ref}"
             for path, text, words in _maps() for ref in dict.fromkeys(stale_paths(words))]
    assert not stale, "named but not there:\n" + "\n".join(stale)


# Module files named bare (`items.py`) in the harness's prose: each is a file of the checkout;
# Mesa's own files named where the harness follows them are not.
BARE_MODULE = re.compile(r"(?<![\w/.-])(\w+\.py)\b")
MESAS_OWN = {"zink_device_info.py"}
# A package's map of its modules: indented lines that start with module names, then what each holds.
MAP_LINE = re.compile(r"^ {2,}(\w+\.py(?:,\s*\w+\.py)*)", re.M)


def unknown_modules(text: str, known: set[str]) -> list[str]:
    return [name for name in dict.fromkeys(BARE_MODULE.findall(text)) if name not in known | MESAS_OWN]


def unmapped_modules(docstring: str, package: Path) -> list[str]:
    """The modules a package's map lists that its folder does not hold."""
    listed = [name for line in MAP_LINE.findall(docstring) for name in re.split(r",\s*", line)]
    return [name for name in listed if not (package / name).is_file()]


def test_every_module_the_harness_names_exists():
    known = {p.name for folder in ("harness", "tests", "bench", "bin") for p in (ROOT / folder).rglob("*.py")}
    unknown = [f"{path.relative_to(ROOT)}: {name}" for path in sorted(ROOT.glob("harness/**/*.py"))
               for name in unknown_modules(prose(path.read_text()), known)]
    unmapped = [f"{path.relative_to(ROOT)}: {name}" for path in sorted(ROOT.glob("harness/**/__init__.py"))
                for name in unmapped_modules(ast.get_docstring(ast.parse(path.read_text())) or "", path.parent)]
    assert not unknown + unmapped, "no such module:\n" + "\n".join(unknown + unmapped)


SELF_TEST = re.compile(r"(?<![\w/.-])(test_\w+\.py)\b")


def test_every_self_test_named_exists():
    """A self-test named by its file alone (`test_status.py`) is one of tests/selftest's."""
    known = {p.name for p in (ROOT / "tests").rglob("test_*.py")}
    unknown = [f"{path.relative_to(ROOT)}: {name}" for path, _, words in _maps()
               for name in dict.fromkeys(SELF_TEST.findall(words)) if name not in known]
    assert not unknown, "no such self-test:\n" + "\n".join(unknown)


def test_every_readme_section_cited_is_there():
    missing = [f"{path.relative_to(ROOT)}: {sorted(missing_sections(words))}"
               for path, _, words in _maps() if missing_sections(words)]
    assert not missing, "the README has no such section:\n" + "\n".join(missing)


def test_the_scanner_finds_a_planted_stale_reference():
    """The checks above can fail: each kind of reference, right and planted wrong."""
    assert stale_paths("see harness/run/gpu_hangs.py and harness/explore/, harness/<layer>/x") == []
    assert stale_paths("`harness.model.status.Status`, harness.run.core, python -m harness") == []
    assert stale_paths("tests/selftest/static/test_docs.py, tests/selftest/test_docs.py") == [
        "tests/selftest/test_docs.py"]
    assert SELF_TEST.findall("test_status.py, run/test_gating.py, test_x") == ["test_status.py"]
    assert stale_paths("(harness/importers); pytest_items: harness/pytest_adapter/items_old.py.") == [
        "harness/importers", "harness/pytest_adapter/items_old.py"]
    assert stale_paths("harness.explore.driverless, harness.model.status.NoSuchName, harness.__version__") == [
        "harness.explore.driverless", "harness.model.status.NoSuchName"]
    assert stale_paths(prose('import harness.run\nharness.get("x")  # see harness/importers\n')) == [
        "harness/importers"]
    assert cited_sections('the README\'s "Targets" and "Results"; README.md#targets') == {
        "Targets", "Results", "#targets"}
    assert missing_sections('The README\'s "A Mesa built from source" and "Targets"') == {"A Mesa built from source"}
    assert missing_sections("[x](../README.md#bisecting-a-driver-regression)") == {"#bisecting-a-driver-regression"}
    assert missing_sections('(`README.md`, "The two commands")') == set()
    assert unknown_modules("the items (pytest_items.py, items.py, Mesa's zink_device_info.py)", {"items.py"}) == [
        "pytest_items.py"]
    assert unmapped_modules("A package.\n\n  search.py    engines\n  tess.py, kept.py\n                  spaces\n"
                            "Elsewhere: space.py.", ROOT / "harness" / "explore") == ["tess.py", "kept.py"]
