"""harness/pytest_adapter/lean.py: a scheduler's process runs each case item as one call, and
what it reports is what pytest's own protocol reports: real cases on llvmpipe (a pass, a failure
with no baseline, a case the context may refuse), the same records, statuses and exit status."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

CASES = ["draw_params/DrawArrays/f0c4/glsl450/vs", "draw_params/DrawArrays/f5c4/glsl460/vs",
         "draw_params/explore/v1-k0as11.ak1as29.n.aa1.1.m3x0z.a1.1.m3x0zz.0.t.0zz.s14.f.450z"]

# Counts the reports pytest's reporting hooks see, by phase, into the file $PHASES names.
COUNTER = '''
import json, os
seen = {}
def pytest_runtest_logreport(report):
    seen[report.when] = seen.get(report.when, 0) + 1
def pytest_unconfigure(config):
    open(os.environ["PHASES"], "w").write(json.dumps(seen))
'''


def _run(tmp_path: Path, name: str, *extra: str) -> tuple[int, dict, list[dict]]:
    folder = tmp_path / name
    (tmp_path / "phase_counter.py").write_text(COUNTER)
    path = os.pathsep.join(filter(None, [str(ROOT), str(tmp_path), os.environ.get("PYTHONPATH")]))
    args = [a for case in CASES for a in ("--case", case)]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "phase_counter", "-q",
                           "tests/draw_params", "--target", "llvmpipe", "--baseline", "none", "--in-process",
                           "--results-dir", str(folder), *args, *extra], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": path, "PHASES": str(tmp_path / f"{name}.json")})
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr[-3000:]
    results = json.loads((folder / "results.json").read_text())["results"]
    kept = [{k: r.get(k) for k in ("id", "target", "status", "label", "report", "message", "expected")} for r in results]
    return proc.returncode, json.loads((tmp_path / f"{name}.json").read_text()), sorted(kept, key=lambda r: r["id"])


def test_a_scheduled_process_reports_one_call_a_case_as_pytests_protocol_would(tmp_path):
    code, phases, records = _run(tmp_path, "phased")
    lean_code, lean_phases, lean_records = _run(tmp_path, "lean", "--shard", "1/1")
    assert phases == {"setup": 3, "call": 3, "teardown": 3}        # not a scheduler's process: pytest's phases
    assert lean_phases == {"call": 3}
    assert lean_code == code
    assert lean_records == records
    assert {r["id"] for r in records} == set(CASES)
    assert "pass" in {r["status"] for r in records}
