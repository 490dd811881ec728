"""Shared helpers for the harness's own tests."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from harness.case import Case, Draw, DrawEntry, DrawExpectation, Readback, Requirements

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tess"))     # the tess family's generator, as `cases`


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
