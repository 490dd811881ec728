"""[require] as a context and the program's shaders (harness/sources/shader_test/requirements.py)."""
from __future__ import annotations

import pytest

from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.requirements import add_program, read_requirements
from harness.sources.shader_test.sections import split
from harness.sources.shader_test.state import Context


def read(*lines: str) -> Context:
    context = Context()
    read_requirements(context, list(enumerate(lines, 1)))
    return context


def test_each_requirement_sets_the_context():
    context = read("GL COMPAT >= 3.2", "GLSL >= 1.50", "GL_ARB_foo", "!GL_ARB_bar", "INT GL_MAX_VARYING_COMPONENTS >= 64",
                   "SSO ENABLED", "rlimit 1024", "SIZE 64 32")
    assert (context.gl, context.glsl, context.profile) == ((3, 2), 150, "compat")
    assert (context.extensions, context.absent) == (["GL_ARB_foo"], ["GL_ARB_bar"])
    assert context.limits == [("GL_MAX_VARYING_COMPONENTS", ">=", 64)]
    assert (context.separable, context.address_space, context.size) == (True, 1024, (64, 32))


def test_the_glsl_version_raises_the_gl_version_and_picks_the_profile():
    assert (read("GLSL >= 1.40").gl, read("GLSL >= 1.40").profile) == ((3, 1), "core")
    assert read("GLSL >= 1.30").profile == "compat"


@pytest.mark.parametrize("lines, message", [
    (("GL >= 3.0", "fancy"), r"requirement 'fancy' \(line 2\)"),
    (("GL >= 3.0",), "no GLSL requirement"),
    (("GL >= 3.0", "GLSL >= 3.00"), "not desktop GLSL"),
])
def test_what_it_cannot_read_is_unsupported_and_what_came_before_stays(lines, message):
    context = Context()
    with pytest.raises(Unsupported, match=message):
        read_requirements(context, list(enumerate(lines, 1)))
    assert context.gl == (3, 0)


def test_shaders_get_the_required_version_and_the_passthrough_vs():
    shaders: list[tuple[str, str]] = []
    add_program(shaders, split("[vertex shader passthrough]\n[fragment shader]\nvoid main() {}\n"), 130)
    assert shaders[0][0] == "vs" and shaders[0][1].startswith("#version 130\nin vec4 piglit_vertex;")
    assert shaders[1] == ("fs", "#version 130\nvoid main() {}\n")
    with pytest.raises(Unsupported, match="no shader"):
        add_program([], split("[require]\n"), 110)
