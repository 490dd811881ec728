"""Two runs side by side: regressions, fixes, new and removed cases, worst first."""
from __future__ import annotations

from harness.results import key

# pass < fail < timeout < crash; a flake passed on a re-run, an error is the harness's fault.
SEVERITY = {"pass": 0, "flake": 0, "fail": 1, "error": 1, "timeout": 2, "crash": 3}


def compare(old: list[dict], new: list[dict], by_id: bool = False) -> dict[str, list[tuple[str, str, str]]]:
    """Each list holds (case key, old status, new status); skips are neither worse nor better.
    `by_id` compares case ids whatever the target (one target against another)."""
    name_of = (lambda e: e["id"]) if by_id else key
    before = {name_of(e): e["status"] for e in old}
    after = {name_of(e): e["status"] for e in new}
    out = {"regressions": [], "fixes": [], "new": [], "removed": []}
    for name in sorted(set(before) | set(after)):
        a, b = before.get(name), after.get(name)
        if a is None:
            out["new"].append((name, "", b))
        elif b is None:
            out["removed"].append((name, a, ""))
        elif a in SEVERITY and b in SEVERITY and SEVERITY[b] != SEVERITY[a]:
            out["regressions" if SEVERITY[b] > SEVERITY[a] else "fixes"].append((name, a, b))
    out["regressions"].sort(key=lambda row: (-SEVERITY[row[2]], row[0]))
    out["fixes"].sort(key=lambda row: (-SEVERITY[row[1]], row[0]))
    out["new"].sort(key=lambda row: (-SEVERITY.get(row[2], -1), row[0]))
    return out


def format_report(diff: dict) -> str:
    lines = []
    for section in ("regressions", "fixes", "new", "removed"):
        rows = diff[section]
        lines.append(f"{section}: {len(rows)}")
        lines += [f"  {name}: {a or '-'} -> {b or '-'}" for name, a, b in rows]
    return "\n".join(lines)
