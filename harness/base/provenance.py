"""Which harness produced a run, where and for which CI job: the run-level properties every front
end writes to run.json (harness/results/files.py), a few of them to JUnit as well."""
from __future__ import annotations

import socket
import subprocess
from pathlib import Path

from harness import __version__
from harness.base import config

CHECKOUT = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=CHECKOUT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def git_describe() -> str:
    return _git("describe", "--always", "--dirty", "--tags") or "unknown"


def run_properties() -> dict[str, str]:
    """The harness's version, `git describe` and commit, the machine, and the CI variables set
    (config.ci_variables: ci_pipeline_id, ci_job_name, ci_commit_sha, ...)."""
    properties = {"harness_version": __version__, "harness_git": git_describe(),
                  "harness_commit": _git("rev-parse", "HEAD"), "machine": socket.gethostname()}
    return {**properties, **config.ci_variables()}
