#!/usr/bin/env python3
"""One line-set per zink-system run of bench/gpu/run.sh: verdicts, wall time, cases/s, when the
first and last verdicts came, and the failures grouped by the first words of their message.

    python3 bench/gpu/summary.py RESULTS_DIR WALL_SECONDS EXIT_STATUS
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path


def main() -> int:
    folder, wall, rc = Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    path = folder / "results.json"
    if not path.exists():
        print(f"  {folder.name}: no results.json (exit {rc})")
        return 0
    entries = json.loads(path.read_text())["results"]
    statuses = Counter(e["status"] for e in entries)
    finished = sorted(e.get("finished", 0.0) for e in entries)
    mesa = Counter(e.get("mesa", "") for e in entries)
    print(f"  {folder.name}: {len(entries)} cases in {wall:.0f} s ({len(entries) / wall if wall else 0:.1f} cases/s), "
          f"exit {rc}; " + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))
    print(f"  Mesa {dict(mesa)}; renderer {Counter(e.get('renderer', '') for e in entries).most_common(1)}")
    if len(finished) > 1 and finished[-1] > finished[0]:
        print(f"  first verdict {finished[0]:.1f} s, last {finished[-1]:.1f} s: "
              f"{(len(finished) - 1) / (finished[-1] - finished[0]):.1f} cases/s between them")
    groups = Counter()
    for e in entries:
        if e["status"] in ("fail", "crash", "timeout", "error"):
            family = e["id"].split("/")[0]
            text = re.sub(r"\d+(\.\d+)?", "N", (e.get("message") or "").splitlines()[0] if e.get("message") else "")
            groups[(e["status"], family, text[:110])] += 1
    for (status, family, text), n in groups.most_common(25):
        print(f"  {n:5} {status:8} {family:12} {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
