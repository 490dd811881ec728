"""Shared helpers for the harness's own tests."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from harness.case import Case, Draw, DrawEntry, DrawExpectation, Readback, Requirements

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tess"))     # the tess family's generator, as `cases`


def family(name: str):
    """A family's generator module, loaded the way the plugin loads it."""
    spec = importlib.util.spec_from_file_location(f"selftest_family_{name}", ROOT / "tests" / name / "cases.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def fault_case(fault: str, value: int = 7, expected: int = 7) -> Case:
    """A case for the test-only fault backend: it reports `value`, the case expects `expected`."""
    return Case(id=f"selftest/fault/{fault}", family="selftest", shaders=(),
                requires=Requirements(), vertices=0, attributes=(),
                draws=(Draw("DrawArrays", "POINTS", (DrawEntry(1),)),), readback=Readback(),
                expect=(DrawExpectation(0, counts=(("primitives_generated", expected),)),),
                params=(("fault", fault), ("value", value)))


@pytest.fixture(scope="session")
def tess_cases():
    import cases
    return {case.id: case for case in cases.generate()}


@pytest.fixture(scope="session")
def draw_params_cases():
    return {case.id: case for case in family("draw_params").generate()}


@pytest.fixture(scope="session")
def varyings_cases():
    return {case.id: case for case in family("varyings").generate()}


@pytest.fixture(scope="module", params=["llvmpipe", "zink"])
def executor(request):
    """An executor on each real GL target, shared by a test module's cases."""
    from harness.executor import Executor
    from harness.targets import get
    ex = Executor(get(request.param), case_timeout=60)
    if ex.info().status != "ok":
        pytest.fail(f"target {request.param} did not start: {ex.info().message}")
    yield ex
    ex.close()
