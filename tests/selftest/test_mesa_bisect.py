"""`harness bisect`'s driver on a small git repository of its own: git bisect run driven to the
first bad (or fixed) commit, a step that does not build skipped, an answer that skips leave
open said so, and a bisection killed mid-step resumed where it stopped (from the tree's state,
or replayed from the results folder) without judging a commit twice. A step here reads the
commit's `state` file instead of building Mesa; the real bisections are in triage/ and
bench/mesa_from_source.sh."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.triage import mesa_bisect

ROOT = Path(__file__).resolve().parents[2]
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
        return {"pass": (0, 0.0, 0.0), "fail": (1, 0.0, 0.0), "nobuild": (125, 0.0, 0.0)}[state]

    mesa_bisect.run_at = run_at
    sys.exit(mesa_bisect.step(Path(sys.argv[1])))
""")


def history(tmp_path: Path, states: list[str]) -> tuple[Path, list[str]]:
    """A repository whose commit i has `state` = states[i]; returns it and the commit hashes."""
    tree = tmp_path / "tree"
    tree.mkdir()
    git = ["git", "-C", str(tree), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    commits = []
    for i, state in enumerate(states):
        (tree / "state").write_text(state + "\n")
        subprocess.run([*git, "add", "state"], check=True)
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
