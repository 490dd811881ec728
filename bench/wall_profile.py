"""Where a harness run's wall time goes, from the timers harness/base/profiling.py writes.

bench/bench.py runs pytest with `HARNESS_PROFILE=DIR -p harness.base.profiling`; every process of the
run (pytest or xdist's controller, xdist workers, executor children and their spawners) writes
its timers to DIR, and `report` turns them into a table: a timeline from the controller's clock,
and the CPU of every process split by what it was doing, in seconds, ms per case and share of
the run's CPU.

    .venv/bin/python bench/wall_profile.py DIR [--wall S --cases N --cpu S]

CPU times are process CPU (all threads of the process, so llvmpipe's rasterizer threads count as
the child's draw time); sections are timed by wrapping functions and pytest hooks, and the
nested ones are subtracted from the section around them. Wall time on a shared machine includes
time waiting for a core; CPU time does not, which is why the table is in CPU.
"""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path


def load(folder: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(Path(folder).glob("*.json"))]


def _sum(procs, name, field=2) -> float:
    """CPU (field 2) or wall (field 1) seconds of a section, summed over processes."""
    return sum(p["sections"].get(name, [0, 0.0, 0.0])[field] for p in procs)


def _count(procs, name) -> int:
    return sum(p["sections"].get(name, [0, 0, 0])[0] for p in procs)


def _cpu_at(proc, event) -> float:
    return proc["events"].get(event, [0, 0.0])[1]


def _pytest_rows(procs, xdist: bool) -> list[tuple[str, float]]:
    """The pytest processes that run items: xdist workers, or the only process of -n 0."""
    cpu = sum(p["cpu"] for p in procs)
    start = sum(_cpu_at(p, "sessionstart") for p in procs)
    collection = _sum(procs, "collection")
    item = _sum(procs, "item")
    call = _sum(procs, "call")
    logreport = _sum(procs, "logreport")
    close = _sum(procs, "executor.close")           # in teardown, after a target's last case
    judge = _sum(procs, "judge")
    ipc = _sum(procs, "executor.send") + _sum(procs, "executor.run")
    finish = _sum(procs, "sessionfinish")
    rows = [
        ("start-up: interpreter, imports, configure" + ("" if xdist else ", target probe"), start),
        ("collection: every family's Cases x targets -> items", collection),
        ("pytest per item: runtest protocol, hooks, reports (not below)", item - call - logreport - close),
        (("xdist: serialize and send each report" if xdist else
          "per report: JUnit, terminal, results.json (logreport hooks)"), logreport),
        ("harness: judging (verdict.judge)", judge),
        ("harness: IPC, case pickle, reply JSON, pipe (executor.send/run)", ipc),
        ("harness: rest of runtest (properties, baseline, triage files)", call - judge - ipc),
        ("closing children, sessionfinish" + ("" if xdist else ": JUnit and results files"), close + finish),
    ]
    rows.append(("other (execnet threads, pytest outside items)" if xdist else "other (terminal summary, exit)",
                 cpu - sum(v for _, v in rows)))
    return rows


def _child_rows(procs) -> list[tuple[str, float]]:
    cpu = sum(p["cpu"] for p in procs)
    start = sum(_cpu_at(p, "backend ready") for p in procs)
    run = _sum(procs, "backend.run")
    parts = {name: _sum(procs, name) for name in ("compile+link", "draw+readback", "vertex data", "case context",
                                                  "framebuffer")}
    framing = _sum(procs, "pickle.loads") + _sum(procs, "json.loads") + _sum(procs, "pipe.send")
    rows = [
        ("start-up: interpreter, PyOpenGL, contexts", start),
        ("driver: compile + link (cache misses)", parts["compile+link"]),
        ("driver: draw + readback (transform feedback, queries)", parts["draw+readback"]),
        ("driver: the case's own context (made, destroyed), framebuffer", parts["case context"] + parts["framebuffer"]),
        ("vertex data (buffers, attributes)", parts["vertex data"]),
        ("rest of backend.run (requirements, objects deleted, uniforms)", run - sum(parts.values())),
        ("IPC: request pickle -> Case, reply JSON, pipe", framing),
    ]
    rows.append(("other (info, request thread, exit)", cpu - sum(v for _, v in rows)))
    return rows


def report(folder: Path, wall: float, cases: int, cores: int, run_cpu: float | None = None,
           title: str = "") -> list[str]:
    procs = load(folder)
    mains = [p for p in procs if p["role"] == "main"]
    if not mains:
        return [f"profile: no timers in {folder}"]
    main = mains[0]
    workers = [p for p in procs if p["role"] == "worker"]
    children = [p for p in procs if p["role"] == "child" and "backend.run" in p["sections"]]
    probes = [p for p in procs if p["role"] == "child" and "backend.run" not in p["sections"]]
    xdist = bool(workers)
    measured = sum(p["cpu"] for p in procs)
    total = run_cpu if run_cpu else measured
    per = 1e3 / max(cases, 1)
    lines = [f"profile{title}: wall {wall:.1f} s, {cases} cases; CPU of the run {total:.1f} s of "
             f"{cores * wall:.1f} core-s ({cores} cores x wall), {total * per:.2f} ms of CPU per case (timers in {folder})"]

    # timeline, controller's clock
    t0 = main["started"]
    ev = main["events"]
    points = [("start-up, configure" + (", target probe" if True else ""), ev.get("sessionstart"))]
    if xdist:
        points += [("workers started and collected (all)", ev.get("every worker collected"))]
    else:
        points += [("collection", ev.get("collected"))]
    points += [("to the first verdict", ev.get("first verdict")), ("cases, to the last verdict", ev.get("last verdict")),
               (("workers' ends, " if xdist else "closing children, ") + "JUnit/results (sessionfinish)",
                ev.get("sessionfinished")),
               ("terminal summary, other plugins' ends", ev.get("unconfigure")),
               ("unconfigure, exit", [main["ended"], 0])]
    parts, last = [], t0
    for name, at in points:
        if at:
            parts.append(f"{name} {at[0] - last:.1f} s")
            last = at[0]
    lines.append("  timeline: " + "; ".join(parts))
    if xdist:
        first = min((w["events"].get("first item", [0])[0] for w in workers), default=0)
        lines.append(f"  workers: first started {min(w['started'] for w in workers) - t0:.1f} s in, first item "
                     f"{first - t0:.1f} s in; a worker's start-up+collection takes "
                     f"{sum(w['events'].get('collected', [w['started']])[0] - w['started'] for w in workers) / len(workers):.1f} s wall")

    lines.append(f"  {'process':26} {'what':62} {'CPU s':>7} {'ms/case':>8} {'share':>6}")

    def block(label, rows):
        for i, (name, value) in enumerate(rows):
            lines.append(f"  {label if i == 0 else '':26} {name:62} {value:7.2f} {value * per:8.3f} "
                         f"{value / total:6.1%}")

    if xdist:
        reports = _count([main], "logreport")
        block("xdist controller", [
            ("start-up: interpreter, imports, configure, target probe", _cpu_at(main, "sessionstart")),
            (f"per report ({reports}): unserialize", _sum([main], "report.unserialize")),
            ("per report: JUnit, terminal, results.json (logreport hooks)", _sum([main], "logreport")),
            ("writing JUnit and results.json (sessionfinish)", _sum([main], "sessionfinish")),
            ("xdist loop, execnet threads, terminal summary, exit",
             main["cpu"] - _cpu_at(main, "sessionstart") - _sum([main], "report.unserialize")
             - _sum([main], "logreport") - _sum([main], "sessionfinish")),
        ])
        block(f"xdist workers ({len(workers)})", _pytest_rows(workers, True))
    else:
        block("pytest (-n 0)", _pytest_rows([main], False))
    block(f"executor children ({len(children)})", _child_rows(children))
    spawners = [p for p in procs if p["role"] == "spawner"]
    if spawners:
        imports = sum(_cpu_at(p, "preloaded") for p in spawners)
        block(f"spawners ({len(spawners)})", [
            ("start-up: interpreter, the children's imports (once each)", imports),
            ("forking the children, reaping them", sum(p["cpu"] for p in spawners) - imports)])
    if probes:
        block(f"target probe children ({len(probes)})", [("start a child, make contexts, report facts",
                                                            sum(p["cpu"] for p in probes))])
    if run_cpu:
        block("not in any timer file", [("git describe, short-lived processes, process exits", run_cpu - measured)])

    # waits: the pipelining view
    runners = workers or [main]
    waited = _sum(runners, "pipe.recv", 1) - _sum(runners, "pipe.recv")
    idle = sum(c["ended"] - c["started"] for c in children) - sum(c["cpu"] for c in children)
    lines.append(f"  waits: the pytest process(es) blocked on a child's reply {waited:.1f} s wall in all "
                 f"({waited * per:.2f} ms/case); children not on a CPU {idle:.1f} s in all; "
                 f"idle cores or other load: {max(0.0, cores * wall - total):.1f} core-s")
    driver = sum(v for name, v in _child_rows(children) if name.startswith("driver"))
    links = _count(children, "compile+link")
    lines.append(f"  driver (in the child: compile+link, draw+readback, the case's context) {driver:.1f} CPU s = {driver / total:.0%} of "
                 f"the run's CPU; everything else {1 - driver / total:.0%}; {links} links at "
                 f"{_sum(children, 'compile+link') / max(links, 1) * 1e3:.2f} ms CPU "
                 f"({_sum(children, 'compile+link', 1) / max(links, 1) * 1e3:.2f} ms wall); measured floor "
                 f"(driver CPU over {cores} cores) {driver / cores:.1f} s, wall / that {wall / max(driver / cores, 1e-9):.1f}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--wall", type=float, default=0.0)
    parser.add_argument("--cases", type=int, default=0)
    parser.add_argument("--cpu", type=float, default=None, help="CPU of the whole process tree")
    args = parser.parse_args()
    procs = load(args.folder)
    main_ = next(p for p in procs if p["role"] == "main")
    wall = args.wall or main_["ended"] - main_["started"]
    cases = args.cases or max(_count([main_], "logreport") // 3, 1)
    print("\n".join(report(args.folder, wall, cases, os.cpu_count() or 1, args.cpu)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
