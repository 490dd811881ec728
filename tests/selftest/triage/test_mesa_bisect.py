"""`harness bisect`'s driver on a small git repository of its own: git bisect run driven to the
first bad (or fixed) commit, a step that does not build skipped and said why, an answer that
skips leave open said so, a bisection killed mid-step resumed where it stopped (from the tree's
state, or replayed from the results folder) without judging a commit twice, one killed
mid-checkout resumed on the commit git was checking out, and an intermittent failure bisected
with k runs a step. A step here reads the commit's `state` file instead of building Mesa, or
runs a test command of the repository's; the real bisections are in triage/ and
bench/mesa_from_source.sh."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.mesa import build as mesa_build
from harness.triage import mesa_bisect

from conftest import ROOT
CASE = "tess/tcs/quads/equal/in1-out1"           # any real id: the driver checks ids before building
CODES = {"pass": (0, 0.0, 0.0), "fail": (1, 0.0, 0.0), "nobuild": (125, 0.0, 0.0)}

FAKE_STEP = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from harness.triage import mesa_bisect

    def run_at(plan, folder, out):
        stop = Path(plan.tree).parent / "kill-after"
        done = folder / "steps.jsonl"
        if stop.exists() and done.exists() and len(done.read_text().splitlines()) >= int(stop.read_text()):
            os.killpg(os.getpgrp(), signal.SIGKILL)       # the whole bisection, mid-step
        state = (Path(plan.tree) / "state").read_text().strip()
        out(f"state {state}")
        if state == "nobuild":
            out('does not build: meson setup failed (exit 1): ERROR: Dependency "libzstd" not found; log: build.log')
        return {"pass": (0, 0.0, 0.0), "fail": (1, 0.0, 0.0), "nobuild": (125, 0.0, 0.0)}[state]

    mesa_bisect.run_at = run_at
    sys.exit(mesa_bisect.step(Path(sys.argv[1])))
""")


def history(tmp_path: Path, states: list[str], files=lambda i: {}) -> tuple[Path, list[str]]:
    """A repository whose commit i has `state` = states[i], `number` = i and FILES(i) ({name:
    text}); returns it and the commit hashes."""
    tree = tmp_path / "tree"
    tree.mkdir()
    git = ["git", "-C", str(tree), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    commits = []
    for i, state in enumerate(states):
        for name, text in {"state": state + "\n", "number": f"{i}\n", **files(i)}.items():
            (tree / name).write_text(text)
            subprocess.run([*git, "add", name], check=True)
        subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", f"commit {i}: {state}"], check=True)
        commits.append(subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip())
    return tree, commits


def plan_for(tree: Path, commits: list[str], fixed: bool = False) -> mesa_bisect.Plan:
    return mesa_bisect.Plan(tree=str(tree), good=commits[0], bad=commits[-1], target="llvmpipe",
                            cases=(CASE,), fixed=fixed, build_dir=str(tree / "build"))


@pytest.fixture
def fake_steps(tmp_path, monkeypatch):
    """The step command git bisect run calls, and run_at in this process (the verification)."""
    script = tmp_path / "step.py"
    script.write_text(FAKE_STEP)
    monkeypatch.setattr(mesa_bisect, "run_at", lambda plan, folder, out: CODES[
        (Path(plan.tree) / "state").read_text().strip()])
    monkeypatch.chdir(ROOT)
    return lambda folder: [sys.executable, str(script), str(folder)]


def judged(folder: Path) -> list[str]:
    return [json.loads(line)["commit"] for line in (folder / "steps.jsonl").read_text().splitlines()]


def git(tree: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True, check=True).stdout.strip()


def test_first_bad_commit_with_a_step_that_does_not_build(tmp_path, fake_steps):
    states = ["pass"] * 9 + ["nobuild"] + ["pass"] * 3 + ["fail"] * 7      # first bad: 13
    tree, commits = history(tmp_path, states)
    folder = tmp_path / "results"
    said = []
    assert mesa_bisect.run(plan_for(tree, commits), folder, said.append, step_command=fake_steps(folder)) == 0
    result = json.loads((folder / "result.json").read_text())
    assert result["first"] == commits[13] and result["subject"] == "commit 13: fail"
    assert result["verify"]["parent"]["passes"] is True and result["verify"]["commit"]["passes"] is False
    assert f"bisect: first bad commit: {commits[13][:12]} commit 13: fail ({result['steps']} steps)" in said
    assert len(judged(folder)) == len(set(judged(folder)))
    assert not mesa_bisect.bisecting(tree)                      # the tree is back where it was
    assert (tree / "state").read_text().strip() == "fail"


def test_first_fixed_commit(tmp_path, fake_steps):
    tree, commits = history(tmp_path, ["fail"] * 6 + ["pass"] * 5)     # first fixed: 6
    folder = tmp_path / "results"
    said = []
    assert mesa_bisect.run(plan_for(tree, commits, fixed=True), folder, said.append,
                           step_command=fake_steps(folder)) == 0
    assert json.loads((folder / "result.json").read_text())["first"] == commits[6]
    assert any(line.startswith(f"bisect: first fixed commit: {commits[6][:12]}") for line in said)
    steps = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]
    assert {s["verdict"] for s in steps} <= {"broken", "fixed"}


def test_adjacent_commits_need_no_step_and_are_verified(tmp_path, fake_steps):
    """--good the parent of --bad: the candidate a developer read in the history, built and run."""
    tree, commits = history(tmp_path, ["fail", "fail", "pass"])
    folder = tmp_path / "results"
    plan = mesa_bisect.Plan(tree=str(tree), good=commits[1], bad=commits[2], target="llvmpipe", cases=(CASE,),
                            fixed=True, build_dir=str(tree / "build"))
    assert mesa_bisect.run(plan, folder, [].append, step_command=fake_steps(folder)) == 0
    result = json.loads((folder / "result.json").read_text())
    assert result["first"] == commits[2] and result["steps"] == 0 and result["verify"]["holds"]


def test_skips_that_leave_the_answer_open_say_so(tmp_path, fake_steps):
    tree, commits = history(tmp_path, ["pass"] * 4 + ["nobuild"] * 2 + ["fail"] * 3)
    folder = tmp_path / "results"
    said = []
    assert mesa_bisect.run(plan_for(tree, commits), folder, said.append, step_command=fake_steps(folder)) == 1
    assert any(line.startswith("bisect: no first bad commit:") for line in said), said
    assert not (folder / "result.json").exists()


@pytest.mark.parametrize("lose_tree_state", [False, True], ids=["continued", "replayed"])
def test_a_killed_bisection_resumes_where_it_stopped(tmp_path, fake_steps, lose_tree_state):
    tree, commits = history(tmp_path, ["pass"] * 37 + ["fail"] * 27)     # first bad: 37, 6 steps
    folder = tmp_path / "results"
    plan = plan_for(tree, commits)
    (tmp_path / "kill-after").write_text("3")
    driver = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from harness.triage import mesa_bisect
        plan = mesa_bisect.Plan(**{{**json.loads(sys.argv[1]), "cases": tuple(json.loads(sys.argv[1])["cases"]),
                                    "shader_tests": ()}})
        sys.exit(mesa_bisect.run(plan, Path(sys.argv[2]), verify_result=False,
                                 step_command={fake_steps(folder)!r}))
    """)
    proc = subprocess.run([sys.executable, "-c", driver, json.dumps(mesa_bisect.asdict(plan)), str(folder)],
                          cwd=ROOT, start_new_session=True, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    before = judged(folder)
    assert len(before) == 3
    (tmp_path / "kill-after").unlink()
    if lose_tree_state:                          # a fresh checkout: only the results folder knows
        subprocess.run(["git", "-C", str(tree), "bisect", "reset"], check=True, capture_output=True)
    said = []
    assert mesa_bisect.run(plan, folder, said.append, step_command=fake_steps(folder)) == 0
    after = judged(folder)
    assert after[:3] == before and len(after) == len(set(after))          # nothing judged twice
    assert json.loads((folder / "result.json").read_text())["first"] == commits[37]
    assert ("bisect: replaying" if lose_tree_state else "bisect: resuming") in "\n".join(said)


def test_a_results_folder_of_another_bisection_is_refused(tmp_path, fake_steps):
    tree, commits = history(tmp_path, ["pass"] * 3 + ["fail"] * 3)
    folder = tmp_path / "results"
    folder.mkdir()
    other = plan_for(tree, commits[:4])
    (folder / "run.json").write_text(json.dumps(mesa_bisect.asdict(other)))
    with pytest.raises(mesa_bisect.BisectError, match="holds another bisection"):
        mesa_bisect.run(plan_for(tree, commits), folder, step_command=fake_steps(folder))


def test_steps_that_do_not_build_say_why(tmp_path, fake_steps):
    """Every step skipped as not building (the machine lacking a dependency, say): each says why
    on stderr as it comes, and the final line says the builds failed and where their log is."""
    tree, commits = history(tmp_path, ["pass"] + ["nobuild"] * 6 + ["fail"])
    folder = tmp_path / "results"
    said, warned = [], []
    assert mesa_bisect.run(plan_for(tree, commits), folder, said.append, step_command=fake_steps(folder),
                           err=warned.append) == 1
    assert len(warned) == 6 and all('Dependency "libzstd" not found' in line for line in warned), warned
    assert said[-1].startswith("bisect: no first bad commit: every step was skipped, 6 of 6 because the build "
                               'failed (last: meson setup failed (exit 1): ERROR: Dependency "libzstd" not found')
    assert said[-1].endswith(f"build log: {folder / 'build.log'}")


def test_a_failed_commands_line_names_the_cause():
    meson = ("Run-time dependency libzstd found: NO (tried pkgconfig and cmake)\n\n"
             'meson.build:1662:15: ERROR: Dependency "libzstd" not found, tried pkgconfig and cmake\n\n'
             "A full log can be found at /b/meson-logs/meson-log.txt\n")
    ninja = ("[1/9] Compiling C object a.o\nFAILED: src/a.o\ncc -c ../src/a.c\n"
             "../src/a.c:3:10: fatal error: zstd.h: No such file or directory\n../src/b.c:1:1: error: later\n"
             "compilation terminated.\nninja: build stopped: subcommand failed.\n")
    assert mesa_build.failure_line(meson) == 'meson.build:1662:15: ERROR: Dependency "libzstd" not found, tried pkgconfig and cmake'
    assert mesa_build.failure_line(ninja) == "../src/a.c:3:10: fatal error: zstd.h: No such file or directory"
    assert mesa_build.failure_line("E: Unable to locate package llvm-99-dev\n\n") == "E: Unable to locate package llvm-99-dev"


def test_a_build_error_names_its_own_commands_cause_not_an_earlier_one(tmp_path):
    log_path = tmp_path / "build.log"
    log_path.write_text("ERROR: an earlier step's failure\n")
    with open(log_path, "a") as log, pytest.raises(mesa_build.BuildError) as caught:
        mesa_build._run(["sh", "-c", "echo configuring; echo 'ERROR: Dependency \"libzstd\" not found'; exit 1"],
                        log, "meson setup")
    assert str(caught.value) == f'meson setup failed (exit 1): ERROR: Dependency "libzstd" not found; log: {log_path}'


def test_a_checkout_cut_short_by_a_kill_is_redone(tmp_path, fake_steps):
    """A bisection SIGKILLed while git checked out its next commit: HEAD still at the commit just
    judged, the index.lock git writes the new index to left behind, the work tree half written.
    git bisect run would judge the old commit on the new one's files, or stop on the lock; the
    same command removes the stale lock, checks out the commit git bisect expects and goes on."""
    tree, commits = history(tmp_path, ["pass"] * 37 + ["fail"] * 27)       # first bad: 37
    folder = tmp_path / "results"
    folder.mkdir()
    plan = plan_for(tree, commits)
    mesa_bisect.start(plan, folder, [].append)              # the bisection begun, its first commit out
    judged_commit = git(tree, "rev-parse", "HEAD")
    assert git(tree, "show", f"{judged_commit}:state") == "pass"
    git(tree, "bisect", "good")                             # what git bisect run marks; the next one out
    expected = git(tree, "rev-parse", "HEAD")
    assert git(tree, "show", f"{expected}:state") == "fail"
    # the checkout as a kill leaves it: HEAD not moved, one file of the next commit written
    git(tree, "checkout", "-q", "-f", "--detach", judged_commit)
    (tree / "state").write_text("fail\n")
    (tree / ".git" / "index.lock").write_bytes(b"")
    said = []
    assert mesa_bisect.run(plan, folder, said.append, step_command=fake_steps(folder)) == 0
    assert f"bisect: a checkout was cut short in {tree} (index.lock left); checked out {expected[:12]} again, " \
           "the commit git bisect tests next" in said
    assert judged(folder)[0] == expected and judged_commit not in judged(folder)
    assert json.loads((folder / "result.json").read_text())["first"] == commits[37]


def test_a_live_gits_lock_is_left_alone(tmp_path):
    tree, commits = history(tmp_path, ["pass", "pass", "fail"])
    folder = tmp_path / "results"
    folder.mkdir()
    plan = plan_for(tree, commits)
    mesa_bisect.start(plan, folder, [].append)
    (tree / ".git" / "index.lock").write_bytes(b"")
    # a git at work in the tree (waiting for its input), as a checkout of another terminal may be
    with subprocess.Popen(["git", "-C", str(tree), "cat-file", "--batch"], stdin=subprocess.PIPE,
                          stdout=subprocess.DEVNULL) as busy:
        try:
            with pytest.raises(mesa_bisect.BisectError, match=f"git \\(pid {busy.pid}\\) is still at work in"):
                mesa_bisect.start(plan, folder, [].append)
        finally:
            busy.kill()
    assert (tree / ".git" / "index.lock").exists()


@pytest.mark.parametrize("rate, error, runs", [(0.3, 0.01, 13), (1.0, 0.01, 1), (0.5, 0.01, 7), (0.9, 0.01, 2),
                                               (0.3, 0.05, 9)])
def test_runs_per_step(rate, error, runs):
    assert mesa_bisect.runs_per_step(rate, error) == runs
    assert (1 - rate) ** runs <= error + 1e-12 and (runs == 1 or (1 - rate) ** (runs - 1) > error)


@pytest.mark.parametrize("rate, error", [(0, 0.01), (1.5, 0.01), (0.3, 0), (0.3, 1)])
def test_runs_per_step_refuses_what_is_not_a_probability(rate, error):
    with pytest.raises(mesa_bisect.BisectError):
        mesa_bisect.runs_per_step(rate, error)


# A test of the repository's own, failing at random with rate RATE: one seed a run (a counter
# outside the tree), so each run's result varies and the whole bisection is the same every time.
FLAKY = """import random, sys
from pathlib import Path
RATE = {rate}
runs = Path(sys.argv[1])
n = int(runs.read_text()) if runs.exists() else 0
runs.write_text(str(n + 1))
sys.exit(1 if random.Random(n).random() < RATE else 0)
"""


def test_an_intermittent_failure_is_bisected_with_k_runs_a_step(tmp_path, monkeypatch):
    """A failure of rate 0.3 from a planted commit on (never before it), bisected by the same
    driver and step as `harness bisect --rate 0.3`, with the test command in place of a build
    and cases: 13 runs a step find the planted commit, verify it, and state how sure that is."""
    planted = 23
    tree, commits = history(tmp_path, ["-"] * 40, files=lambda i: {"flaky.py": FLAKY.format(rate=0.3 if i >= planted else 0)})
    counter = tmp_path / "runs"
    plan = mesa_bisect.Plan(tree=str(tree), good=commits[0], bad=commits[-1], target="llvmpipe", cases=(),
                            command=(sys.executable, "-I", "-S", "flaky.py", str(counter)), rate=0.3)
    assert plan.runs == 13
    folder = tmp_path / "results"
    monkeypatch.chdir(ROOT)
    said = []
    assert mesa_bisect.run(plan, folder, said.append) == 0, "\n".join(said)
    result = json.loads((folder / "result.json").read_text())
    assert result["first"] == commits[planted] and result["verify"]["holds"]
    steps = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]
    passing = [s for s in steps if s["verdict"] == "good"]
    assert passing and all(s["lines"][-1].endswith("passes (13 runs)") for s in passing)
    assert result["confidence"] == {"rate": 0.3, "runs_per_step": 13, "passing_steps": len(passing),
                                    "at_least": round(0.99 ** len(passing), 4)}
    assert f"bisect: 13 runs a step for a failure rate of 0.3: each of the {len(passing)} passing steps missed " \
           f"the failure with probability <= 0.01, so none did with probability >= {0.99 ** len(passing):.3f}" in said


def test_every_bisect_target_is_a_target_with_drivers_to_build():
    """Each target `harness bisect` takes is one the executor runs, and each driver it builds is
    one bin/build-mesa knows; zink-optimal (zink off its inlined uniforms) builds what zink does."""
    from harness.executor import targets as targets_mod
    for target, drivers in mesa_bisect.DRIVERS.items():
        assert targets_mod.get(target).name == target
        assert drivers and set(drivers) <= set(mesa_build.TARGET_DRIVERS)
    assert mesa_bisect.DRIVERS["zink-optimal"] == mesa_bisect.DRIVERS["zink"]
    assert mesa_bisect.command_parser().parse_args(["c", "--target", "zink-optimal"]).target == "zink-optimal"


def test_a_tree_whose_own_commit_git_cannot_check_out_again_is_still_ended(tmp_path):
    """A partial mirror (pop-os/mesa lacks a few blobs) can make `git bisect reset` fail; the
    bisection is then ended where the tree is, and said, so that the next one is not refused."""
    tree, commits = history(tmp_path, ["pass", "fail", "fail"])
    git(tree, "bisect", "start", commits[2], commits[0])
    (tree / ".git" / "BISECT_START").write_text("no-such-branch\n")     # what reset would check out
    said = []
    mesa_bisect.end(str(tree), said.append)
    assert not mesa_bisect.bisecting(tree)
    assert len(said) == 1 and said[0].startswith("bisect: git could not check out the tree's own commit again")
