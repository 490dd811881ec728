#!/usr/bin/env python3
"""Triage of hanging cases on a GL target (written for zink over NVIDIA's Vulkan).

    python3 bench/gpu/hang_triage.py --target zink-system [--from EXPLORE_DIR]... [ID...]
                                     [--max 2] [--debug sync,noreorder,...] [--out DIR]

Takes the hanging ids given, else those of explorations' folders (the reduced findings whose
status is timeout first, then the journal's timeouts), and for each of up to --max of them:
1. runs it alone through the harness (bench/gpu/run_ids.py) with a 30 s stall and timeout, and
   dumps every thread's state, kernel wait channel and native stack (py-spy, cuda-gdb) of the
   child 8 s into the case;
2. writes it as a standalone C program (`harness export --format c`: EGL + GL, no harness),
   which picks an EGL device with REPRO_EGL_DEVICE=N (as the harness opens zink on a
   machine without a DRM node), builds it with the machine's cc where there is one, and runs it
   through `harness exec TARGET` (the target's environment and Mesa loader), dumping its stacks
   the same way if it is still running after 10 s;
3. runs it again with each ZINK_DEBUG option of --debug (and ZINK_DESCRIPTORS=lazy, and
   MESA_SHADER_CACHE_DISABLE=true), a 15 s case timeout each, to see which one makes the hang go.
Everything goes to stdout; the JSON records of step 1 and 3 to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from run_ids import stacks  # noqa: E402



def sh(cmd: list[str], timeout: float, env=None) -> tuple[int | None, str]:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        return out.returncode, out.stdout + out.stderr
    except subprocess.TimeoutExpired as exc:
        text = exc.stdout or ""
        return None, text.decode(errors="replace") if isinstance(text, bytes) else text


def hang_ids(folders: list[Path]) -> list[str]:
    reduced, raw = [], []
    for folder in folders:
        for findings in folder.rglob("findings.json"):
            try:
                data = json.loads(findings.read_text())
            except ValueError:
                continue
            for f in data.get("findings", []) if isinstance(data, dict) else []:
                if f.get("status") == "timeout":
                    reduced.append(f["reduced_id"])
                    raw.append(f.get("original_id", ""))
        for journal in folder.rglob("*.jsonl"):
            for line in journal.read_text().splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("status") == "timeout" and entry.get("id"):
                    raw.append(entry["id"])
    return [i for i in dict.fromkeys(reduced + raw) if i]


def run_ids(target: str, case_id: str, out: Path, label: str, timeout: float, stall: float, dump: float,
            env_extra: dict | None = None) -> None:
    env = dict(os.environ, **(env_extra or {}))
    cmd = [sys.executable, str(HERE / "run_ids.py"), "--target", target, "--case-timeout", str(timeout),
           "--stall", str(stall), "--json", str(out / f"{label}.json"), "--label", label + " ", case_id]
    if dump:
        cmd += ["--dump-after", str(dump)]
    print(f"$ {' '.join(f'{k}={v}' for k, v in (env_extra or {}).items())} {' '.join(cmd[1:])}", flush=True)
    code, text = sh(cmd, timeout + 200, env)
    print(text, flush=True)


def c_repro(target: str, case_id: str, out: Path) -> None:
    folder = out / "c"
    folder.mkdir(parents=True, exist_ok=True)
    code, text = sh([sys.executable, "-m", "harness", "export", "--format", "c", "-o", str(folder), case_id], 120)
    sources = sorted(folder.glob("*.c"), key=lambda p: p.stat().st_mtime)
    if code != 0 or not sources:
        print(f"export --format c: {code}: {text}")
        return
    source = sources[-1]                # REPRO_EGL_DEVICE picks its EGL device (repro.c.j2)
    cc = shutil.which("cc") or shutil.which("gcc")
    binary = source.with_suffix("")
    if not cc:
        print("no C compiler on this machine: the C program is not run here")
        return
    inc = os.environ.get("REPRO_INCLUDE", "/usr/include")     # EGL/, KHR/, GL/glcorearb.h
    egl = next(iter(sorted(Path("/usr/lib/x86_64-linux-gnu").glob("libEGL.so.1*"))), None)
    code, text = sh([cc, "-g", "-O0", "-I", inc, str(source), str(egl) if egl else "-lEGL", "-o", str(binary)], 120)
    print(f"$ {cc} ... {source.name}: exit {code}\n{text}", flush=True)
    if code != 0:
        return
    for device in ("", "0", "1", "2", "3"):
        env = dict(os.environ)
        if device:
            env["REPRO_EGL_DEVICE"] = device
        cmd = [sys.executable, "-m", "harness", "exec", target, "--", str(binary)]
        print(f"$ REPRO_EGL_DEVICE={device or '(unset: surfaceless)'} python3 -m harness exec {target} -- {binary.name}",
              flush=True)
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=12)
            print(f"exit {proc.returncode} after {time.perf_counter() - start:.1f} s:\n{output[-3000:]}", flush=True)
            renderer = re.search(r"GL_RENDERER: ([^;\n]*)", output)
            if renderer and "zink" in renderer.group(1).lower() or "zink" not in target:
                return
        except subprocess.TimeoutExpired:
            print("still running after 12 s: a hang outside the harness; stacks:", flush=True)
            for pid in [proc.pid] + _children(proc.pid):
                print(stacks(pid), flush=True)
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            print(f"killed; its output:\n{output[-3000:]}", flush=True)
            return


def _children(pid: int) -> list[int]:
    from run_ids import descendants
    return descendants(pid)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--target", default="zink-system")
    parser.add_argument("--from", dest="folders", type=Path, action="append", default=[])
    parser.add_argument("--max", type=int, default=2)
    parser.add_argument("--debug", default="sync,noreorder,flushsync,nobgc,noshobj,nopc")
    parser.add_argument("--out", type=Path, default=Path("/tmp/hang-triage"))
    parser.add_argument("--skip", default="", help="steps to leave out: stacks,c,debug")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    skip = set(args.skip.split(","))
    ids = list(args.ids) or hang_ids(args.folders)
    print(f"hanging ids found: {len(ids)}", *ids, sep="\n  ", flush=True)
    for n, case_id in enumerate(ids[:args.max]):
        print(f"\n######## {case_id}", flush=True)
        if "stacks" not in skip:
            run_ids(args.target, case_id, args.out, f"h{n}-alone", 30, 30, 8)
        if "c" not in skip:
            c_repro(args.target, case_id, args.out / f"h{n}")
        if "debug" not in skip and n == 0:
            variants = [{"ZINK_DEBUG": d} for d in args.debug.split(",") if d]
            variants += [{"ZINK_DESCRIPTORS": "lazy"}, {"MESA_SHADER_CACHE_DISABLE": "true"}]
            for v in variants:
                label = f"h{n}-" + "-".join(f"{k}={val}" for k, val in v.items())
                run_ids(args.target, case_id, args.out, label, 15, 5, 0, v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
