#!/usr/bin/env python3
"""Do triage/'s shader_tests still show their defect? Each runs in Debian piglit's shader_runner
on llvmpipe and zink of the system's Mesa and of a --mesa build, with the environment the
harness gives those targets; prints one row per file and driver.

    .venv/bin/python bench/triage_check.py [--mesa mesa/25.0.7-2~bpo12+1] [FILE_OR_DIR ...]

Needs Debian's piglit (2 GB, so not in CI). Exit 0 always: this reports, the READMEs judge.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from export_check import SHADER_RUNNER, piglit_verdict as verdict  # noqa: E402
from harness.mesa import runtime as mesa  # noqa: E402
from harness.executor import targets  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT / "triage"])
    parser.add_argument("--mesa", default="mesa/25.0.7-2~bpo12+1", help="the other Mesa (default: mesa/25.0.7-2~bpo12+1)")
    parser.add_argument("--drivers", default="llvmpipe,zink")
    args = parser.parse_args()
    if not os.access(SHADER_RUNNER, os.X_OK):
        print(f"triage_check: {SHADER_RUNNER} not found (Debian's piglit package)", file=sys.stderr)
        return 2
    build = mesa.locate(args.mesa)
    files = sorted(f for p in args.paths for f in ([p] if p.is_file() else p.rglob("*.shader_test")))
    base = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl")
    print(f"{'file':40} {'driver':9} {'system Mesa':>12} {'Mesa ' + build.version:>24}")
    for path in files:
        for name in args.drivers.split(","):
            target = targets.get(name)
            before = verdict(path, target.environment(base))
            after = verdict(path, target.environment(base, build), target.command([], base, build))
            print(f"{path.name:40} {name:9} {before:>12} {after:>24}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
