"""Which harness produced a run: its version and the checkout's `git describe`, the run-level
JUnit properties of every front end."""
from __future__ import annotations

import subprocess
from pathlib import Path

from harness import __version__

CHECKOUT = Path(__file__).resolve().parents[2]


def git_describe() -> str:
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=CHECKOUT,
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.stdout.strip() or "unknown"


def run_properties() -> dict[str, str]:
    return {"harness_version": __version__, "harness_git": git_describe()}
