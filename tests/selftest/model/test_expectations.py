"""What a case reads back and expects (harness/model/expectations.py): frozen values, and the
checks the case makes on them."""
from __future__ import annotations

import dataclasses

import pytest

from harness.model import expectations
from harness.model.case import Case, CaseError, Draw, DrawEntry, Requirements


def test_every_expectation_class_is_frozen():
    classes = [c for c in vars(expectations).values() if dataclasses.is_dataclass(c)]
    assert len(classes) >= 11
    readback = expectations.Readback()
    with pytest.raises(dataclasses.FrozenInstanceError):
        readback.clear = 0.0          # type: ignore[misc]
    assert all(c.__dataclass_params__.frozen for c in classes)


@pytest.mark.parametrize("captures, message", [
    ((expectations.Capture("v", "mat4", "v"),), "cannot capture GLSL type"),
    ((expectations.Capture("a", "vec4", "q"), expectations.Capture("b", "vec4", "q")), "same quantity"),
])
def test_a_case_refuses_captures_it_cannot_read(captures, message):
    with pytest.raises(CaseError, match=message):
        Case("tess/x", "tess", (("vs", ""),), Requirements(), 1, (), (Draw("DrawArrays", "POINTS", (DrawEntry(1),)),),
             expectations.Readback(captures=captures), ())
    assert set(expectations.CAPTURE_TYPES) >= {"float", "ivec4", "uvec3"}
