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
it (first undoing a checkout that the kill cut short: git's stale lock, a half-written tree), or
replays `bisect.log` if it is not. At the end the first bad (fixed) commit is verified by
building it and its parent and running the cases on both, the tree goes back where it was
(`git bisect reset`), and `result.json` holds the answer.

An intermittent failure (--rate P, its measured failure rate) is bisected with k runs a step
(runs_per_step): a commit is bad when any run fails, and one wrongly called good, its failure
missed in all k runs, has probability <= 1 - --confidence.

Before the first step, the build dependencies and an LLVM are installed as bin/build-mesa
installs them (the steps do not install); a step that still does not build says why on stderr.
`bisect()` is the whole command for callers in Python; `Plan.command` bisects any test command
(no build) with the same machinery.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from harness.triage import bisect_run as case_runs
from harness.sources import catalog
from harness.base import options
from harness.run import core
from harness.executor.settings import resolve
from harness.mesa import runtime as mesa, build as mesa_build
from harness.executor import targets as targets_mod
from harness.base.errors import UsageError

# The run settings a bisection takes: every one but --mesa, each step's Mesa being the one it built.
SETTINGS = options.but(options.SETTINGS, mesa="each step runs on the Mesa it has just built")
GOOD, BAD, SKIP, ABORT = 0, 1, 125, 128
Out = Callable[[str], object]            # where a line for the user goes (print, a list.append)
# What a git killed mid-checkout leaves in the git directory.
LOCKS = ("index.lock", "HEAD.lock")
# The drivers a target needs built: zink runs over the build's own lavapipe; zink-optimal is the
# same build, run with ZINK_INLINE_UNIFORMS=0 (harness/executor/targets.py).
DRIVERS = {"llvmpipe": ("llvmpipe",), "zink": ("zink", "lavapipe"), "zink-optimal": ("zink", "lavapipe"),
           "lavapipe": ("lavapipe",)}


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


class BisectError(UsageError):
    """One line for the user."""


def runs_per_step(rate: float, error: float = 0.01) -> int:
    """How many runs a step needs so that a commit failing with probability RATE a run passes
    them all, and is wrongly called good, with probability (1 - rate)^k <= ERROR."""
    if not (0 < rate <= 1 and 0 < error < 1):
        raise BisectError(f"give a failure rate 0 < P <= 1 and a confidence 0 < C < 1, not P={rate:g}, C={1 - error:g}")
    if rate == 1:
        return 1
    return math.ceil(math.log(error) / math.log(1 - rate) - 1e-9)    # a ratio of 2 rounded up to 2.0000001 stays 2


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
    rate: float = 1.0                 # the failure's rate a run, and the confidence a step asks
    confidence: float = 0.99
    command: tuple[str, ...] = ()     # instead of building and running cases: this, in the tree
    failure: str = ""                 # --failure: bad only when a failure's message matches this
    old: str = "fail"                 # --old: the failure without it that is the old state (good)
    settings: dict[str, Any] = field(default_factory=dict)    # the run settings given (options.changed)

    @property
    def runs(self) -> int:
        return runs_per_step(self.rate, 1 - self.confidence)

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
    return Plan(**{**raw, "cases": tuple(raw["cases"]), "shader_tests": tuple(raw["shader_tests"]),
                   "command": tuple(raw.get("command", ()))})


def step(folder: Path, out: Out = print) -> int:
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


def run_at(plan: Plan, folder: Path, out: Out) -> tuple[int, float, float]:
    """Build the tree as it is checked out and run the cases, plan.runs times: (bisect-run's exit
    code, seconds building, seconds running). A build failure is SKIP, with its reason and log."""
    started = time.monotonic()
    if plan.command:
        return run_command(plan, out), 0.0, time.monotonic() - started
    build_dir = Path(plan.build_dir)
    try:
        mesa_build.build(Path(plan.tree), build_dir, DRIVERS[plan.target], folder / "build.log",
                         optimization=plan.optimization, install_packages=False)
    except mesa_build.BuildError as exc:
        out(f"does not build: {exc}")
        return SKIP, time.monotonic() - started, 0.0
    built = time.monotonic()
    try:
        settings = resolve(plan.settings, mesa=mesa.locate(build_dir))
    except mesa.MesaError as exc:
        out(f"not a usable build: {exc}")
        return SKIP, built - started, 0.0
    # several runs a step count a flake as bad: retrying a failure would only cost time
    rules = core.Rules(flake_retries=plan.flake_retries if plan.runs == 1 else 0)
    code = case_runs.bisect_run(list(plan.cases), targets_mod.get(plan.target), out=out, settings=settings,
                                shader_tests=plan.shader_tests, rules=rules, runs=plan.runs,
                                failure=case_runs.pattern(plan.failure), old=plan.old)
    return code, built - started, time.monotonic() - built


def run_command(plan: Plan, out: Out) -> int:
    """plan.command in the tree, up to plan.runs times, read as `git bisect run` reads an exit
    status: 0 good, 125 skip, 1-127 bad, anything else (a signal) stops the bisection."""
    def once() -> int:
        code = subprocess.run(plan.command, cwd=plan.tree).returncode
        return code if code in (GOOD, SKIP) else BAD if 0 < code < 128 else ABORT

    code, made = case_runs.repeat(once, plan.runs)
    said = {GOOD: "passes", BAD: "fails", SKIP: "skip"}.get(code, "abort")
    out(f"{' '.join(plan.command)}: {said} " + (f"({made} runs)" if code == GOOD else f"(run {made} of {plan.runs})"))
    return code


# -- the whole bisection -------------------------------------------------------------------------

def start(plan: Plan, folder: Path, out: Out = print) -> None:
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
        recover(plan.tree, out)
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


def recover(tree: str, out: Out) -> None:
    """Undo what a bisection killed while git checked out its next commit leaves: git's lock and
    a half-written tree, HEAD still at the commit just judged. `git bisect run` would judge that
    commit again on the next one's files, or fail (`'git bisect--helper --bisect-state skip'
    exited with error code -1`); the commit to test is BISECT_EXPECTED_REV, git bisect's own."""
    git_dir = Path(git(tree, "rev-parse", "--absolute-git-dir"))
    locks = [git_dir / name for name in LOCKS if (git_dir / name).exists()]
    head = git(tree, "rev-parse", "HEAD")
    expected = git(tree, "rev-parse", "--verify", "-q", "BISECT_EXPECTED_REV", check=False) or head
    # without a lock, a dirty tree away from the expected commit is a checkout killed between
    # writing the index and moving HEAD; a dirty tree at it is the developer's, and stays
    cut_short = locks or (expected != head and git(tree, "status", "--porcelain", "--untracked-files=no"))
    if not cut_short:
        return
    busy = git_processes(Path(tree))
    if busy:
        raise BisectError(f"git (pid {busy[0]}) is still at work in {tree}; let it finish or end it, then run this again")
    for lock in locks:
        lock.unlink()
    git(tree, "checkout", "-q", "-f", "--detach", expected)
    out(f"bisect: a checkout was cut short in {tree} ({', '.join(lock.name for lock in locks) or 'a half-written tree'}"
        f" left); checked out {expected[:12]} again, the commit git bisect tests next")


def git_processes(tree: Path) -> list[int]:
    """The git processes working in TREE (their current folder, as `git -C` sets it): while one
    lives, its lock is not stale."""
    pids = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if proc.joinpath("comm").read_text().startswith("git") and Path(os.readlink(proc / "cwd")) == tree:
                pids.append(int(proc.name))
        except OSError:                          # gone, or not ours to read
            continue
    return pids


def first_commit(plan: Plan) -> str:
    """The first `new` commit the finished bisection found ('' if skips left it undecided)."""
    new = plan.terms[1]
    return git(plan.tree, "rev-parse", "--verify", "-q", f"refs/bisect/{new}", check=False)


def verify(plan: Plan, folder: Path, commit: str, out: Out = print) -> dict[str, Any]:
    """Build the parent and the commit and run the cases on each: the answer holds when the
    parent is old and the commit new."""
    verdicts: dict[str, Any] = {}
    for name, rev in (("parent", f"{commit}^"), ("commit", commit)):
        git(plan.tree, "checkout", "-q", "--detach", rev)
        lines: list[str] = []
        code, build_seconds, run_seconds = run_at(plan, folder, lines.append)
        passed = {GOOD: True, BAD: False}.get(code)
        verdicts[name] = {"commit": git(plan.tree, "rev-parse", "HEAD"), "exit": code, "passes": passed,
                          "lines": lines, "build_seconds": round(build_seconds, 1)}
        said = ("without the failure", "with the failure") if plan.failure else ("pass", "fail")
        out(f"bisect: verify {name} {verdicts[name]['commit'][:12]}: "
            f"{said[0] if passed else said[1] if passed is False else 'untestable'}")
    broken_first = not plan.fixed
    verdicts["holds"] = (verdicts["parent"]["passes"] is broken_first and verdicts["commit"]["passes"] is (not broken_first))
    return verdicts


def end(tree: str, err: Out) -> None:
    """`git bisect reset`: the tree back at the commit it was on. Where git cannot check that out
    (a mirror missing a blob of it), the bisection is ended where the tree is, and ERR says so:
    a tree left mid-bisection would refuse the next bisection."""
    proc = subprocess.run(["git", "-C", tree, "bisect", "reset"], capture_output=True, text=True)
    if proc.returncode != 0:
        git(tree, "bisect", "reset", "HEAD")
        why = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        err(f"bisect: git could not check out the tree's own commit again ({why}); "
            f"ended the bisection at {git(tree, 'rev-parse', '--short', 'HEAD')}")


def warn(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def bisect_run(plan: Plan, folder: Path, step_command: list[str], out: Out, err: Out = warn) -> tuple[str, int]:
    """`git bisect run STEP_COMMAND`, its output echoed as it comes (a bisection takes an hour)
    and kept in bisect-run.out: (the output, its exit status). Why a step did not build goes to
    ERR: a skip that is the machine's fault, not the commit's, is for the user to act on."""
    said = []
    with open(folder / "bisect-run.out", "a") as log, subprocess.Popen(
            ["git", "-C", plan.tree, "bisect", "run", *step_command], text=True, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            log.write(line)
            log.flush()
            said.append(line)
            if line.startswith("bisect: "):
                (err if "does not build:" in line else out)(line.rstrip())
    return "".join(said), proc.returncode


def prepare(plan: Plan, folder: Path, out: Out) -> None:
    """Install what bin/build-mesa would (the build packages, an LLVM), once: the steps build
    without installing, and without them every step would be skipped as not building."""
    with open(folder / "build.log", "a") as log:
        _, llvm = mesa_build.dependencies(Path(plan.tree), log)
    out(f"bisect: build dependencies installed; {llvm}")


def undecided(plan: Plan, folder: Path, steps: list[dict[str, Any]], output: str) -> str:
    """Why the bisection named no commit, in one line."""
    unbuilt = [line for s in steps for line in s["lines"] if line.startswith("does not build:")]
    if steps and all(s["verdict"] == "skip" for s in steps) and unbuilt:
        return (f"every step was skipped, {len(unbuilt)} of {len(steps)} because the build failed "
                f"(last: {unbuilt[-1].removeprefix('does not build: ')}); build log: {folder / 'build.log'}")
    lines = [line for line in output.splitlines() if "skip" in line or "could be" in line]
    return f"{(lines or output.strip().splitlines() or ['git bisect run failed'])[-1]} (log: {folder / 'bisect-run.out'})"


def certainty(plan: Plan, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """How sure an answer bisected with several runs a step is: each step whose runs all passed
    was wrong with probability <= 1 - confidence, so none was with probability >= that to the
    power of their number."""
    passed = sum(s["verdict"] == plan.terms[1 if plan.fixed else 0] for s in steps)
    return {"rate": plan.rate, "runs_per_step": plan.runs, "passing_steps": passed,
            "at_least": round(plan.confidence ** passed, 4)}


def run(plan: Plan, folder: Path, out: Out = print, verify_result: bool = True, step_command: list[str] | None = None,
        install: bool = False, err: Out = warn) -> int:
    """Bisect to the end (or resume), verify, reset the tree; 0 when a verified commit was found.
    `step_command` is what `git bisect run` calls (default: this module's --step); `install`
    first installs the build dependencies (prepare)."""
    folder.mkdir(parents=True, exist_ok=True)
    if not plan.command:
        for case_id in plan.cases:
            catalog.find(case_id, plan.shader_tests)         # an unknown id: one line, before any build
        targets_mod.get(plan.target)
    start(plan, folder, out)
    if install:
        prepare(plan, folder, out)
    here = step_command or [sys.executable, "-c", STEP, "--step", "--results-dir", str(folder)]
    # The verdicts so far may decide it already: a --bad whose parent is --good (a candidate
    # read in the history), or commits marked by hand (`git bisect good REV`) before resuming.
    # Else `git bisect next` checks out the next commit to test, as `git bisect run` would.
    decided = subprocess.run(["git", "-C", plan.tree, "bisect", "next"], capture_output=True, text=True).stdout
    output, returncode = (decided, 0) if f"is the first {plan.terms[1]} commit" in decided else \
        bisect_run(plan, folder, here, out, err)
    (folder / "bisect.log").write_text(git(plan.tree, "bisect", "log") + "\n")
    commit = first_commit(plan)
    steps = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()] \
        if (folder / "steps.jsonl").exists() else []
    for s in steps:
        out(f"  {s['commit'][:12]} {s['verdict']:7} build {s['build_seconds']:5.0f} s  {s['subject']}")
    new = plan.terms[1]
    if returncode != 0 or not commit or f"first {new} commit" not in output:
        out(f"bisect: no first {new} commit: {undecided(plan, folder, steps, output)}")
        return 1
    result: dict[str, Any] = {"first": commit, "subject": git(plan.tree, "log", "-1", "--format=%s", commit),
              "term": new, "steps": len(steps)}
    out(f"bisect: first {new} commit: {commit[:12]} {result['subject']} ({len(steps)} steps)")
    if plan.runs > 1:
        sure = result["confidence"] = certainty(plan, steps)
        out(f"bisect: {plan.runs} runs a step for a failure rate of {plan.rate:g}: each of the "
            f"{sure['passing_steps']} passing steps missed the failure with probability <= {1 - plan.confidence:.2g}, "
            f"so none did with probability >= {sure['at_least']:.3f}")
    if verify_result:
        result["verify"] = verify(plan, folder, commit, out)
        out(f"bisect: verified: {'yes' if result['verify']['holds'] else 'NO, the parent and the commit do not differ as the bisection says'}")
    end(plan.tree, err)
    (folder / "result.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0 if result.get("verify", {}).get("holds", True) else 1


# What bisect() raises for bad input: one line for the user.
ERRORS = (BisectError, mesa_build.BuildError, catalog.NoSuchCase, targets_mod.UnknownTarget)


def bisect(case_ids: Sequence[str], tree: str | Path, good: str, bad: str, target: str = "llvmpipe", *,
           rate: float = 1.0, confidence: float = 0.99, fixed: bool = False, results_dir: str | Path | None = None,
           build_dir: str | Path | None = None, optimization: str = "0", flake_retries: int = 1,
           shader_tests: Sequence[str] = (), settings: Mapping[str, Any] | None = None, verify_result: bool = True,
           failure: str = "", old: str = "fail", out: Out = print, err: Out = warn) -> int:
    """`harness bisect` for callers in Python: the first commit of the Mesa checkout TREE between
    GOOD and BAD (any revisions) where the cases fail (FIXED: pass) on TARGET, a failure of RATE a
    run bisected with runs_per_step(rate, 1 - confidence) runs a step. Installs the build
    dependencies first, resumes a bisection of the same plan, and returns the exit status: 0
    when a verified commit was found (result.json in the results folder), 1 when none was.
    Raises one of ERRORS for bad input."""
    runs_per_step(rate, 1 - confidence)                 # a bad --rate: one line, before anything
    case_runs.pattern(failure)                          # a bad --failure too
    case_runs.old_state(old, failure)
    if not case_ids:
        raise BisectError("give CASE_ID...")
    tree = mesa_build.mesa_tree(Path(tree).expanduser().resolve())
    good, bad = (git(tree, "rev-parse", "--verify", f"{rev}^{{commit}}") for rev in (good, bad))
    folder = Path(results_dir or f"results/bisect-{target}-{good[:10]}-{bad[:10]}").resolve()
    plan = Plan(tree=str(tree), good=good, bad=bad, target=target, cases=tuple(case_ids), fixed=fixed,
                build_dir=str(Path(build_dir).resolve() if build_dir else tree / "build-bisect"),
                optimization=optimization, flake_retries=flake_retries, shader_tests=tuple(shader_tests),
                rate=rate, confidence=confidence, settings=options.changed(settings or {}), failure=failure,
                old=old)
    return run(plan, folder, out, verify_result=verify_result, install=True, err=err)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`python -m harness bisect`'s arguments (harness/cli/commands.py)."""
    parser.description = __doc__.split("\n\n")[0]
    parser.add_argument("case_ids", nargs="*", metavar="CASE_ID")
    parser.add_argument("--tree", default=".", help="the Mesa git checkout (default: the current folder)")
    parser.add_argument("--good", help="a commit where the cases pass (with --fixed: where they fail)")
    parser.add_argument("--bad", help="a commit where they fail (with --fixed: where they pass)")
    parser.add_argument("--fixed", action="store_true", help="look for the first commit where the cases pass")
    options.add_arguments(parser, ("target", *SETTINGS, "results_dir", "flake_retries", "shader_tests"), {
        "target": options.Use("llvmpipe", f"llvmpipe; one of {', '.join(sorted(DRIVERS))}, the targets a step "
                              "builds the drivers of", one=True),
        "results_dir": options.Use(None, "results/bisect-<target>-<good>-<bad>"),
        "flake_retries": options.BISECT_RETRIES})
    parser.add_argument("--rate", type=float, default=1.0, metavar="P",
                        help="the failure's measured rate a run, 0 < P <= 1: an intermittent failure is "
                             "bisected with several runs a step, bad if any fails (default 1)")
    parser.add_argument("--confidence", type=float, default=0.99, metavar="C",
                        help="with --rate: a step misses the failure in all its runs with probability <= 1 - C "
                             "(default 0.99)")
    parser.add_argument("--build-dir", help="default: TREE/build-bisect")
    parser.add_argument("-O", "--optimization", default="0",
                        help="meson optimization of each step's build (default 0, not bin/build-mesa's 1: a "
                             "step's build is used once, so it builds fastest)")
    parser.add_argument("--no-verify", action="store_true", help="do not build and run the first commit and its parent")
    case_runs.add_failure_argument(parser)
    parser.add_argument("--step", action="store_true", help=argparse.SUPPRESS)   # what git bisect run calls


def command_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m harness bisect")
    add_arguments(parser)
    return parser


def main(argv: list[str]) -> int:
    """`python -m harness bisect ARGV...` where it is no command line: what git bisect run calls
    (STEP), and harness history bisect."""
    return command(command_parser().parse_args(argv))


def command(args: argparse.Namespace) -> int:
    """`python -m harness bisect` (harness/cli/bisect.py)."""
    try:
        if args.target not in DRIVERS:
            raise BisectError(f"--target {args.target}: harness bisect builds {', '.join(sorted(DRIVERS))}")
        if args.step:
            return step(Path(args.results_dir))
        if not (args.good and args.bad):
            raise BisectError("give CASE_ID..., --good and --bad")
        return bisect(args.case_ids, args.tree, args.good, args.bad, args.target, rate=args.rate,
                      confidence=args.confidence, fixed=args.fixed, results_dir=args.results_dir,
                      build_dir=args.build_dir, optimization=args.optimization, flake_retries=args.flake_retries,
                      shader_tests=args.shader_tests, settings=options.values(args, SETTINGS),
                      verify_result=not args.no_verify, failure=args.failure, old=args.old)
    except ERRORS as exc:
        print(f"python -m harness bisect: {exc}", file=sys.stderr)
        return ABORT if args.step else 2
    except Exception:
        if args.step:                                  # a harness bug says nothing of the commit: stop
            import traceback
            traceback.print_exc()
            return ABORT
        raise


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
