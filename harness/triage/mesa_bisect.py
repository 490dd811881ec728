"""`python -m harness bisect`: find the Mesa commit that broke (or, with --fixed, fixed) a case,
on a developer's git checkout of Mesa.

It drives `git bisect run` with a step of its own (`bisect --step`): an incremental build of the
checked-out commit (harness/mesa/build.py, ccache, only the drivers the target needs), then the
cases through `bisect-run`'s logic on that build (harness/triage/bisect_run.py). A commit that does not
build, or on which the target cannot start, is skipped (125). With --fixed the terms are
`broken`/`fixed`: a step whose cases pass is `fixed`.

Everything lives in the results folder, so a bisection survives a killed process, a restarted
machine or a time limit: `run.json` (what is bisected), `bisect.log` (`git bisect log`, copied at
every step), `steps.jsonl` (each step's commit, subject, verdict, build and run seconds) and the
build log. The same command resumes: it continues the tree's bisection if the tree is still in
it, or replays `bisect.log` if it is not. At the end the first bad (fixed) commit is verified by
building it and its parent and running the cases on both, the tree goes back where it was
(`git bisect reset`), and `result.json` holds the answer.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from harness.triage import bisect_run as bisect
from harness.sources import catalog
from harness.base import config
from harness.run import core
from harness.mesa import runtime as mesa, build as mesa_build
from harness.executor import targets as targets_mod

GOOD, BAD, SKIP, ABORT = 0, 1, 125, 128
# The drivers a target needs built: zink runs over the build's own lavapipe.
DRIVERS = {"llvmpipe": ("llvmpipe",), "zink": ("zink", "lavapipe"), "lavapipe": ("lavapipe",)}


# What git bisect run calls: a harness that cannot even be imported says nothing of the commit,
# so it stops the bisection (exit 128) instead of exiting 1, which git would take for "bad".
STEP = """import sys
try:
    from harness.triage.mesa_bisect import main
except BaseException as exc:
    print(f"bisect: the harness cannot be imported: {exc!r}")
    sys.exit(128)
sys.exit(main(sys.argv[1:]))
"""


class BisectError(Exception):
    """One line for the user."""


@dataclass(frozen=True)
class Plan:
    """What is bisected: run.json. A resumed command must ask for the same."""
    tree: str
    good: str                         # full hashes
    bad: str
    target: str
    cases: tuple[str, ...]
    fixed: bool = False
    build_dir: str = ""
    optimization: str = "0"
    flake_retries: int = 1
    shader_tests: tuple[str, ...] = field(default_factory=tuple)

    @property
    def terms(self) -> tuple[str, str]:
        """(old, new): git bisect's names of the two states."""
        return ("broken", "fixed") if self.fixed else ("good", "bad")


def git(tree: str | Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise BisectError(f"git {' '.join(args[:2])}: {(proc.stderr.strip().splitlines() or ['failed'])[-1]}")
    return proc.stdout.strip()


def bisecting(tree: str | Path) -> bool:
    return subprocess.run(["git", "-C", str(tree), "bisect", "log"], capture_output=True).returncode == 0


# -- one step, as `git bisect run` calls it ------------------------------------------------------

def load(folder: Path) -> Plan:
    raw = json.loads((folder / "run.json").read_text())
    return Plan(**{**raw, "cases": tuple(raw["cases"]), "shader_tests": tuple(raw["shader_tests"])})


def step(folder: Path, out=print) -> int:
    plan = load(folder)
    (folder / "bisect.log").write_text(git(plan.tree, "bisect", "log") + "\n")   # the state so far
    commit = git(plan.tree, "rev-parse", "HEAD")
    subject = git(plan.tree, "log", "-1", "--format=%s", commit)
    out(f"bisect: step at {commit[:12]} {subject}")
    lines: list[str] = []
    code, build_seconds, run_seconds = run_at(plan, folder, lines.append)
    for line in lines:
        out(f"bisect:   {line}")
    if plan.fixed and code in (GOOD, BAD):
        code = GOOD if code == BAD else BAD          # passing cases are "fixed", git's new term
    verdict = {GOOD: plan.terms[0], BAD: plan.terms[1], SKIP: "skip"}.get(code, "abort")
    with open(folder / "steps.jsonl", "a") as f:
        f.write(json.dumps({"commit": commit, "subject": subject, "verdict": verdict, "build_seconds": build_seconds,
                            "run_seconds": run_seconds, "lines": lines}) + "\n")
    out(f"bisect: {commit[:12]} is {verdict} (build {build_seconds:.0f} s, run {run_seconds:.0f} s)")
    return code


def run_at(plan: Plan, folder: Path, out) -> tuple[int, float, float]:
    """Build the tree as it is checked out and run the cases: (bisect-run's exit code, seconds
    building, seconds running). A build failure is SKIP, with its log's path."""
    build_dir = Path(plan.build_dir)
    started = time.monotonic()
    try:
        mesa_build.build(Path(plan.tree), build_dir, DRIVERS[plan.target], folder / "build.log",
                         optimization=plan.optimization, install_packages=False)
    except mesa_build.BuildError as exc:
        out(f"does not build: {exc}")
        return SKIP, time.monotonic() - started, 0.0
    built = time.monotonic()
    try:
        settings = config.RunSettings(mesa=mesa.locate(build_dir))
    except mesa.MesaError as exc:
        out(f"not a usable build: {exc}")
        return SKIP, built - started, 0.0
    code = bisect.bisect_run(list(plan.cases), targets_mod.get(plan.target), out=out, settings=settings,
                             shader_tests=plan.shader_tests, rules=core.Rules(flake_retries=plan.flake_retries))
    return code, built - started, time.monotonic() - built


# -- the whole bisection -------------------------------------------------------------------------

def start(plan: Plan, folder: Path, out=print) -> None:
    """Put the tree into the plan's bisection: continue, replay the kept log, or start afresh."""
    saved = folder / "run.json"
    if saved.exists() and load(folder) != plan:
        kept = load(folder)
        raise BisectError(f"{folder} holds another bisection ({kept.good[:12]}..{kept.bad[:12]}, "
                          f"{', '.join(kept.cases)} on {kept.target}); give another --results-dir")
    if bisecting(plan.tree):
        if not saved.exists():
            raise BisectError(f"{plan.tree} is in the middle of another bisection; `git bisect reset` it first")
        out(f"bisect: resuming the bisection in progress in {plan.tree}")
        return
    saved.write_text(json.dumps(asdict(plan), indent=1) + "\n")
    log = folder / "bisect.log"
    if log.exists() and log.read_text().strip():
        out(f"bisect: replaying {log}")
        git(plan.tree, "bisect", "replay", str(log))
        return
    old, new = plan.terms
    git(plan.tree, "bisect", "start", *([f"--term-old={old}", f"--term-new={new}"] if plan.fixed else []))
    git(plan.tree, "bisect", new, plan.bad)
    git(plan.tree, "bisect", old, plan.good)
    log.write_text(git(plan.tree, "bisect", "log") + "\n")


def first_commit(plan: Plan) -> str:
    """The first `new` commit the finished bisection found ('' if skips left it undecided)."""
    new = plan.terms[1]
    return git(plan.tree, "rev-parse", "--verify", "-q", f"refs/bisect/{new}", check=False)


def verify(plan: Plan, folder: Path, commit: str, out=print) -> dict:
    """Build the parent and the commit and run the cases on each: the answer holds when the
    parent is old and the commit new."""
    verdicts = {}
    for name, rev in (("parent", f"{commit}^"), ("commit", commit)):
        git(plan.tree, "checkout", "-q", "--detach", rev)
        lines: list[str] = []
        code, build_seconds, run_seconds = run_at(plan, folder, lines.append)
        passed = {GOOD: True, BAD: False}.get(code)
        verdicts[name] = {"commit": git(plan.tree, "rev-parse", "HEAD"), "exit": code, "passes": passed,
                          "lines": lines, "build_seconds": round(build_seconds, 1)}
        out(f"bisect: verify {name} {verdicts[name]['commit'][:12]}: "
            f"{'pass' if passed else 'fail' if passed is False else 'untestable'}")
    broken_first = not plan.fixed
    verdicts["holds"] = (verdicts["parent"]["passes"] is broken_first and verdicts["commit"]["passes"] is (not broken_first))
    return verdicts


def bisect_run(plan: Plan, folder: Path, step_command: list[str], out) -> tuple[str, int]:
    """`git bisect run STEP_COMMAND`, its output echoed as it comes (a bisection takes an hour)
    and kept in bisect-run.out: (the output, its exit status)."""
    said = []
    with open(folder / "bisect-run.out", "a") as log, subprocess.Popen(
            ["git", "-C", plan.tree, "bisect", "run", *step_command], text=True, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT) as proc:
        for line in proc.stdout:
            log.write(line)
            log.flush()
            said.append(line)
            if line.startswith("bisect: "):
                out(line.rstrip())
    return "".join(said), proc.returncode


def run(plan: Plan, folder: Path, out=print, verify_result: bool = True, step_command: list[str] | None = None) -> int:
    """Bisect to the end (or resume), verify, reset the tree; 0 when a verified commit was found.
    `step_command` is what `git bisect run` calls (default: this module's --step)."""
    folder.mkdir(parents=True, exist_ok=True)
    for case_id in plan.cases:
        catalog.find(case_id, plan.shader_tests)             # an unknown id: one line, before any build
    targets_mod.get(plan.target)
    start(plan, folder, out)
    here = step_command or [sys.executable, "-c", STEP, "--step", "--results-dir", str(folder)]
    # The verdicts so far may decide it already: a --bad whose parent is --good (a candidate
    # read in the history), or commits marked by hand (`git bisect good REV`) before resuming.
    # Else `git bisect next` checks out the next commit to test, as `git bisect run` would.
    decided = subprocess.run(["git", "-C", plan.tree, "bisect", "next"], capture_output=True, text=True).stdout
    output, returncode = (decided, 0) if f"is the first {plan.terms[1]} commit" in decided else \
        bisect_run(plan, folder, here, out)
    (folder / "bisect.log").write_text(git(plan.tree, "bisect", "log") + "\n")
    commit = first_commit(plan)
    steps = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()] \
        if (folder / "steps.jsonl").exists() else []
    for s in steps:
        out(f"  {s['commit'][:12]} {s['verdict']:7} build {s['build_seconds']:5.0f} s  {s['subject']}")
    new = plan.terms[1]
    if returncode != 0 or not commit or f"first {new} commit" not in output:
        undecided = [line for line in output.splitlines() if "skip" in line or "could be" in line]
        out(f"bisect: no first {new} commit: {(undecided or output.strip().splitlines() or ['git bisect run failed'])[-1]}"
            f" (log: {folder / 'bisect-run.out'})")
        return 1
    result = {"first": commit, "subject": git(plan.tree, "log", "-1", "--format=%s", commit),
              "term": new, "steps": len(steps)}
    out(f"bisect: first {new} commit: {commit[:12]} {result['subject']} ({len(steps)} steps)")
    if verify_result:
        result["verify"] = verify(plan, folder, commit, out)
        out(f"bisect: verified: {'yes' if result['verify']['holds'] else 'NO, the parent and the commit do not differ as the bisection says'}")
    git(plan.tree, "bisect", "reset", check=False)
    (folder / "result.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0 if result.get("verify", {}).get("holds", True) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness bisect", description=__doc__.split("\n\n")[0])
    parser.add_argument("case_ids", nargs="*", metavar="CASE_ID")
    parser.add_argument("--tree", default=".", help="the Mesa git checkout (default: the current folder)")
    parser.add_argument("--good", help="a commit where the cases pass (with --fixed: where they fail)")
    parser.add_argument("--bad", help="a commit where they fail (with --fixed: where they pass)")
    parser.add_argument("--fixed", action="store_true", help="look for the first commit where the cases pass")
    parser.add_argument("--target", default="llvmpipe", choices=sorted(DRIVERS))
    parser.add_argument("--results-dir", help="default: results/bisect-<target>-<good>-<bad>")
    parser.add_argument("--build-dir", help="default: TREE/build-bisect")
    parser.add_argument("-O", "--optimization", default="0", help="meson optimization of each step's build (default 0)")
    parser.add_argument("--flake-retries", type=int, default=1)
    parser.add_argument("--shader-tests", action="append", default=[])
    parser.add_argument("--no-verify", action="store_true", help="do not build and run the first commit and its parent")
    parser.add_argument("--step", action="store_true", help=argparse.SUPPRESS)   # what git bisect run calls
    args = parser.parse_args(argv)
    try:
        if args.step:
            return step(Path(args.results_dir))
        if not (args.case_ids and args.good and args.bad):
            raise BisectError("give CASE_ID..., --good and --bad")
        tree = Path(args.tree).expanduser().resolve()
        mesa_build.mesa_tree(tree)
        good, bad = (git(tree, "rev-parse", "--verify", f"{rev}^{{commit}}") for rev in (args.good, args.bad))
        folder = Path(args.results_dir or f"results/bisect-{args.target}-{good[:10]}-{bad[:10]}").resolve()
        plan = Plan(tree=str(tree), good=good, bad=bad, target=args.target, cases=tuple(args.case_ids),
                    fixed=args.fixed, build_dir=str(Path(args.build_dir).resolve() if args.build_dir else tree / "build-bisect"),
                    optimization=args.optimization, flake_retries=args.flake_retries, shader_tests=tuple(args.shader_tests))
        return run(plan, folder, verify_result=not args.no_verify)
    except (BisectError, mesa_build.BuildError, catalog.NoSuchCase, targets_mod.UnknownTarget) as exc:
        print(f"python -m harness bisect: {exc}", file=sys.stderr)
        return ABORT if args.step else 2
    except Exception:
        if args.step:                                  # a harness bug says nothing of the commit: stop
            import traceback
            traceback.print_exc()
            return ABORT
        raise


if __name__ == "__main__":
    sys.exit(main())
