"""The case a shader_test becomes (harness/sources/shader_test/builder.py): Read steps that
gather the checks at a line, and the checks of a file once its commands ran."""
from __future__ import annotations

import pytest

from harness.model.case import Draw, DrawEntry, Link, ProgramQuery, Read, SetState
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.sections import Script


def test_checks_at_one_line_share_one_read_after_storage_buffers_are_made():
    b = Builder(Script())
    b.draw("DrawArrays", "POINTS", (DrawEntry(1),), "draw arrays (line 3)")
    b.state.pending_storage.append((0, 16))
    query = ProgramQuery("q", "", "u", "GL_UNIFORM_TYPE")
    assert b.read(5, image=True) == 2
    assert b.read(6, storage=(0,), queries=(query,)) == 2
    assert isinstance(b.steps[1], SetState) and b.steps[1].state.storage_buffers == ((0, 16),)
    assert b.steps[2] == Read("read back after draw arrays (line 3)", image=True, storage=(0,), queries=(query,))


def test_a_storage_probe_of_another_binding_stops_later_draws():
    b = Builder(Script())
    b.rebound = "`probe ssbo` of binding 1 (line 4)"
    with pytest.raises(Unsupported, match="leaves that buffer bound"):
        b.draw("DrawArrays", "POINTS", (DrawEntry(1),), "draw arrays (line 5)")


def test_a_file_without_steps_checks_the_link_and_one_without_probes_gl_errors():
    b = Builder(Script())
    b.finish()
    assert b.steps == [Link("link success (shader_runner links the program first)")]
    assert b.checks.counts == {0: [("link_failed", 0)]}
    b = Builder(Script())
    b.draw("DrawArrays", "POINTS", (DrawEntry(1),), "draw")
    b.finish()
    assert b.checks.gl_error and b.checks.counts == {0: [("gl_error", 0)]}
    assert isinstance(b.steps[0], Draw)


def test_a_skipped_case_keeps_what_it_asked_for_and_checks_nothing():
    b = Builder(Script())
    b.context.gl, b.unsupported = (4, 5), "shader_test: unsupported x"
    b.checks.counts = {0: [("gl_error", 0)]}
    case = b.case("shader_test/a", "a.shader_test")
    assert case.requires.gl_version == (4, 5) and case.requires.unsupported == "shader_test: unsupported x"
    assert case.expect == () and case.params == (("source", "a.shader_test"),)
