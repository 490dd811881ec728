#!/usr/bin/env python3
"""Benchmark: this harness against piglit, side by side in one run, per driver.

    .venv/bin/python bench/bench.py [--drivers llvmpipe,zink] [--families tess,draw_params]
                                    [--no-piglit] [--memory-targets llvmpipe,zink,lavapipe] [--cold]
                                    [--parallel N|auto] [--batch K] [--before REV [--repeat N]]

For each driver it first runs both tools once untimed, so that every timed row finds the
driver's shader disk cache warm (Mesa's, NVIDIA's), as repeated CI runs do; `--cold` skips that.
The harness's warm-up runs with `-n 0`: its one child fills NVIDIA's cache slot 0, from which a
later run seeds the slots of its other children (harness/executor/shader_cache.py).
Then it times, in one go: piglit on its tessellation and draw-parameters tests (isolated and
batched, if Debian's piglit is installed), then this harness's families with `-n auto` and with
`-n 0` (one pytest process and one executor child: the serial baseline), then `-n auto --batch 64`
(cases batched, harness/executor/batch.py; its verdicts compared case for case), with no pytest plugin
but those the harness declares (PYTEST_DISABLE_PLUGIN_AUTOLOAD=1), as in the README's .venv.
It prints cases/s, what each piglit row counted (results by status, tests, processes started,
tests fast-skipped without a process, isolation, concurrency, wflinfo, cache state; see
`piglit`), the ratios, the share of wall time spent outside the driver (the executor
children time each case; the rest is harness and pytest), the floor (unique programs x compile
time + cases x draw time, over the cores, with both times probed here), and the peak resident
memory of the whole process tree. Each harness row is profiled (harness/base/profiling.py,
bench/wall_profile.py; `--no-profile` leaves the timers out): where its wall time and CPU went,
per process, measured with timers in every process of the run. `--parallel N` adds a row for
`python -m harness parallel N` (N pytest processes, each every N-th case, merged) and its
scaling over `-n 0` and `-n auto`. Last, one `-n auto` run of every family on all the
--memory-targets together gives the peak memory of a full local run.

`--before REV` measures what a change costs instead: per driver, this working tree and the
tree of commit REV (`git archive`, into a temporary folder; or REV names a folder holding one) run the same families
through each front end (`pytest -n auto`, `pytest` without -n, `harness parallel auto`; `--front-ends`
chooses), alternately, --repeat times each, after one untimed serial run of each; it prints both
rates (the best of the repeats, the least disturbed by the machine's other load) and their
ratio per front end. Nothing else runs.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.sources import catalog  # noqa: E402
from harness.executor.executor import Executor  # noqa: E402
from harness.scheduler import layout  # noqa: E402
from harness.executor.targets import get  # noqa: E402
import wall_profile  # noqa: E402

PIGLIT_TESTS = ("arb_tessellation_shader", "arb_shader_draw_parameters")


class PeakMemory:
    """Samples the summed RSS of a process and all its descendants (from /proc)."""

    def __init__(self, pid: int):
        self.pid, self.peak, self._stop = pid, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _tree(self) -> list[int]:
        children = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    ppid = int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                children.setdefault(ppid, []).append(int(entry))
        out, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            out.append(pid)
            todo += children.get(pid, [])
        return out

    def _run(self):
        while not self._stop.is_set():
            total = 0
            for pid in self._tree():
                try:
                    total += int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{pid}/status").read())[1]) * 1024
                except (OSError, TypeError):
                    pass
            self.peak = max(self.peak, total)
            time.sleep(0.2)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def timed(cmd, env, cwd=ROOT) -> tuple[float, int, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    memory = PeakMemory(proc.pid)
    out, _ = proc.communicate()
    return time.perf_counter() - start, memory.stop(), subprocess.CompletedProcess(cmd, proc.returncode, out)


def piglit(driver: str, batched: bool, warm: bool = True) -> dict | None:
    """One `piglit run` of PIGLIT_TESTS, with what it counted: its rate is only a reference if
    the tests really ran. Without `wflinfo` (Debian's waffle-utils, only a Recommends of piglit)
    piglit reads the GL version as 0.0 and fast-skips every test that names one, starting no
    process: 1815 of the 1863 results were such skips in 6 s, which is where the 194-255/s
    "isolated" figures of 2026-11-23 (bench/results/2026-11-23-performance.md) came from (34.7
    and 36.1/s when the tests ran).
    So without wflinfo the bench turns fast skipping off (PIGLIT_NO_FAST_SKIP=1), and it counts
    the tests that started no process."""
    if not shutil.which("piglit"):
        return None
    env = {**os.environ, **dict(get(driver).env), "PIGLIT_PLATFORM": "surfaceless_egl"}
    wflinfo = shutil.which("wflinfo", path=env.get("PATH"))
    if not wflinfo:
        env["PIGLIT_NO_FAST_SKIP"] = "1"
    results = Path(tempfile.mkdtemp(prefix=f"piglit-{driver}-"))
    cmd = ["piglit", "run", "quick", str(results)] + [a for t in PIGLIT_TESTS for a in ("-t", t)]
    if batched:
        cmd += ["--process-isolation", "false"]
    wall, peak, proc = timed(cmd, env, cwd=results)
    data = _piglit_results(results)
    shutil.rmtree(results)
    totals = {k: v for k, v in data.get("totals", {}).get("root", {}).items() if v and k != "notrun"}
    tests = data.get("tests", {}).values()
    options = data.get("options", {})
    return {"wall": wall, "cases": sum(totals.values()), "peak": peak, "rc": proc.returncode,
            "totals": totals, "tests": len(tests),
            "processes": sum(len(t.get("pid") or ()) for t in tests),
            "fast_skipped": sum(1 for t in tests if t.get("result") == "skip" and not t.get("pid")),
            "command": " ".join(cmd[:3] + ["RESULTS"] + cmd[4:]),
            "isolation": options.get("process_isolation"), "concurrent": options.get("concurrent"),
            "jobs": options.get("jobs") or os.cpu_count(), "platform": options.get("platform"),
            "timeout": options.get("timeout"), "dmesg": options.get("dmesg"),
            "wflinfo": wflinfo or "not found: fast skipping off (PIGLIT_NO_FAST_SKIP=1)",
            "cache": "warm (an untimed batched run of the same tests first)" if warm else "as found (--cold)"}


def _piglit_results(results: Path) -> dict:
    """piglit's results.json (plain or compressed), or {} if the run wrote none. Its root totals
    count subtests (batched runs group shader_runner tests into one entry): both modes alike."""
    for name in ("results.json", "results.json.bz2", "results.json.gz"):
        path = results / name
        if path.exists():
            opener = {"bz2": "bz2", "gz": "gzip"}.get(path.suffix[1:])
            return json.loads(__import__(opener).open(path, "rt").read() if opener else path.read_text())
    return {}


def piglit_counted(r: dict) -> str:
    """What a piglit row counted, so that a reader can check its rate."""
    totals = ", ".join(f"{n} {k}" for k, n in sorted(r["totals"].items(), key=lambda x: -x[1]))
    line = (f"{r['cases']} results ({totals}) from {r['tests']} tests, {r['processes']} processes started, "
            f"{r['fast_skipped']} tests fast-skipped (no process); `{r['command']}`; process isolation "
            f"{r['isolation']}, concurrency {r['concurrent']} x {r['jobs']} jobs, platform {r['platform']}, "
            f"timeout {r['timeout']}, dmesg {r['dmesg']}; wflinfo {r['wflinfo']}; shader cache {r['cache']}; "
            f"wall {r['wall']:.1f} s")
    if r["fast_skipped"] > r["tests"] // 10:
        line += "\n  WARNING: most tests were fast-skipped without running: this rate is no reference"
    return line


def ours(drivers: str, families: list[str], workers: str, keep: Path | None = None, profile: bool = False,
         tree: Path = ROOT, batch: int = 0) -> dict:
    """One harness run; `workers` is pytest's -n, "parallel:N" for `python -m harness parallel N`, or
    "plain" for pytest without -n; `batch` > 1: batched, --batch K (harness/executor/batch.py).
    "0" is the serial baseline, one process and one executor child, in `tree`'s own words."""
    label = f"{drivers.replace(',', '-')}-n{workers.replace(':', '')}" + (f"-batch{batch}" if batch > 1 else "")
    out_dir = keep / label if keep else Path(tempfile.mkdtemp(prefix=f"harness-{label}-"))
    # Only the plugins the harness declares, as in the README's .venv: the GPU machine's Python
    # also loads hypothesis's, whose terminal summary imports hypothesis, 1.3-2.1 s at the end of
    # every xdist worker and of the controller (cProfile on the H100).
    env = {**os.environ, "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", tempfile.gettempdir()),
           "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    parallel = workers.startswith("parallel:")
    cmd = [sys.executable, "-m", "harness", "parallel", workers.split(":")[1]] if parallel else \
        [sys.executable, "-m", "pytest", "-q"]
    cmd += ["-p", "no:cacheprovider", "--results-dir", str(out_dir)]
    cmd += [a for d in drivers.split(",") for a in ("--target", d)] + [f"tests/{f}" for f in families]
    serial = ["-p", "no:xdist", "--in-process", "--jobs", "1"] if (tree / "harness" / "scheduler").is_dir() \
        else ["-p", "no:xdist", "--children", "1"]          # a tree from before the scheduler
    if not parallel:
        cmd += serial if workers == "0" else ["-p", "xdist.plugin"] + (["-n", workers] if workers != "plain" else [])
    if batch > 1:
        cmd += ["--batch", str(batch)]
    if profile:                      # timers in every process of the run (harness/base/profiling.py)
        env["HARNESS_PROFILE"] = tempfile.mkdtemp(prefix=f"profile-{label}-")
        cmd += ["-p", "harness.base.profiling"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, peak, proc = timed(cmd, env, cwd=tree)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    path = out_dir / "results.json"
    entries = json.loads(path.read_text())["results"] if path.exists() else []    # a usage error: none
    in_driver = sum(e["duration"] for e in entries)          # time the children spent running cases
    statuses = Counter(e["status"] for e in entries)
    finished = sorted(e.get("finished", 0.0) for e in entries)
    lines = wall_profile.report(Path(env["HARNESS_PROFILE"]), wall, len(entries), os.cpu_count() or 1, cpu,
                                f" of harness -n {workers}" + (f" --batch {batch}" if batch > 1 else "")) \
        if profile else []
    if not keep:
        shutil.rmtree(out_dir)          # the profile's folder stays: its report names it
    return {"wall": wall, "cases": len(entries), "peak": peak, "in_driver": in_driver, "rc": proc.returncode,
            "cpu": cpu, "profile": lines,
            "statuses": statuses, "tail": proc.stdout[-2000:],
            "verdicts": {(e["id"], e["target"]): e["status"] for e in entries},
            "first": finished[0] if finished else 0.0, "last": finished[-1] if finished else 0.0}


def probe_floor(driver: str, families: list[str]) -> dict:
    """Compile time and draw time on this driver, and how many distinct programs the run has."""
    cases = [c for f in families for c in catalog.cases(f)]
    programs = {(c.requires.profile, c.shaders) for c in cases}
    sample = [c for c in cases if not c.readback.image][:: max(1, len(cases) // 20)][:20]
    executor = Executor(get(driver))
    try:
        executor.info()
        first = second = 0.0
        for case in sample:
            first += executor.run(case).duration          # compile, link, draw
            second += executor.run(case).duration         # the program is cached: draw only
    finally:
        executor.close()
    draw = second / len(sample)
    compile_ = max(0.0, (first - second) / len(sample))
    return {"programs": len(programs), "cases": len(cases), "compile": compile_, "draw": draw}


FRONT_ENDS = {"pytest -n auto": "auto", "pytest": "plain", "parallel auto": "parallel:auto"}


def before_after(rev: str, drivers: list[str], families: list[str], repeat: int,
                 front_ends: tuple[str, ...] = tuple(FRONT_ENDS)) -> int:
    """Cases/s of this tree against commit `rev`'s (or the tree in folder `rev`), alternating
    runs on the same load."""
    if Path(rev).is_dir():
        old, rev_name = Path(rev), "a folder"
    else:
        old = Path(tempfile.mkdtemp(prefix="bench-before-"))
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True)
        if archive.returncode:
            print(f"bench: git archive {rev}: {archive.stderr.decode().strip()}", file=sys.stderr)
            return 2
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        rev_name = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True,
                                  text=True).stdout.strip()
    print(f"bench: {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, families {families}, "
          f"this tree against {rev} ({rev_name}), {', '.join(front_ends)}, best of {repeat}; load average "
          f"{os.getloadavg()[0]:.2f} at the start")
    for driver in drivers:
        for tree in (old, ROOT):                               # untimed: warm shader caches for both
            ours(driver, families, "0", tree=tree)
        for front in front_ends:
            rates: dict[str, list] = {"before": [], "after": []}
            for _ in range(repeat):
                for name, tree in (("before", old), ("after", ROOT)):
                    r = ours(driver, families, FRONT_ENDS[front], tree=tree)
                    rates[name].append((r["cases"] / r["wall"] if r["wall"] else 0.0, r))
            best = {name: max(runs, key=lambda x: x[0]) for name, runs in rates.items()}
            for name in ("before", "after"):
                rate, r = best[name]
                print(f"{driver:9} {front:14} {name:6} {r['cases']:5} cases {r['wall']:6.1f} s {rate:6.1f} cases/s "
                      f"(all runs: {', '.join(f'{x:.1f}' for x, _ in rates[name])}); first verdict "
                      f"{', '.join(format(x['first'], '.2f') for _, x in rates[name])} s; verdicts: "
                      + ", ".join(f"{n} {k}" for k, n in sorted(r["statuses"].items())))
            # CPU per case (the whole process tree's) is steadier than the rate on a loaded machine
            cpu = {name: sum(r["cpu"] for _, r in runs) / max(1, sum(r["cases"] for _, r in runs)) * 1e3
                   for name, runs in rates.items()}
            print(f"{driver:9} {front:14} after / before: {best['after'][0] / best['before'][0]:.3f}; CPU per case "
                  f"{cpu['before']:.2f} ms before, {cpu['after']:.2f} ms after (mean of all runs): "
                  f"{cpu['after'] / max(cpu['before'], 1e-9):.3f}; load average now {os.getloadavg()[0]:.2f}")
    if old != Path(rev):
        shutil.rmtree(old)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drivers", default="llvmpipe,zink")
    parser.add_argument("--families", default="tess,draw_params")
    parser.add_argument("--no-piglit", action="store_true")
    parser.add_argument("--piglit-only", action="store_true",
                        help="only the piglit rows (isolated, batched) and what each counted")
    parser.add_argument("--memory-targets", default="llvmpipe,zink,lavapipe",
                        help="targets of the closing whole-suite run ('' to skip it)")
    parser.add_argument("--cold", action="store_true",
                        help="no untimed warm-up runs (by default each driver's shader disk cache is "
                             "warmed first, for piglit and the harness alike, as repeated CI runs find it)")
    parser.add_argument("--no-profile", action="store_true",
                        help="time the harness rows without the per-process timers (no profile printed)")
    parser.add_argument("--results", type=Path, default=None, metavar="DIR",
                        help="keep each harness run's results folder under DIR (default: temporary)")
    parser.add_argument("--before", metavar="REV", default=None,
                        help="only compare this tree's rate with commit REV's, or a folder's (see above)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each tree with --before")
    parser.add_argument("--front-ends", default=",".join(FRONT_ENDS),
                        help=f"with --before, the front ends timed, of: {', '.join(FRONT_ENDS)}")
    parser.add_argument("--batch-workers", default="auto", metavar="N",
                        help="pytest -n of the batched row (default auto, as the -n auto row)")
    parser.add_argument("--batch", type=int, default=64, metavar="K",
                        help="also time a batched -n auto row (--batch K; 0: none), and compare its verdicts")
    parser.add_argument("--parallel", metavar="N", default=None,
                        help="also time `python -m harness parallel N` (N or auto), unprofiled")
    args = parser.parse_args()
    families = args.families.split(",")
    if args.before:
        return before_after(args.before, args.drivers.split(","), families, args.repeat,
                            tuple(args.front_ends.split(",")))
    cores = os.cpu_count() or 1
    print(f"bench: {time.strftime('%Y-%m-%d %H:%M')}, {cores} cores, families {families}")
    for driver in args.drivers.split(","):
        print(f"\n== {driver}")
        rows = {}
        if not args.cold:                   # untimed: the drivers' shader caches, warm for every row
            if not args.piglit_only:
                ours(driver, families, "0")
            if not args.no_piglit:
                piglit(driver, batched=True, warm=False)
        if not args.no_piglit:
            for batched in (False, True):
                result = piglit(driver, batched, warm=not args.cold)
                if result is None:
                    print("piglit: not installed (Debian package piglit); piglit columns skipped")
                    break
                rows["piglit batched" if batched else "piglit isolated"] = result
        if args.piglit_only:
            for name, r in rows.items():
                print(f"{name:16} {r['cases']:6} results {r['wall']:8.1f} s {r['cases'] / r['wall']:8.1f} results/s; "
                      f"counted: {piglit_counted(r)}")
            continue
        rows["harness -n auto"] = ours(driver, families, "auto", args.results, not args.no_profile)
        rows["harness -n 0"] = ours(driver, families, "0", args.results, not args.no_profile)
        if args.batch > 1:
            rows["batched -n auto"] = ours(driver, families, args.batch_workers, args.results, not args.no_profile,
                                           batch=args.batch)
        if args.parallel:
            rows[f"parallel {args.parallel}"] = ours(driver, families, f"parallel:{args.parallel}", args.results)
        for name, r in rows.items():
            rate = r["cases"] / r["wall"] if r["wall"] else 0
            print(f"{name:16} {r['cases']:6} cases {r['wall']:8.1f} s {rate:8.1f} cases/s "
                  f"peak RSS {r['peak'] / 2**20:7.0f} MiB" + ("" if r["rc"] in (0, 1) else f"  (exit {r['rc']})"))
            if "totals" in r:
                print(f"{'':16} counted: {piglit_counted(r)}")
            if "statuses" in r:
                print(f"{'':16} verdicts: " + ", ".join(f"{n} {k}" for k, n in sorted(r["statuses"].items())))
                steady = (r["cases"] - 1) / (r["last"] - r["first"]) if r["last"] > r["first"] else 0
                print(f"{'':16} first verdict {r['first']:.1f} s into the session, last {r['last']:.1f} s: "
                      f"{steady:.1f} cases/s between them")
                if r["rc"] not in (0, 1) or not r["cases"]:
                    print(r["tail"])
        for name in ("harness -n auto", "harness -n 0", "batched -n auto"):
            if name in rows:
                print("\n".join(rows[name]["profile"]))
        auto = rows["harness -n auto"]
        if not auto["cases"] or not rows["harness -n 0"]["cases"]:
            print(f"{driver}: no results; see the output above")
            continue
        rate = auto["cases"] / auto["wall"]
        for name in ("piglit isolated", "piglit batched"):
            if name in rows and rows[name]["cases"]:
                print(f"ratio harness -n auto / {name}: {rate / (rows[name]['cases'] / rows[name]['wall']):.2f}x")
        serial = rows["harness -n 0"]
        print(f"scaling -n auto / -n 0: {serial['wall'] / auto['wall']:.2f}x")
        batched = rows.get("batched -n auto")
        if batched and batched["cases"]:
            for name in ("harness -n auto", "piglit batched"):
                if name in rows and rows[name]["cases"]:
                    print(f"ratio batched -n auto (--batch {args.batch}) / {name}: "
                          f"{batched['cases'] / batched['wall'] / (rows[name]['cases'] / rows[name]['wall']):.2f}x")
            alone, together = auto["verdicts"], batched["verdicts"]
            order = sorted(k for k, v in together.items() if v == "order-dependent")
            differ = sorted(k for k in alone.keys() & together.keys() if alone[k] != together[k] and k not in order)
            print(f"batched vs a context per case: {len(alone.keys() & together.keys()) - len(differ) - len(order)} "
                  f"verdicts agree, {len(order)} order-dependent, {len(differ)} differ"
                  + "".join(f"\n  {k[0]}[{k[1]}]: {alone[k]} alone, {together[k]} batched" for k in differ[:20])
                  + "".join(f"\n  order-dependent: {k[0]}[{k[1]}]" for k in order[:20]))
        if args.parallel and rows[f"parallel {args.parallel}"]["cases"]:
            par = rows[f"parallel {args.parallel}"]
            print(f"scaling parallel {args.parallel} / -n 0: {serial['wall'] / par['wall']:.2f}x; "
                  f"parallel {args.parallel} / -n auto: {auto['wall'] / par['wall']:.2f}x")
        plan = layout.choose(layout.AUTO, cores)
        children = max(1, min(plan.slots, auto["cases"]))
        outside = max(0.0, 1 - auto["in_driver"] / (auto["wall"] * children))
        print(f"share of wall time outside the executors' case runs (-n auto: {plan.describe()}): {outside:.0%}")
        floor = probe_floor(driver, families)
        floor_s = (floor["programs"] * floor["compile"] + floor["cases"] * floor["draw"]) / cores
        print(f"floor: {floor['programs']} programs x {floor['compile'] * 1e3:.1f} ms + {floor['cases']} cases x "
              f"{floor['draw'] * 1e3:.2f} ms, over {cores} cores = {floor_s:.1f} s; wall / floor = "
              f"{auto['wall'] / floor_s:.2f}")
    if args.memory_targets and not args.piglit_only:
        whole = ours(args.memory_targets, list(catalog.FAMILIES), "auto", args.results)
        print(f"\n== every family on {args.memory_targets}, -n auto: {whole['cases']} cases in {whole['wall']:.1f} s "
              f"({whole['cases'] / whole['wall']:.1f} cases/s), peak RSS of the process tree "
              f"{whole['peak'] / 2**30:.2f} GiB" + ("" if whole["rc"] in (0, 1) else f"  (exit {whole['rc']})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
