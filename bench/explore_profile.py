#!/usr/bin/env python3
"""Where one exploration's time per judged case goes, with the timers of harness/base/profiling.py in
the exploring process (the sections below, wrapped here) and in the target's children.

    .venv/bin/python bench/explore_profile.py PROFILE_DIR -- EXPLORE_ARGS...
    e.g. .venv/bin/python bench/explore_profile.py /tmp/xp -- --family tess --family draw_params \\
             --family varyings --seed 11 --budget 150 --target llvmpipe --no-reduce --results-dir /tmp/x

The command is `python -m harness explore EXPLORE_ARGS`, run in this process with these
sections timed (wall and process CPU; inclusive, the report subtracts the nested ones):

- explore: search.explore, per family (Hypothesis's generation loop and all below);
- build: search.build (the family's builder: the Case, its GLSL and its expectations);
- send: Ledger.send (queue the case in the child: pickle, pipe);
- ledger.judge: Ledger.judge (the run core's run_case, then the journal line), of which
  executor.run (waiting for the child's reply and reading it), judge (verdict.judge),
  confirm (a batched failure confirmed alone, an audited pass: the alone child's run and its
  judging), journal (the journal line, flushed);
- show: the sample's bookkeeping in explore_family (findings.json written on a new failure).

Hypothesis's generation is `explore` less everything inside it. The children write their own
timers (HARNESS_PROFILE): compile+link, draw+readback, the context, IPC. It prints a table in
ms per judged case (cases judged: findings.json's cases_run less skips).
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    folder = Path(sys.argv[1]).resolve()
    args = sys.argv[sys.argv.index("--") + 1:]
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    os.environ["HARNESS_PROFILE"] = str(folder)          # the children's timers (ChildOptions.profile)

    from harness.base import profiling
    from harness.cli import explore as cli
    from harness.explore import findings as findings_mod, ledger, search
    from harness.run import core, journal

    timers = profiling.start("explore", str(folder))
    search.explore = profiling.timed("explore")(search.explore)
    search.build = profiling.timed("build")(search.build)
    ledger.Ledger.send = profiling.timed("send")(ledger.Ledger.send)
    ledger.Ledger.judge = profiling.timed("ledger.judge")(ledger.Ledger.judge)
    journal.Journal.append = profiling.timed("journal")(journal.Journal.append)
    core.confirm = profiling.timed("confirm")(core.confirm)
    findings_mod.write = profiling.timed("findings.write")(findings_mod.write)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    rc = cli.explore_main(args)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    timers.write()
    results = Path(args[args.index("--results-dir") + 1])
    judged = sum(d["cases_run"] - d["statuses"].get("skip", 0)
                 for d in (json.loads(p.read_text()) for p in results.rglob("findings.json")))
    drawn = sum(json.loads(p.read_text())["cases_run"] for p in results.rglob("findings.json"))
    print(report(folder, judged, drawn, wall, cpu))
    return rc


def report(folder: Path, judged: int, drawn: int, wall: float, cpu: float) -> str:
    procs = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    main = next(p for p in procs if p["role"] == "explore")["sections"]

    def s(name, field):
        return main.get(name, [0, 0.0, 0.0])[field]

    per = 1e3 / max(1, judged)
    rows = []
    for field, what in ((1, "wall"), (2, "CPU")):
        explore, build, send, lj = s("explore", field), s("build", field), s("send", field), s("ledger.judge", field)
        run, judge, confirm, jr = s("executor.run", field), s("judge", field), s("confirm", field), s("journal", field)
        # confirm's own judging of the alone run is inside both `confirm` and `judge`
        rows.append((what, [
            ("Hypothesis generation (explore less all below)", explore - build - send - lj - s("findings.write", field)),
            ("build: the family's builder (Case, GLSL, expectations)", build),
            ("send: queue the case in the child (pickle, pipe)", send),
            ("executor.run: waiting for the child's reply, reading it", run),
            ("judge: verdict.judge (batched verdicts)", judge),
            ("confirm: failures confirmed alone, audited passes (alone child)", confirm),
            ("journal: the journal line", jr),
            ("rest of run_case and Ledger.judge (Record, facts, policy)", lj - run - judge - confirm - jr),
            ("findings.json writes", s("findings.write", field)),
        ], explore))
    out = [f"exploration: {judged} cases judged ({drawn} drawn, skips included); command {wall:.1f} s wall, "
           f"{cpu:.1f} s CPU in the exploring process: {wall * per:.2f} ms wall, {cpu * per:.2f} ms CPU a judged "
           f"case; {60 * judged / wall:.0f} judged a minute"]
    for what, items, explore in rows:
        out.append(f"  exploring process, {what} (ms per judged case; explore in all {explore * per:.2f}):")
        out += [f"    {name:66} {value * per:7.2f}" for name, value in items]
    children = [p for p in procs if p["role"] == "child"]
    if children:
        sec: dict[str, list] = {}
        for p in children:
            for name, (n, w, c) in p["sections"].items():
                e = sec.setdefault(name, [0, 0.0, 0.0])
                e[0] += n
                e[1] += w
                e[2] += c
        total = sum(p["cpu"] for p in children)
        out.append(f"  children ({len(children)}): CPU {total * per:.2f} ms per judged case; sections (count, "
                   f"CPU ms per judged case): " + ", ".join(f"{k} {v[0]} {v[2] * per:.2f}" for k, v in
                                                             sorted(sec.items(), key=lambda x: -x[1][2])))
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
