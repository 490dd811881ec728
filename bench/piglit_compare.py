#!/usr/bin/env python3
"""piglit's own .shader_test files through the harness and through piglit's shader_runner.

    .venv/bin/python bench/piglit_compare.py [--piglit DIR] [--drivers llvmpipe,zink] [--vk lavapipe]
                                             [--out DIR] [-n 2]

Needs Debian's piglit package (2 GB, so not in CI). The selection: the
arb_tessellation_shader/execution tests without a TCS, and the legacy-varying tests (glsl-1.10,
glsl-1.20 and glsl-1.50 files whose text uses gl_FrontColor, gl_TexCoord, gl_FogFragCoord or
gl_ClipVertex). The harness runs them with `pytest --shader-tests` on the GL drivers and on the
Vulkan targets (the harness's own GL-on-Vulkan layer); shader_runner runs them on the GL drivers
(`-auto -fbo`, surfaceless EGL). Per GL driver it prints: files imported (the importer did not
skip them), ran (the harness reached pass or fail), and same verdict as shader_runner; then
every disagreement; and the verdict counts on the Vulkan targets.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.importers import shader_test  # noqa: E402
from harness.targets import get  # noqa: E402

PIGLIT = Path("/usr/lib/x86_64-linux-gnu/piglit")
LEGACY = re.compile(r"\bgl_(FrontColor|TexCoord|FogFragCoord|ClipVertex)\b")


def select(spec: Path) -> list[Path]:
    tess = [p for p in sorted((spec / "arb_tessellation_shader" / "execution").rglob("*.shader_test"))
            if "[tessellation control shader]" not in p.read_text(errors="replace")]
    legacy = [p for version in ("glsl-1.10", "glsl-1.20", "glsl-1.50")
              for p in sorted((spec / version).rglob("*.shader_test"))
              if LEGACY.search(p.read_text(errors="replace"))]
    return tess + legacy


def shader_runner(piglit: Path, path: Path, driver: str) -> tuple[str, str]:
    env = {**os.environ, **dict(get(driver).env), "PIGLIT_PLATFORM": "surfaceless_egl"}
    try:
        proc = subprocess.run([str(piglit / "bin" / "shader_runner"), str(path), "-auto", "-fbo"], env=env,
                              capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout", "no result after 120 s"
    out = proc.stdout + proc.stderr
    found = re.search(r"""["']result["']\s*:\s*["'](\w+)["']""", out)
    status = found[1] if found else ("crash" if proc.returncode < 0 else "fail")
    return status, " | ".join(line for line in out.splitlines()[-6:] if line.strip())[:400]


def first_line(message: str) -> str:
    """The line that says what went wrong (a failure's first line only repeats the case id)."""
    lines = [line for line in message.splitlines() if line.strip()]
    return (lines[1] if len(lines) > 1 and " on " in lines[0] else lines[0]) if lines else ""


def harness_run(files: list[Path], targets: list[str], out: Path, workers: str) -> dict:
    """pytest --shader-tests on the targets; {(case id, target): entry of results.json}."""
    command = [sys.executable, "-m", "pytest", "-p", "harness.plugin", "-q", "-n", workers, "--results-dir",
               str(out)] + [f"--target={t}" for t in targets]
    command += [f"--shader-tests={f}" for f in files]
    subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    entries = json.loads((out / "results.json").read_text())["results"]
    return {(e["id"], e["target"]): e for e in entries}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--piglit", type=Path, default=PIGLIT)
    parser.add_argument("--drivers", default="llvmpipe,zink")
    parser.add_argument("--vk", default="lavapipe", help="Vulkan targets to run the files on ('' for none)")
    parser.add_argument("--out", type=Path, default=None, help="keep the harness's results here")
    parser.add_argument("-n", default="2", help="pytest-xdist workers for the harness run")
    parser.add_argument("--json", type=Path, default=None, help="write every verdict here")
    args = parser.parse_args()
    spec = args.piglit / "tests" / "spec"
    if not (args.piglit / "bin" / "shader_runner").exists():
        print(f"{args.piglit}/bin/shader_runner not found: install Debian's piglit")
        return 2
    files = select(spec)
    ids = {f: shader_test.case_id(f) for f in files}
    imported = {f for f in files if not shader_test.load(f).requires.unsupported}
    drivers = [d for d in args.drivers.split(",") if d]
    vk = [t for t in args.vk.split(",") if t]
    out = args.out or Path(tempfile.mkdtemp(prefix="piglit-compare-"))
    print(f"{len(files)} files selected, {len(imported)} imported; harness results in {out}", flush=True)
    harness = harness_run(files, drivers + vk, out, args.n)

    jobs = [(f, d) for d in drivers for f in files]
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(args.n) if args.n.isdigit() else 2) as pool:
        piglit = dict(zip(jobs, pool.map(lambda job: shader_runner(args.piglit, *job), jobs)))

    record = []
    for driver in drivers:
        ran = same = 0
        differ = []
        for f in files:
            entry = harness.get((ids[f], driver), {"status": "missing", "message": "no result"})
            ours, (theirs, log) = entry["status"], piglit[(f, driver)]
            ran += ours in ("pass", "fail")
            if ours == theirs:
                same += 1
            else:
                differ.append((f, ours, entry["message"], theirs, log))
            record.append({"file": str(f.relative_to(spec)), "id": ids[f], "target": driver, "harness": ours,
                           "shader_runner": theirs, "message": entry["message"], "log": log})
        print(f"\n{driver}: {len(files)} files, {len(imported)} imported, {ran} ran, "
              f"{same} same verdict as shader_runner, {len(differ)} differ")
        for f, ours, message, theirs, log in differ:
            first = first_line(message)
            print(f"  {f.relative_to(spec)}: harness {ours} ({first[:200]}); shader_runner {theirs} ({log[:200]})")
    for target in vk:
        counts = collections.Counter(harness.get((ids[f], target), {"status": "missing"})["status"] for f in files)
        print(f"\n{target}: " + ", ".join(f"{n} {status}" for status, n in counts.most_common()))
        for f in files:
            entry = harness.get((ids[f], target), {"status": "missing", "message": ""})
            record.append({"file": str(f.relative_to(spec)), "id": ids[f], "target": target,
                           "harness": entry["status"], "message": entry["message"]})
            if entry["status"] not in ("pass",):
                first = first_line(entry["message"])
                print(f"  {f.relative_to(spec)}: {entry['status']} ({first[:200]})")
    if args.json:
        args.json.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
