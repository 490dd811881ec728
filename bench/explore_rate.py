#!/usr/bin/env python3
"""Exploration's rate (cases judged a minute) of this tree and of another, interleaved rounds:

    .venv/bin/python bench/explore_rate.py BEFORE_TREE [ROUNDS]

BEFORE_TREE: a folder holding another commit's tree (`git archive REV | tar -x -C DIR`). Each
round runs, in turn, BEFORE_TREE's exploration, this tree's (batched, its default) and this
tree's with --batch 1, on llvmpipe of the pinned Mesa, and prints the rate while exploring
(findings.json's explore_seconds), over the whole command, and the command's CPU (the process
tree's, as resource.RUSAGE_CHILDREN counts it).
"""
import json, pathlib, resource, subprocess, sys, time
ROOT = pathlib.Path(__file__).resolve().parents[1]
M = str(ROOT / "mesa" / "22.3.6-1+deb12u2")
PY = sys.executable
ARGS = ["-m", "harness", "explore", "--family", "tess", "--family", "draw_params", "--family", "varyings",
        "--seed", "11", "--budget", "150", "--target", "llvmpipe", "--mesa", M, "--no-reduce"]
VARIANTS = {"before": (sys.argv[1], []), "after": (str(ROOT), []), "after-batch1": (str(ROOT), ["--batch", "1"])}
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
for r in range(rounds):
    for name, (cwd, extra) in VARIANTS.items():
        out = f"/tmp/explore-rate-{name}-{r}"
        subprocess.run(["rm", "-rf", out])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.monotonic()
        subprocess.run([PY, *ARGS, "--results-dir", out, *extra], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.monotonic() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        judged = explore_s = 0
        for f in pathlib.Path(out).glob("*/findings.json"):
            d = json.loads(f.read_text())
            judged += d["cases_run"] - d["statuses"].get("skip", 0)
            explore_s += d["explore_seconds"]
        load = open("/proc/loadavg").read().split()[0]
        print(f"{name:13} round {r + 1}: {judged} judged; exploring {explore_s:5.1f} s = {60 * judged / explore_s:5.0f}/min; "
              f"command {wall:5.1f} s wall = {60 * judged / wall:5.0f}/min, {cpu:5.1f} s CPU = "
              f"{1000 * cpu / judged:5.1f} ms CPU a case; load {load}", flush=True)
