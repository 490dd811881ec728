#!/usr/bin/env python3
"""piglit's own .shader_test files through the harness and through piglit's shader_runner.

    .venv/bin/python bench/piglit_compare.py [DIR_OR_FILE ...] [--subsets] [--drivers llvmpipe,zink]
                                             [--vk lavapipe] [--orders collection,reversed,1,2]
                                             [--piglit-results FILE] [--out DIR] [-n 2] [--json FILE]

Needs Debian's piglit package (2 GB, so not in CI). The files: every `.shader_test` under each
DIR (a path, or a folder name below piglit's tests/spec, e.g. `glsl-1.50`), plus, with
`--subsets` or when no DIR is given, the two subsets measured first: the
arb_tessellation_shader/execution tests without a TCS, and the legacy-varying tests (glsl-1.10,
glsl-1.20 and glsl-1.50 files whose text uses gl_FrontColor, gl_TexCoord, gl_FogFragCoord or
gl_ClipVertex).

piglit's side is its process-isolated run: one `shader_runner FILE -auto -fbo` process per file
on surfaceless EGL, which is the command `piglit run` gives each shader_test. Those verdicts
are kept in --piglit-results (JSON, per driver and file) and reused by later runs, since they
do not change with the harness. The harness runs all the files with `pytest --shader-tests` on
the GL drivers and the Vulkan targets in one session per order: `collection` (as collected),
`reversed` (bench/reverse_order.py) or a number (--shuffle SEED). Verdicts that differ between
orders are printed: a verdict must not depend on the cases that ran before it.

Per GL driver it prints the agreement table (of the files piglit runs, i.e. does not skip):
agree, harness-only fail (harness fail/crash where piglit passes: a false failure), piglit-only
fail (piglit fails, the harness passes), harness skip; then the importer's skips over all files,
and every disagreement. For the Vulkan targets, the verdict counts and every non-pass, each
classed as a layer gap or a driver difference by what zink, on the same lavapipe, does with the
file (`classify`).
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

from harness.sources import shader_test  # noqa: E402
from harness.executor.targets import get  # noqa: E402

PIGLIT = Path("/usr/lib/x86_64-linux-gnu/piglit")
LEGACY = re.compile(r"\bgl_(FrontColor|TexCoord|FogFragCoord|ClipVertex)\b")
FAILED = ("fail", "crash", "timeout", "error")


def subsets(spec: Path) -> list[Path]:
    tess = [p for p in sorted((spec / "arb_tessellation_shader" / "execution").rglob("*.shader_test"))
            if "[tessellation control shader]" not in p.read_text(errors="replace")]
    legacy = [p for version in ("glsl-1.10", "glsl-1.20", "glsl-1.50")
              for p in sorted((spec / version).rglob("*.shader_test"))
              if LEGACY.search(p.read_text(errors="replace"))]
    return tess + legacy


def select(spec: Path, paths: list[str], with_subsets: bool) -> list[Path]:
    files = subsets(spec) if with_subsets or not paths else []
    for text in paths:
        path = Path(text) if Path(text).exists() else spec / text
        if path.is_dir():
            files += sorted(path.rglob("*.shader_test"))
        elif path.is_file():
            files.append(path)
        else:
            raise SystemExit(f"piglit_compare: {text}: no such file or directory (nor under {spec})")
    return list(dict.fromkeys(p.resolve() for p in files))


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


def piglit_verdicts(piglit: Path, files: list[Path], drivers: list[str], store: Path, workers: int) -> dict:
    """{(file, driver): (status, log)}, from `store` where it has them, else run and added to it."""
    kept = json.loads(store.read_text()) if store.exists() else {}
    jobs = [(f, d) for d in drivers for f in files if f"{d}:{f}" not in kept]
    if jobs:
        print(f"shader_runner: {len(jobs)} runs ({len(files) * len(drivers) - len(jobs)} kept in {store})",
              flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            for (f, d), verdict in zip(jobs, pool.map(lambda job: shader_runner(piglit, *job), jobs)):
                kept[f"{d}:{f}"] = verdict
        store.write_text(json.dumps(kept, indent=0))
    return {(f, d): tuple(kept[f"{d}:{f}"]) for d in drivers for f in files}


def first_line(message: str) -> str:
    """The line that says what went wrong (a failure's first line only repeats the case id)."""
    lines = [line for line in message.splitlines() if line.strip()]
    return (lines[1] if len(lines) > 1 and " on " in lines[0] else lines[0]) if lines else ""


def harness_run(files: list[Path], targets: list[str], out: Path, workers: str, order: str) -> dict:
    """pytest --shader-tests on the targets in one order; {(case id, target): entry of results.json}."""
    command = [sys.executable, "-m", "pytest", "-p", "harness.pytest_adapter.plugin", "-p", "no:cacheprovider", "-q",
               "-n", workers, "--results-dir", str(out)] + [f"--target={t}" for t in targets]
    env = dict(os.environ)
    if order == "reversed":
        command += ["-p", "reverse_order"]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bench"), env.get("PYTHONPATH")]))
    elif order != "collection":
        command += ["--shuffle", order]
    command += [f"--shader-tests={f}" for f in files]
    proc = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not (out / "results.json").exists():
        raise SystemExit(f"piglit_compare: the harness run ({order}) wrote no results:\n{proc.stdout[-3000:]}")
    entries = json.loads((out / "results.json").read_text())["results"]
    return {(e["id"], e["target"]): e for e in entries}


def same(ours: str, theirs: str) -> bool:
    return ours == theirs or (ours in FAILED and theirs in FAILED)


def table(driver, files, ids, imported, harness, piglit, spec) -> tuple[dict, list]:
    runs = [f for f in files if piglit[(f, driver)][0] != "skip"]
    row = collections.Counter()
    differ = []
    for f in files:
        entry = harness.get((ids[f], driver), {"status": "missing", "message": "no result"})
        ours, theirs = entry["status"], piglit[(f, driver)][0]
        if theirs == "skip":
            row["piglit skip"] += 1
            row["piglit skip, harness " + ("skip" if ours == "skip" else "ran")] += 1
            if ours != "skip":
                differ.append((f, ours, entry["message"], theirs, piglit[(f, driver)][1]))
            continue
        if same(ours, theirs):
            row["agree"] += 1
            continue
        differ.append((f, ours, entry["message"], theirs, piglit[(f, driver)][1]))
        if ours == "skip":
            row["harness skip"] += 1
        elif ours in FAILED and theirs == "pass":
            row["harness-only fail"] += 1
        elif ours == "pass" and theirs in FAILED:
            row["piglit-only fail"] += 1
        else:
            row["other"] += 1
    row["piglit runs"] = len(runs)
    row["importer skips"] = len(files) - len(imported)
    return row, differ


def classify(entry: dict, zink: str | None, imported: bool) -> str:
    """Why a Vulkan target did not pass a file. zink here runs on the same lavapipe, so a file
    that zink passes and the harness's layer does not is the layer's gap, not the driver's."""
    status, message = entry["status"], entry.get("message", "")
    if status == "pass":
        return ""
    if not imported:
        return "importer skip (every target)"
    if status == "skip" and "Vulkan backend" in message:
        return "layer gap: not in the layer (a skip the layer names)"
    if "(translated) failed to compile" in message:
        return "layer gap: translated GLSL does not compile"
    if "varying components, GL_MAX_VARYING_COMPONENTS is" in message:
        return "layer gap: the layer's own varying-component check refuses the program"
    if zink == "pass":
        return "layer gap: zink on the same lavapipe passes"
    if status == "skip" and zink == "skip":
        return "skip on zink too (a requirement neither layer meets)"
    return f"driver difference: zink on the same lavapipe gives {zink or 'no verdict'} too"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", metavar="DIR_OR_FILE")
    parser.add_argument("--subsets", action="store_true", help="add the two subsets measured first")
    parser.add_argument("--piglit", type=Path, default=PIGLIT)
    parser.add_argument("--drivers", default="llvmpipe,zink")
    parser.add_argument("--vk", default="lavapipe", help="Vulkan targets to run the files on ('' for none)")
    parser.add_argument("--orders", default="collection",
                        help="harness case orders, comma-separated: collection, reversed, or a --shuffle seed")
    parser.add_argument("--piglit-results", type=Path, default=Path(tempfile.gettempdir()) / "piglit-compare.json",
                        help="shader_runner's verdicts, kept between runs (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=None, help="keep the harness's results here")
    parser.add_argument("-n", default="2", help="pytest-xdist workers for the harness run, and shader_runner jobs")
    parser.add_argument("--json", type=Path, default=None, help="write every verdict here")
    args = parser.parse_args()
    spec = args.piglit / "tests" / "spec"
    if not (args.piglit / "bin" / "shader_runner").exists():
        print(f"piglit_compare: {args.piglit}/bin/shader_runner not found: install Debian's piglit", file=sys.stderr)
        return 2
    orders = [o for o in args.orders.split(",") if o]
    bad = [o for o in orders if o not in ("collection", "reversed") and not o.isdigit()]
    if bad or not orders:
        print(f"piglit_compare: --orders {args.orders!r}: each is collection, reversed or a number", file=sys.stderr)
        return 2
    files = select(spec, args.paths, args.subsets)
    ids = {f: shader_test.case_id(f) for f in files}
    imported = {f for f in files if not shader_test.load(f).requires.unsupported}
    drivers = [d for d in args.drivers.split(",") if d]
    vk = [t for t in args.vk.split(",") if t]
    out = args.out or Path(tempfile.mkdtemp(prefix="piglit-compare-"))
    print(f"{len(files)} files, {len(imported)} imported; harness results in {out}", flush=True)
    workers = int(args.n) if args.n.isdigit() else 2
    piglit = piglit_verdicts(args.piglit, files, drivers, args.piglit_results, workers)
    runs = {order: harness_run(files, drivers + vk, out / f"order-{order}", args.n, order) for order in orders}
    harness = runs[orders[0]]

    unstable = [(key, {o: runs[o].get(key, {}).get("status") for o in orders}) for key in sorted(harness)
                if len({runs[o].get(key, {}).get("status") for o in orders}) > 1]
    if len(orders) > 1:
        print(f"\norders {', '.join(orders)}: {len(harness)} verdicts, {len(unstable)} differ between orders")
        for (case_id, target), by_order in unstable:
            print(f"  {case_id}[{target}]: " + ", ".join(f"{o} {s}" for o, s in by_order.items()))

    record = []
    columns = ("agree", "harness-only fail", "piglit-only fail", "harness skip")
    print(f"\n| driver | files | piglit runs | {' | '.join(columns)} | agreement | importer skips |")
    print("|---" * (len(columns) + 5) + "|")
    details = []
    for driver in drivers:
        row, differ = table(driver, files, ids, imported, harness, piglit, spec)
        share = row["agree"] / row["piglit runs"] if row["piglit runs"] else 0.0
        print(f"| {driver} | {len(files)} | {row['piglit runs']} | " + " | ".join(str(row[c]) for c in columns)
              + f" | {share:.1%} | {row['importer skips']} ({row['importer skips'] / len(files):.1%}) |")
        details.append((driver, row, differ))
        for f in files:
            entry = harness.get((ids[f], driver), {"status": "missing", "message": ""})
            record.append({"file": str(f.relative_to(spec)) if spec in f.parents else str(f), "id": ids[f],
                           "target": driver, "harness": entry["status"], "shader_runner": piglit[(f, driver)][0],
                           "message": entry["message"], "log": piglit[(f, driver)][1]})
    for driver, row, differ in details:
        other = {k: v for k, v in row.items() if k.startswith("piglit skip") or k == "other"}
        print(f"\n{driver}: " + ", ".join(f"{v} {k}" for k, v in sorted(other.items())) + f"; {len(differ)} differ:")
        for f, ours, message, theirs, log in differ:
            print(f"  {f.relative_to(spec) if spec in f.parents else f}: harness {ours} ({first_line(message)[:200]}); "
                  f"shader_runner {theirs} ({log[:160]})")
    for target in vk:
        counts = collections.Counter(harness.get((ids[f], target), {"status": "missing"})["status"] for f in files)
        print(f"\n{target}: " + ", ".join(f"{n} {status}" for status, n in counts.most_common()))
        lines, kinds = [], collections.Counter()
        for f in files:
            entry = harness.get((ids[f], target), {"status": "missing", "message": ""})
            kind = classify(entry, harness.get((ids[f], "zink"), {}).get("status"), f in imported)
            record.append({"file": str(f.relative_to(spec)) if spec in f.parents else str(f), "id": ids[f],
                           "target": target, "harness": entry["status"], "message": entry["message"],
                           "class": kind})
            if entry["status"] != "pass":
                kinds[kind] += 1
                lines.append(f"  {f.relative_to(spec) if spec in f.parents else f}: {entry['status']}, {kind} "
                             f"({first_line(entry['message'])[:200]})")
        print(f"\n| {target}: every non-pass | files |\n|---|---|")
        for kind, n in kinds.most_common():
            print(f"| {kind} | {n} |")
        print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(record, indent=1))
    return 1 if unstable else 0


if __name__ == "__main__":
    sys.exit(main())
