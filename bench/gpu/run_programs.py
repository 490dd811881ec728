#!/usr/bin/env python3
"""Run standalone reproducers (C programs from `harness export --format c`, no harness in the
process) through `harness exec TARGET`, each with a wall-clock limit; one still running at the
limit has its threads' stacks dumped (bench/gpu/run_ids.py's stacks: states, wait channels,
polled fds, gdb backtraces, nvidia-smi) and is killed.

    python3 bench/gpu/run_programs.py --target zink-system [--device 0] [--limit 10] PROGRAM...

--device N sets REPRO_EGL_DEVICE=N (the exported program patched by bench/gpu/hang_triage.py's
DEVICE_FALLBACK opens the N-th EGL device, as the harness opens zink on a machine without a DRM
node). Prints, per program: exit status or HANG, seconds, and its last output lines.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_ids import descendants, stacks  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("programs", nargs="+")
    parser.add_argument("--target", required=True)
    parser.add_argument("--device", default=None)
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--no-stacks", action="store_true")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.device is not None:
        env["REPRO_EGL_DEVICE"] = args.device
    for program in args.programs:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "harness", "exec", args.target, "--", str(Path(program).resolve())],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=args.limit)
            status = f"exit {proc.returncode}"
        except subprocess.TimeoutExpired:
            status = f"HANG (still running after {args.limit:g} s)"
            if not args.no_stacks:
                for pid in [proc.pid] + descendants(proc.pid):
                    print(stacks(pid), flush=True)
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
        lines = [line for line in output.splitlines() if line.strip()]
        print(f"{Path(program).name} [{args.target}]: {status}, {time.perf_counter() - start:.1f} s: "
              + " | ".join(lines[-3:]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
