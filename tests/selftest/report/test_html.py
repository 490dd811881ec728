"""The HTML report: synthetic results of two targets in two results directories, one failing
image case (a varyings case with one wrong channel) with its observation file; the page, its
tables, its PNGs, its command line, and (where Chromium is installed) the page in a browser."""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pytest
from PIL import Image

from conftest import generated
from results.test_release_matrix import ALWAYS_BAD, ALWAYS_GOOD, FIXED, REGRESSED, RELEASES, write_runs
from harness.__main__ import main as harness_main
from harness.report import html as report
from harness.report import images
from harness.model.observation import Observation
from harness.oracle.verdict import check

PASS_BOTH = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"
DISAGREE = "draw_params/MultiDrawArrays/f0c3i1bv0bi0+f3c3i1bv0bi0/glsl460/vs"
# (case id, status on llvmpipe, status on zink); the image case is added by the fixture
OTHERS = [
    (PASS_BOTH, "pass", "pass"),
    (DISAGREE, "pass", "fail"),
    ("tess/no-tcs/triangles/equal/pv3/o1_1_1-i1", "skip", "crash"),
    ("tess/no-tcs/isolines/equal/pv2/o1_1_1_1-i1_1", "timeout", "error"),
    ("draw_params/DrawArrays/f0c3i1bv0bi0/glsl450/vs", "flake", "pass"),
]
DISAGREE_MESSAGE = "draw 0 (glMultiDrawArrays), entry 1, vertex 0, instance 0: gl_DrawID = 0, expected 1"
SCALE = 16


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag=None, **attrs):
        return [n for n in self.iter() if (tag is None or n.tag == tag) and
                all(n.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())]

    def find(self, tag=None, **attrs):
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag}> with {attrs}"
        return found[0]

    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())


class TreeBuilder(HTMLParser):
    """A DOM from html.parser; fails on a closing tag that does not match the open one."""
    VOID = {"meta", "br", "img", "link", "hr", "input"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.open = Node("#root", {})

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.open)
        self.open.children.append(node)
        if tag not in self.VOID:
            self.open = node

    def handle_endtag(self, tag):
        assert self.open.tag == tag, f"</{tag}> closes <{self.open.tag}>"
        self.open = self.open.parent

    def handle_data(self, data):
        self.open.children.append(data)


def parse(text: str) -> Node:
    builder = TreeBuilder()
    builder.feed(text)
    builder.close()
    assert builder.open is builder.root, f"<{builder.open.tag}> never closed"
    return builder.root


@pytest.fixture(scope="module")
def image_case():
    """The smallest varyings case with an image, and an observation with one channel wrong."""
    cases = [c for c in generated("varyings") if c.readback.image and c.expect[0].pixels]
    case = min(cases, key=lambda c: (c.readback.image[0] * c.readback.image[1], c.id))
    width, height = case.readback.image
    data = np.full(width * height * 4, -1.0, dtype="<f4")
    for pixel in case.expect[0].pixels:
        data[pixel.index] = pixel.value
    # one channel of R, G or B of the last pixel the case expects something of, slightly off
    wrong = [p for p in case.expect[0].pixels if p.index % 4 != 3][-1]
    data[wrong.index] += 1.0
    observation = {"steps": [{"counts": {}, "xfb": "", "image": base64.b64encode(data.tobytes()).decode()}]}
    return case, observation, wrong


def write_results(folder: Path, target: str, entries: list[dict]):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(json.dumps({"results": entries}, indent=1))


def entry(case_id, target, status, duration, message=""):
    return {"id": case_id, "target": target, "status": status, "expected": "", "duration": duration,
            "renderer": f"{target} renderer", "message": message}


@pytest.fixture(scope="module")
def built(tmp_path_factory, image_case):
    case, observation, _ = image_case
    tmp = tmp_path_factory.mktemp("report")
    message = "\n".join(check(case, Observation.from_json(observation))) + "\n[zink: zink renderer]"
    assert "expected" in message
    per_target = {"llvmpipe": [], "zink": []}
    for case_id, on_llvmpipe, on_zink in OTHERS:
        per_target["llvmpipe"].append(entry(case_id, "llvmpipe", on_llvmpipe, 0.5,
                                            "" if on_llvmpipe == "pass" else f"{on_llvmpipe}: why"))
        per_target["zink"].append(entry(case_id, "zink", on_zink, 0.25,
                                        DISAGREE_MESSAGE if case_id == DISAGREE else
                                        "" if on_zink == "pass" else f"{on_zink}: why"))
    per_target["llvmpipe"].append(entry(case.id, "llvmpipe", "fail", 0.5, "llvmpipe image message"))
    per_target["zink"].append(entry(case.id, "zink", "fail", 0.25, message))
    for target, rows in per_target.items():
        write_results(tmp / f"results-{target}", target, rows)
    # only zink's failure of the image case left its observation
    obs = tmp / "results-zink" / "observations"
    obs.mkdir()
    (obs / f"{case.id.replace('/', '~')}[zink].json").write_text(json.dumps(
        {"id": case.id, "target": "zink", "case": case.to_json(), "observation": observation}))
    out = tmp / "out"
    index = report.write_report([tmp / "results-llvmpipe", tmp / "results-zink" / "results.json"], out)
    return index, parse(index.read_text(encoding="utf-8")), message


def counts(row: Node) -> dict[str, int]:
    return {td.attrs["data-status"]: int(td.text()) for td in row.find_all("td") if "data-status" in td.attrs}


def test_index_written_and_self_contained(built):
    index, dom, _ = built
    assert index.name == "index.html" and index.is_file()
    assert dom.find("style").text().strip()                       # inline CSS
    assert not dom.find_all("script") and not dom.find_all("link")
    for node in dom.iter():
        for attr in ("href", "src"):
            value = node.attrs.get(attr)
            if value is not None:
                assert "://" not in value and not value.startswith("/"), value


def test_totals_per_target(built):
    _, dom, _ = built
    totals = dom.find("table", id="totals")
    llvmpipe = counts(totals.find("tr", **{"data-target": "llvmpipe"}))
    zink = counts(totals.find("tr", **{"data-target": "zink"}))
    assert llvmpipe == {"pass": 2, "fail": 1, "skip": 1, "crash": 0, "timeout": 1, "error": 0, "flake": 1, "order-dependent": 0,
                        "known": 0}
    assert zink == {"pass": 2, "fail": 2, "skip": 0, "crash": 1, "timeout": 0, "error": 1, "flake": 0, "order-dependent": 0,
                    "known": 0}
    row = totals.find("tr", **{"data-target": "llvmpipe"})
    cells = [td.text().strip() for td in row.find_all("td")]
    assert cells[0] == "6" and "3.00 s" in cells and "2.0" in cells    # 6 cases in 3 s
    assert "zink renderer" in totals.text()


def test_family_tables(built, image_case):
    _, dom, _ = built
    tables = {t.attrs["data-family"]: t for t in dom.find_all("table", class_="family")}
    assert set(tables) == {"tess", "draw_params", "varyings"}
    assert counts(tables["tess"].find("tr", **{"data-target": "zink"})) == \
        {"pass": 1, "fail": 0, "skip": 0, "crash": 1, "timeout": 0, "error": 1, "flake": 0, "order-dependent": 0,
         "known": 0}
    assert counts(tables["draw_params"].find("tr", **{"data-target": "llvmpipe"}))["flake"] == 1
    assert counts(tables["varyings"].find("tr", **{"data-target": "zink"}))["fail"] == 1


def test_differential_view(built):
    _, dom, _ = built
    table = dom.find("table", id="diff")
    header = [th.text() for th in table.find("tr").find_all("th")]
    assert header == ["case", "llvmpipe", "zink"]
    rows = table.find_all("tr", **{"data-case": DISAGREE})
    assert len(rows) == 1 and "disagree" in rows[0].classes()
    cells = {td.attrs["data-target"]: td for td in rows[0].find_all("td") if "data-target" in td.attrs}
    assert cells["llvmpipe"].text() == "pass" and "st-pass" in cells["llvmpipe"].classes()
    assert cells["zink"].text() == "fail" and "st-fail" in cells["zink"].classes()
    assert DISAGREE_MESSAGE in cells["zink"].attrs["title"]
    order = [tr.attrs["data-case"] for tr in table.find_all("tr") if "data-case" in tr.attrs]
    flags = ["disagree" in tr.classes() for tr in table.find_all("tr") if "data-case" in tr.attrs]
    assert len(order) == len(OTHERS) + 1
    assert flags == sorted(flags, reverse=True) and flags.count(True) == 4   # disagreements first
    agree = table.find("tr", **{"data-case": PASS_BOTH})
    assert "agree" in agree.classes()
    assert rows[0].find("a").attrs["href"] == "#" + report.anchor(DISAGREE)


def test_failure_message_and_glsl(built, image_case):
    case, _, _ = image_case
    _, dom, message = built
    section = dom.find("section", id=report.anchor(case.id))
    by_target = {d.attrs["data-target"]: d for d in section.find_all("div", class_="target")}
    assert set(by_target) == {"llvmpipe", "zink"}
    assert by_target["zink"].find("pre", class_="message").text() == message
    assert by_target["llvmpipe"].find("pre", class_="message").text() == "llvmpipe image message"
    assert not by_target["llvmpipe"].find_all("img")               # no observation file: message only
    glsl = {pre.attrs["data-stage"]: pre.text() for pre in section.find_all("pre", class_="glsl")}
    assert glsl == dict(case.shaders)
    other = dom.find("section", id=report.anchor(DISAGREE))
    assert other.find("pre", class_="message").text() == DISAGREE_MESSAGE
    assert not other.find_all("img") and not other.find_all("pre", class_="glsl")
    assert not dom.find_all("section", id=report.anchor(PASS_BOTH))


def test_pngs(built, image_case):
    case, _, wrong = image_case
    index, dom, _ = built
    width, height = case.readback.image
    section = dom.find("section", id=report.anchor(case.id))
    srcs = [img.attrs["src"] for img in section.find_all("img")]
    assert len(srcs) == 3
    loaded = {}
    for src, name in zip(srcs, ("expected", "observed", "diff")):
        path = index.parent / unquote(src)
        assert path.is_file() and path.name.endswith(f"{name}.png")
        with Image.open(path) as png:
            assert png.format == "PNG" and png.size == (width * SCALE, height * SCALE)
            loaded[name] = np.asarray(png.convert("RGB"))
    # the wrong channel's quadrant of its pixel's block, the block counted from the top left
    pixel, channel = divmod(wrong.index, 4)
    x, y = pixel % width, height - 1 - pixel // width
    half = SCALE // 2
    top, left = y * SCALE + (channel // 2) * half, x * SCALE + (channel % 2) * half
    diff = loaded["diff"]
    red = np.all(diff == (255, 0, 0), axis=2)
    assert red[top:top + half, left:left + half].all()
    assert red.sum() == half * half                                 # and nothing else is red
    assert "1 of" in section.text()                                 # "1 of N expected channels wrong"
    # expected and observed differ in that pixel's block only
    changed = np.any(loaded["expected"] != loaded["observed"], axis=2)
    rows, cols = np.nonzero(changed)
    assert len(rows) and set(rows // SCALE) == {y} and set(cols // SCALE) == {x}


def test_diff_marks_dont_care_grey():
    expectation_values = np.zeros((1, 1, 4))
    care = np.array([[[True, True, False, False]]])
    wrong = images.compare(np.array([[[0.0, 5.0, 9.0, 9.0]]]), expectation_values, care, 0.5)
    assert wrong.tolist() == [[[False, True, False, False]]]
    diff = np.asarray(images.diff_image(wrong, care, 4))
    assert diff[0, 0].tolist() == [0, 0, 0] and diff[0, 3].tolist() == [255, 0, 0]
    assert diff[3, 0].tolist() == [128, 128, 128] and diff[3, 3].tolist() == [128, 128, 128]


def test_known_failures_apart_from_new_ones(tmp_path):
    """A gated run's expected failures (the baseline lists them) are counted and coloured as
    known, not in the fail column with the new ones."""
    known = {**entry(DISAGREE, "zink", "fail", 0.1, "known: why"), "expected": "Fail", "label": "expected fail"}
    new = entry(PASS_BOTH, "zink", "fail", 0.1, "new: why")
    write_results(tmp_path / "res", "zink", [known, new])
    dom = parse(report.write_report([tmp_path / "res"], tmp_path / "out").read_text(encoding="utf-8"))
    totals = counts(dom.find("table", id="totals").find("tr", **{"data-target": "zink"}))
    assert totals["known"] == 1 and totals["fail"] == 1
    header = [th.text() for th in dom.find("table", id="totals").find("tr").find_all("th")]
    assert header.index("known") < header.index("fail")
    table = dom.find("table", id="diff")
    cells = {case: table.find("tr", **{"data-case": case}).find("td", **{"data-target": "zink"})
             for case in (DISAGREE, PASS_BOTH)}
    assert "st-known" in cells[DISAGREE].classes() and "st-fail" not in cells[DISAGREE].classes()
    assert "st-fail" in cells[PASS_BOTH].classes() and "st-known" not in cells[PASS_BOTH].classes()
    assert "known" in cells[DISAGREE].attrs["title"]
    heading = dom.find("section", id=report.anchor(DISAGREE)).find("h4").find("span")
    assert "st-known" in heading.classes() and "(known)" in heading.text()
    assert "(known)" not in dom.find("section", id=report.anchor(PASS_BOTH)).find("h4").text()


def test_main(tmp_path, capsys):
    write_results(tmp_path / "res", "llvmpipe", [entry(PASS_BOTH, "llvmpipe", "pass", 0.1)])
    assert harness_main(["report", str(tmp_path / "res"), "-o", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "out" / "index.html")
    assert (tmp_path / "out" / "index.html").is_file()


@pytest.mark.parametrize("content, says", [
    (None, "no such results directory or file"),
    ("{", "not JSON"),
    ('{"results": 3}', "not a results file"),
    ('{"results": [{"target": "zink", "status": "pass"}]}', "results[0] has no 'id'"),
])
def test_main_bad_input(tmp_path, capsys, content, says):
    folder = tmp_path / "res"
    if content is not None:
        folder.mkdir()
        (folder / "results.json").write_text(content)
    assert harness_main(["report", str(folder), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and says in err


def chromium_dom(page: Path, tmp_path: Path) -> Node:
    """The page as headless Chromium builds it (skips where Chromium is not installed)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("chromium is not on PATH (bin/selftest installs Debian's chromium)")
    done = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return parse(done.stdout)


def test_in_chromium(built, tmp_path):
    index, _, _ = built
    dom = chromium_dom(index, tmp_path)
    totals = dom.find("table", id="totals")
    assert counts(totals.find("tr", **{"data-target": "zink"}))["crash"] == 1
    assert counts(totals.find("tr", **{"data-target": "llvmpipe"}))["pass"] == 2


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """A report of recorded runs on five Mesa releases (results/test_release_matrix.py's)."""
    tmp = tmp_path_factory.mktemp("releases")
    index = report.write_report(write_runs(tmp), tmp / "out")
    return index, parse(index.read_text(encoding="utf-8"))


def check_release_matrix(dom: Node):
    table = dom.find("table", id="matrix")
    header = [th.text() for th in table.find("tr").find_all("th")]
    assert header == ["case", "target"] + [f"Mesa {v}" for v in RELEASES] + ["changes"]

    def cells(case_id):
        row = table.find("tr", **{"data-case": case_id})
        return row, {td.attrs["data-mesa"]: td for td in row.find_all("td") if "data-mesa" in td.attrs}

    marks = {"regression", "fix", "change"}
    row, regressed = cells(REGRESSED)
    assert "changed" in row.classes() and row.attrs["data-target"] == "zink"
    assert {"st-fail", "regression"} <= regressed["26.1.6-1~bpo13+1"].classes()
    assert "last good 25.0.7-2+deb13u1" in regressed["26.1.6-1~bpo13+1"].attrs["title"]
    assert {"st-crash", "change"} <= regressed["26.2.6-1"].classes()
    assert not any(marks & regressed[v].classes() for v in RELEASES[:3])
    _, fixed = cells(FIXED)
    assert "regression" in fixed["25.0.7-2~bpo12+1"].classes() and "fix" in fixed["26.2.6-1"].classes()
    assert fixed["26.1.6-1~bpo13+1"].text() == "—" and fixed["25.0.7-2+deb13u1"].text() == "skip"
    row, bad = cells(ALWAYS_BAD)
    assert "unchanged" in row.classes() and not any(marks & td.classes() for td in bad.values())
    assert row.find("a").attrs["href"] == "#" + report.anchor(ALWAYS_BAD)
    assert not table.find_all("tr", **{"data-case": ALWAYS_GOOD})
    assert "1 case on a target that never failed is not shown" in " ".join(dom.find("h2", id="releases")
                                                                            .parent.text().split())


def test_release_matrix_view(releases):
    check_release_matrix(releases[1])


def test_release_matrix_in_chromium(releases, tmp_path):
    check_release_matrix(chromium_dom(releases[0], tmp_path))


def test_one_release_has_no_matrix_view(built):
    _, dom, _ = built
    assert not dom.find_all("table", id="matrix") and not dom.find_all("h2", id="releases")
