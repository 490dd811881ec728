"""Shared helpers for the harness's own tests."""
from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from harness.base import plugins
from harness.sources import catalog
from harness.model.case import Case, Draw, DrawEntry, Expectation, Readback, Requirements

ROOT = Path(__file__).resolve().parents[2]
# This folder: its helpers (faults.py, postgres.py) and the corpora its tests share (shader_tests/,
# shader_tests_fidelity/, glsl_corpus/); the tests themselves sit in one folder per layer of harness/.
SELFTEST = ROOT / "tests" / "selftest"
# The Mesa every self-test that runs a real driver runs on: bookworm's 22.3.6 as bin/fetch-mesa
# fetched it, the same on any host, whose verdicts the tests are written against (Debian 13's
# own 25.0.7 has real defects where these tests plant theirs, e.g. zink's crash after
# glDeleteProgram, and its zink crashes intermittently in long-lived children:
# triage/mesa-25.0.7/); the system's Mesa where it has not been fetched (then the header says so).
#  - in this process: Executor(..., mesa=pinned_mesa()), probe(..., mesa=pinned_mesa());
#  - in the children a self-test starts (pytest, harness parallel/run/blame/explore/...):
#    $HARNESS_MESA, the default --mesa, set here for the whole session. A test about the system's
#    Mesa itself says so and takes HARNESS_MESA out of its child's environment (mesa/test_runtime,
#    run/test_gating, harness matrix --mesa system).
# static/test_pinned_mesa.py checks that no self-test starts a real driver otherwise.
PINNED_MESA = ROOT / "mesa" / "22.3.6-1+deb12u2"
# The self-tests' own backends and targets (faults.py: fault injection), added as any plugin adds
# them; every executor started here hands the plugin on to its children.
plugins.load([str(SELFTEST / "faults.py")])

# The children a self-test starts import this checkout's harness. A child started in another
# folder (a test's tmp_path tree) otherwise imports whatever the venv's editable install points
# at: in a worktree sharing another checkout's .venv, that checkout's harness, mid-edit or not
# (seen 2026-11-26: every tmp-tree pytest of a worktree's self-tests failing on the other
# checkout's half-restructured plugin).
os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(filter(None, [str(ROOT), *os.environ.get(
    "PYTHONPATH", "").split(os.pathsep)])))
# The hundreds of Python processes the self-tests start (a child pytest, a harness command, an
# executor child) compile this checkout's modules once into __pycache__ (ignored by git) and load
# them from there after; where PYTHONDONTWRITEBYTECODE is set (many containers set it), each child
# compiled every module it imports again, and each child pytest rewrote its plugins' modules again:
# about a second of CPU a child. docs/ci.md, "The self-tests".
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
PINNED = (PINNED_MESA / ".fetched").exists()
if PINNED:
    os.environ["HARNESS_MESA"] = str(PINNED_MESA)


@functools.cache
def pinned_mesa():
    """The pinned Mesa as a harness.mesa.runtime.Build, for executors in this process (None: the system's)."""
    from harness.mesa import runtime
    return runtime.locate(PINNED_MESA) if PINNED else None


def pinned_args() -> list[str]:
    """--mesa for the pinned Mesa on a command line (none where it has not been fetched), as one
    word: a path as a word of its own on pytest's command line moves its rootdir (run/test_gating)."""
    return [f"--mesa={PINNED_MESA}"] if PINNED else []


SYSTEM_ONLY_ENV = {k: v for k, v in os.environ.items() if k != "HARNESS_MESA"}


def on_the_systems_mesa(cases: dict[str, list[str]]):
    """For the few tests that can only run on the system's Mesa (what they need does not load
    into a fetched Mesa of another release: GLX under GLFW, the distribution's Vulkan validation
    layer): None, the system's Mesa, after checking that none of `cases` (target -> case ids) is
    a known defect of it (its baselines/mesa-<version>.csv or -flakes.txt, as --baseline auto
    finds them); a test whose case the host's Mesa is known to fail is skipped, saying which."""
    from harness.run import baseline, gating
    gate = gating.choose([], [], None)
    expected = baseline.load([ROOT / path for path in gate.baselines]) if gate.baselines else {}
    flakes = baseline.load_flakes([ROOT / path for path in gate.flakes]) if gate.flakes else []
    for target, ids in cases.items():
        for case_id in ids:
            if baseline.lookup(expected, case_id, target) or baseline.matching_flakes(flakes, case_id, target):
                pytest.skip(f"{case_id}[{target}] is a known defect of the system's Mesa ({gate.line}); "
                            f"this test needs the system's Mesa")
    return None


def pytest_report_header(config):
    if PINNED:
        return [f"selftest: real drivers run on the pinned Mesa {PINNED_MESA.relative_to(ROOT)} "
                f"(HARNESS_MESA, tests/selftest/conftest.py)"]
    return [f"selftest: {PINNED_MESA.relative_to(ROOT)} not fetched (bin/fetch-mesa 22.3.6-1+deb12u2): "
            f"real drivers run on the system's Mesa"]


def family(name: str):
    """A family's generator module (a package of sub-family modules), loaded as the plugin loads it."""
    return catalog.family_module(ROOT / "tests" / name / "cases.py")


def fault_case(fault: str, value: int = 7, expected: int = 7) -> Case:
    """A case for the fault backend (faults.py): it reports `value`, the case expects `expected`."""
    return Case(id=f"selftest/fault/{fault}", family="selftest", shaders=(),
                requires=Requirements(), vertices=0, attributes=(),
                steps=(Draw("DrawArrays", "POINTS", (DrawEntry(1),)),), readback=Readback(),
                expect=(Expectation(0, counts=(("primitives_generated", expected),)),),
                params=(("fault", fault), ("value", value)))


@pytest.fixture(scope="session", autouse=True)
def children_without_hypothesis_plugin():
    """Hypothesis' pytest plugin imports the whole of Hypothesis in every pytest's terminal summary
    (0.3 s of CPU). The child pytests the self-tests start run the harness's plugin on case
    families, never a Hypothesis test, so theirs is left out; set here, where the tests run (an
    xdist worker, started before), so that this session's own Hypothesis tests keep it."""
    os.environ["PYTEST_ADDOPTS"] = " ".join(filter(None, [os.environ.get("PYTEST_ADDOPTS"), "-p no:hypothesispytest"]))


@functools.cache
def generated(name: str) -> tuple[Case, ...]:
    """A family's cases, generated once in a process and shared by its tests (tess takes a second
    of CPU; model/test_case.py generates again where generating is what it checks)."""
    return tuple(family(name).generate())


@pytest.fixture(scope="session")
def tess_cases():
    return {case.id: case for case in generated("tess")}


@pytest.fixture(scope="session")
def draw_params_cases():
    return {case.id: case for case in generated("draw_params")}


@pytest.fixture(scope="session")
def varyings_cases():
    return {case.id: case for case in generated("varyings")}


@pytest.fixture(scope="module", params=["llvmpipe", "zink"])
def executor(request):
    """An executor on each real GL target, shared by a test module's cases."""
    from harness.executor.executor import Executor
    from harness.executor.targets import get
    ex = Executor(get(request.param), case_timeout=60, fork=True, mesa=pinned_mesa())     # as the plugin's children
    if ex.info().status != "ok":
        pytest.fail(f"target {request.param} did not start: {ex.info().message}")
    yield ex
    ex.close()
