"""The index page's timeline (harness/history/dashboard.py): an SVG plot's geometry per target, the
runs oldest first by start time, the passed count on top, the failures stacked below."""
from __future__ import annotations

from typing import Protocol, TypedDict

from harness.history import queries


class Links(Protocol):
    """Where a run's page is (dashboard.Links)."""
    def run(self, run_id: int) -> str: ...

PLOT = {"width": 760, "left": 52, "right": 14, "top": 26, "passed": 46, "gap": 14, "bars": 120, "bottom": 22}
STACK = (("failed", "new failures"), ("known", "known failures"), ("flaked", "flakes"))


def _nice(value: int) -> int:
    """The axis' top: the value rounded up to 1, 2 or 5 times a power of ten."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if value <= step * factor:
                return step * factor
        step *= 10


class Segment(TypedDict):
    kind: str
    y: float
    height: float


class Bar(TypedDict):
    x: float
    width: float
    segments: list[Segment]
    title: str
    href: str
    top: int
    height: int


class Dot(TypedDict):
    x: float
    title: str
    y: float


class Mark(TypedDict):
    x: float
    label: str


class Tick(TypedDict):
    x: float
    label: str
    anchor: str


class Timeline(TypedDict):
    """An SVG plot's geometry for one target (index.html.j2 draws it)."""
    target: str
    width: int
    left: int
    right: int
    height: int
    top: int
    passed_height: int
    bars_top: int
    bars_bottom: int
    bars_max: int
    passed_max: int
    bars: list[Bar]
    dots: list[Dot]
    marks: list[Mark]
    ticks: list[Tick]
    line: str
    runs: int


def timeline(target: str, runs: list[queries.Run], links: Links) -> Timeline:
    """An SVG plot's geometry for one target: its runs oldest first, x by start time; on top the
    passed count, below a bar per run of new failures, known failures and flakes stacked; a
    dashed line and label where each Mesa version first ran."""
    mine = sorted((r for r in runs if target in r.targets), key=lambda r: (r.started, r.id))
    p = PLOT
    inner = p["width"] - p["left"] - p["right"]
    first, last = mine[0].started, mine[-1].started
    span = (last - first).total_seconds()

    def x(run: queries.Run) -> float:
        return p["left"] + (inner / 2 if span == 0 else (run.started - first).total_seconds() / span * inner)
    bar_width = max(2.0, min(14.0, inner / len(mine) * 0.6))
    bars_top = p["top"] + p["passed"] + p["gap"]
    bars_max = _nice(max(max(sum(r.targets[target][k] for k, _ in STACK) for r in mine), 1))
    passed_max = _nice(max(max(r.targets[target]["passed"] for r in mine), 1))
    bars: list[Bar] = []
    dots: list[Dot] = []
    marks: list[Mark] = []
    seen: set[str] = set()
    for run in mine:
        counts = run.targets[target]
        base: float = bars_top + p["bars"]
        segments: list[Segment] = []
        for name, _label in STACK:
            height = counts[name] / bars_max * p["bars"]
            if height:
                segments.append({"kind": name, "y": round(base - height, 2), "height": round(height, 2)})
                base -= height
        title = (f"run {run.id}, {run.started:%Y-%m-%d %H:%M}, Mesa {run.mesa or '?'}, {run.lane}: "
                 + ", ".join(f"{counts[k]} {label}" for k, label in (("passed", "passed"), *STACK)))
        bars.append({"x": round(x(run) - bar_width / 2, 2), "width": round(bar_width, 2), "segments": segments,
                     "title": title, "href": links.run(run.id), "top": bars_top, "height": p["bars"]})
        dots.append({"x": round(x(run), 2), "title": title,
                     "y": round(p["top"] + p["passed"] - counts["passed"] / passed_max * p["passed"], 2)})
        if run.mesa not in seen:
            seen.add(run.mesa)
            marks.append({"x": round(x(run), 2), "label": f"Mesa {run.mesa}" if run.mesa else "Mesa ?"})
    ticks: list[Tick] = [{"x": dots[0]["x"], "label": f"{first:%Y-%m-%d}", "anchor": "start"}]
    if span:
        ticks.append({"x": dots[-1]["x"], "label": f"{last:%Y-%m-%d}", "anchor": "end"})
    return {"target": target, "width": p["width"], "left": p["left"], "right": p["width"] - p["right"],
            "height": bars_top + p["bars"] + p["bottom"], "top": p["top"], "passed_height": p["passed"],
            "bars_top": bars_top, "bars_bottom": bars_top + p["bars"], "bars_max": bars_max,
            "passed_max": passed_max, "bars": bars, "dots": dots, "marks": marks, "ticks": ticks,
            "line": " ".join(f"{d['x']},{d['y']}" for d in dots), "runs": len(mine)}
