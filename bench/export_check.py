#!/usr/bin/env python3
"""Do exported shader_tests reach the harness's verdict under piglit's shader_runner?

    .venv/bin/python bench/export_check.py [--drivers llvmpipe,zink] [--family varyings] [--every N]

Needs Debian's piglit (2 GB, so not in CI). For every N-th case of the family that reads back an
image, it runs the case in the harness and its exported shader_test in shader_runner on the
same driver, and prints the cases where the two verdicts differ.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.sources import catalog  # noqa: E402
from harness.run import export  # noqa: E402
from harness.executor.executor import Executor  # noqa: E402
from harness.executor.targets import get  # noqa: E402
from harness.oracle.verdict import judge  # noqa: E402

SHADER_RUNNER = "/usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner"


def piglit_verdict(path: Path, env: dict, launcher: list[str] = ()) -> str:
    """shader_runner's verdict on a file; `launcher` is a --mesa build's loader prefix (Target.command)."""
    try:
        out = subprocess.run([*launcher, SHADER_RUNNER, str(path), "-auto", "-fbo"], env=env, capture_output=True,
                             text=True, timeout=60).stdout
    except subprocess.TimeoutExpired:
        return "timeout"
    for word in ("pass", "fail", "skip", "crash"):
        if f'"result": "{word}"' in out:
            return word
    return "crash"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drivers", default="llvmpipe,zink")
    parser.add_argument("--family", default="varyings")
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args()
    if not os.path.exists(SHADER_RUNNER):
        print(f"{SHADER_RUNNER} not found: install Debian's piglit")
        return 2
    cases = [c for c in catalog.cases(args.family) if c.readback.image][::args.every]
    out_dir = Path(tempfile.mkdtemp(prefix="export-check-"))
    for driver in args.drivers.split(","):
        target = get(driver)
        env = {**os.environ, **dict(target.env), "PIGLIT_PLATFORM": "surfaceless_egl"}
        executor = Executor(target)
        same = differ = 0
        try:
            for case in cases:
                harness = judge(case, executor.run(case), driver).status
                (path,) = export.export(case, "shader_test", out_dir / driver)
                piglit = piglit_verdict(path, env)
                if harness == piglit or (harness == "crash" and piglit == "crash"):
                    same += 1
                else:
                    differ += 1
                    print(f"{driver}: {case.id}: harness {harness}, shader_runner {piglit}  ({path})")
        finally:
            executor.close()
        print(f"{driver}: {same} of {same + differ} cases give the same verdict in shader_runner")
    return 0


if __name__ == "__main__":
    sys.exit(main())
