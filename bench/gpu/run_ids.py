#!/usr/bin/env python3
"""Run named cases (fixed or explored ids) on one target, alone, each in a context of its own,
and print each verdict with its whole message; for hang triage, dump the stacks of every
process under this one while a case is still running after --dump-after seconds.

    python3 bench/gpu/run_ids.py --target T [--mesa M] [--case-timeout S] [--stall S]
                                 [--dump-after S] [--json FILE] ID...   (or --ids-file FILE)

Unlike `harness bisect-run` it takes the case timeout and the stall (seconds without CPU that
call a case deadlocked) from the command line: a long stall keeps a hung child alive for the
stack dump. The dump (per process: its command line, each thread's name, state, kernel wait
channel and system call, then `py-spy dump --native` and `cuda-gdb -batch ... thread apply all
bt`, where those are installed) goes to stdout and into the JSON record as "stacks".
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harness.base import config, options  # noqa: E402
from harness.executor.settings import resolve  # noqa: E402
from harness.run import core  # noqa: E402
from harness.sources import catalog  # noqa: E402


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            out.append(child)
            todo.append(child)
    return out


def _read(path: str) -> str:
    try:
        return Path(path).read_text(errors="replace").strip()
    except OSError as exc:
        return f"({exc.strerror})"


def _maps(pid: int) -> list[tuple[int, int, int, str]]:
    """(start, end, file offset, path) of the executable mappings."""
    out = []
    for line in _read(f"/proc/{pid}/maps").splitlines():
        parts = line.split()
        if len(parts) >= 6 and "x" in parts[1]:
            start, end = (int(x, 16) for x in parts[0].split("-"))
            out.append((start, end, int(parts[2], 16), parts[5]))
    return out


def scan_stack(pid: int, sp: int, maps, words: int = 8192, hits: int = 30) -> list[str]:
    """Return addresses, as far as a scan can tell: the words above `sp` that point into code,
    as library+offset (no unwinder: some are stale, but the libraries on the way are there)."""
    try:
        data = b""
        with open(f"/proc/{pid}/mem", "rb") as mem:
            while len(data) < words * 8:           # page by page: the stack's top ends the reads
                mem.seek(sp + len(data))
                page = mem.read(4096 - (sp + len(data)) % 4096)
                if not page:
                    break
                data += page
    except OSError as exc:
        if not data:
            return [f"(stack not readable: {exc.strerror})"]
    out = []
    for i in range(0, len(data) - 7, 8):
        value = int.from_bytes(data[i:i + 8], "little")
        for start, end, offset, path in maps:
            if start <= value < end:
                out.append(f"{path.rsplit('/', 1)[-1]}+{value - start + offset:#x}")
                break
        if len(out) >= hits:
            break
    return out


def _poll_fds(pid: int, args: list[str]) -> str:
    """The fds a thread in poll(2) waits on, and what they are."""
    try:
        address, count = int(args[1], 16), min(int(args[2], 16), 8)
        with open(f"/proc/{pid}/mem", "rb") as mem:
            mem.seek(address)
            data = mem.read(8 * count)
    except (OSError, ValueError, IndexError):
        return ""
    fds = []
    for i in range(count):
        fd = int.from_bytes(data[8 * i:8 * i + 4], "little", signed=True)
        events = int.from_bytes(data[8 * i + 4:8 * i + 6], "little")
        try:
            what = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            what = "?"
        fds.append(f"fd {fd} ({what}) events {events:#x}")
    return "; polls " + ", ".join(fds)


def stacks(pid: int) -> str:
    lines = [f"=== pid {pid}: {_read(f'/proc/{pid}/cmdline').replace(chr(0), ' ')[:300]}"]
    stat = _read(f"/proc/{pid}/stat").rsplit(")", 1)[-1].split()
    if len(stat) > 13:
        lines.append(f"state {stat[0]}, utime {stat[11]} stime {stat[12]} ticks")
    try:
        tasks = sorted(os.listdir(f"/proc/{pid}/task"), key=int)
    except OSError:
        tasks = []
    maps = _maps(pid)
    for tid in tasks:
        t = f"/proc/{pid}/task/{tid}"
        tstat = _read(f"{t}/stat").rsplit(")", 1)[-1].split()
        syscall = _read(f"{t}/syscall").split()
        wchan = _read(f"{t}/wchan")
        lines.append(f"  tid {tid} {_read(f'{t}/comm')!r}: state {tstat[0] if tstat else '?'}, "
                     f"wchan {wchan}, syscall {' '.join(syscall[:4])}, "
                     f"cpu ticks {tstat[11] if len(tstat) > 12 else '?'}+{tstat[12] if len(tstat) > 12 else '?'}"
                     + (_poll_fds(pid, syscall) if syscall[:1] == ["7"] else ""))
        # the threads not parked on a futex or a pipe read: their stack, scanned
        if len(syscall) >= 9 and syscall[0] not in ("202", "0") or tid == str(pid):
            try:
                sp = int(syscall[-2], 16)
            except ValueError:
                continue
            lines.append("    stack scan: " + " < ".join(scan_stack(pid, sp, maps)))
    maps = _read(f"/proc/{pid}/maps")
    libs = sorted({line.split()[-1].rsplit("/", 1)[-1] for line in maps.splitlines()
                   if ".so" in line and ("nvidia" in line or "gallium" in line or "vulkan" in line or "EGL" in line)})
    lines.append("  libraries: " + " ".join(libs))
    smi = shutil.which("nvidia-smi")
    if smi:
        out = subprocess.run([smi, "--query-gpu=utilization.gpu,pstate,clocks.sm,memory.used,power.draw",
                              "--format=csv"], capture_output=True, text=True)
        lines.append("  nvidia-smi: " + " | ".join(out.stdout.strip().splitlines()))
    spy = shutil.which("py-spy") or next((p for p in ("/tmp/site/bin/py-spy",) if os.path.exists(p)), None)
    if spy:
        try:
            out = subprocess.run([spy, "dump", "--native", "--pid", str(pid)], capture_output=True, text=True,
                                 timeout=30)
            lines.append("  --- py-spy dump --native\n" + (out.stdout + out.stderr).strip())
        except (OSError, subprocess.TimeoutExpired) as exc:
            lines.append(f"  py-spy: {exc}")
    gdb = shutil.which("cuda-gdb") or shutil.which("gdb")
    if gdb:
        try:
            out = subprocess.run([gdb, "-q", "-batch", "-iex", "set auto-load safe-path /", "-p", str(pid),
                                  "-ex", "set pagination off",
                                  "-ex", "info threads", "-ex", "info sharedlibrary",
                                  "-ex", "thread apply all bt 40"],
                                 capture_output=True, text=True, timeout=90)
            lines.append(f"  --- {Path(gdb).name} thread apply all bt\n" + (out.stdout + out.stderr).strip()[-20000:])
        except (OSError, subprocess.TimeoutExpired) as exc:
            lines.append(f"  {gdb}: {exc}")
    return "\n".join(lines)


OPTIONS = ("target", "mesa", "case_timeout", "vk_validation", "vk_path")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--ids-file", default=None)
    options.add_arguments(parser, OPTIONS, {"target": options.ONE, "case_timeout": options.TRIAGE_TIMEOUT})
    parser.add_argument("--stall", type=float, default=config.STALL)
    parser.add_argument("--dump-after", type=float, default=0.0, help="0: no stack dumps")
    parser.add_argument("--json", default=None)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    ids = list(args.ids)
    if args.ids_file:
        ids += [line.split()[0] for line in Path(args.ids_file).read_text().splitlines() if line.strip()
                and not line.startswith("#")]
    settings = resolve(options.values(args, OPTIONS), stall=args.stall)
    records = []
    with core.runner(settings, args.target, children=1) as runner:
        facts = core.facts_of(runner)
        print(f"{args.target}: {facts.renderer or None}, {facts.version or None}, Mesa {facts.mesa}, "
              f"{facts.platform}", flush=True)
        for case_id in ids:
            case = catalog.find(case_id)
            dumped: list[str] = []
            timer = None
            if args.dump_after > 0:
                def dump(case_id=case_id, dumped=dumped):
                    # the leaves of the process tree: the executor's child (under its spawner)
                    for pid in descendants(os.getpid()):
                        if not descendants(pid):
                            dumped.append(stacks(pid))
                    print(f"--- stacks of {case_id} after {args.dump_after:g} s\n" + "\n".join(dumped), flush=True)
                timer = threading.Timer(args.dump_after, dump)
                timer.start()
            start = time.perf_counter()
            record = core.run_case(case, args.target, runner)
            wall = time.perf_counter() - start
            if timer:
                timer.cancel()
                timer.join()
            print(f"{args.label}{case_id}[{args.target}]: {record.status.value} ({wall:.1f} s wall, "
                  f"{record.duration:.2f} s in the child)", flush=True)
            for line in record.message.splitlines()[:40]:
                print("    " + line)
            records.append(replace(record).to_json() | {"wall": round(wall, 2), "label": args.label,
                                                          "stacks": dumped})
    if args.json:
        Path(args.json).write_text(json.dumps({"target": args.target, "facts": facts, "records": records},
                                              indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
