"""`python -m harness blame`: bad input is one line and a non-zero exit."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_case_is_one_line_and_exit_2():
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/no/such/case"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "python -m harness blame: no case 'draw_params/no/such/case' in family draw_params"]
