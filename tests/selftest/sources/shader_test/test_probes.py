"""The checking commands (harness/sources/shader_test/probes.py): colour probes, atomic
counters, storage buffer values and program queries."""
from __future__ import annotations

import pytest

from harness.model.case import Read
from harness.sources.shader_test import commands
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.sections import Script


def run(b: Builder, *texts: str) -> None:
    for number, text in enumerate(texts, 1):
        commands.run(b, number, text)


@pytest.mark.parametrize("text, rect", [
    ("probe all rgba 1 0 0 1", (0, 0, 250, 250)),
    ("probe rect rgb (10, 20, 30, 40) (1, 0, 0)", (10, 20, 30, 40)),
    ("probe rgba 3 4 1 0 0 1", (3, 4, 1, 1)),
    ("relative probe rgba (1.0, 0.5) (0, 1, 0, 1)", (249, 125, 1, 1)),
    ("relative probe rect rgb (0.5, 0.5, 0.5, 0.5) (0, 1, 0)", (125, 125, 125, 125)),
])
def test_colour_probes_cover_their_rectangle(text, rect):
    b = Builder(Script())
    run(b, text)
    (probe,) = b.checks.probes[0]
    assert (probe.x, probe.y, probe.width, probe.height) == rect
    assert probe.tolerance == (3.0 / 256,) * 4
    assert b.steps == [Read("read back after the start", image=True)]


def test_a_probe_outside_the_window_is_unsupported():
    with pytest.raises(Unsupported, match="outside the 250x250 window"):
        run(Builder(Script()), "probe rect rgba (200, 0, 100, 1) (0, 0, 0, 0)")


def test_atomic_counters_are_made_once_and_probed_by_index():
    b = Builder(Script())
    run(b, "atomic counters 2", "probe atomic counter 1 == 5")
    assert b.atomic_counters == 2 and b.checks.counts == {0: [("atomic counter 1", 5)]}
    with pytest.raises(Unsupported, match="counter 2, the file makes 2"):
        run(b, "probe atomic counter 2 == 0")
    with pytest.raises(Unsupported, match="once, before any draw"):
        run(b, "atomic counters 3")


def test_storage_probes_read_their_binding_and_uint_wraps():
    b = Builder(Script())
    run(b, "probe ssbo uint 0 4 == -1", "probe ssbo float 1 0 < 0.1")
    first, second = b.checks.storage[0]
    assert (first.type, first.value) == ("uint", 0xFFFFFFFF)
    assert second.value != 0.1 and abs(second.value - 0.1) < 1e-8 and second.binding == 1
    assert b.rebound == "`probe ssbo` of binding 1 (line 2)"
    with pytest.raises(Unsupported, match="int, uint and float probes with"):
        run(b, "probe ssbo double 0 0 == 1")


def test_program_queries_take_an_integer_or_a_type_enum():
    b = Builder(Script())
    run(b, "active uniform u GL_UNIFORM_TYPE GL_FLOAT_VEC4",
        "verify program_interface_query GL_PROGRAM_INPUT v GL_LOCATION 3")
    values = b.checks.queries[0]
    assert [(v.enum, v.value) for v in values] == [(True, 0x8B52), (False, 3)]
    assert [q.interface for q in b.steps[0].queries] == ["", "GL_PROGRAM_INPUT"]
    with pytest.raises(Unsupported, match="program interface GL_NOPE"):
        run(b, "verify program_interface_query GL_NOPE v GL_LOCATION 3")
