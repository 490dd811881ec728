"""Shared helpers for the harness's own tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.base import plugins
from harness.sources import catalog
from harness.model.case import Case, Draw, DrawEntry, Expectation, Readback, Requirements

ROOT = Path(__file__).resolve().parents[2]
# The Mesa the planted-failure tests run on: bookworm's 22.3.6 as bin/fetch-mesa fetched it, the
# same on any host (Debian 13's own 25.0.7 has real defects where these tests plant theirs, e.g.
# zink's crash after glDeleteProgram); the system's Mesa where it has not been fetched.
PINNED_MESA = ROOT / "mesa" / "22.3.6-1+deb12u2"
# The self-tests' own backends and targets (faults.py: fault injection), added as any plugin adds
# them; every executor started here hands the plugin on to its children.
plugins.load([str(Path(__file__).resolve().parent / "faults.py")])


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


@pytest.fixture(scope="session")
def tess_cases():
    return {case.id: case for case in family("tess").generate()}


@pytest.fixture(scope="session")
def draw_params_cases():
    return {case.id: case for case in family("draw_params").generate()}


@pytest.fixture(scope="session")
def varyings_cases():
    return {case.id: case for case in family("varyings").generate()}


@pytest.fixture(scope="module", params=["llvmpipe", "zink"])
def executor(request):
    """An executor on each real GL target, shared by a test module's cases."""
    from harness.mesa import runtime as mesa
    from harness.executor.executor import Executor
    from harness.executor.targets import get
    pinned = mesa.locate(PINNED_MESA) if (PINNED_MESA / ".fetched").exists() else None
    ex = Executor(get(request.param), case_timeout=60, fork=True, mesa=pinned)     # as the plugin's children
    if ex.info().status != "ok":
        pytest.fail(f"target {request.param} did not start: {ex.info().message}")
    yield ex
    ex.close()
