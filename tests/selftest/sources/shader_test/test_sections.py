"""A shader_test split into sections (harness/sources/shader_test/sections.py)."""
from __future__ import annotations

from harness.sources.shader_test.sections import split

TEXT = """\
[require]
/* a comment
 * block */
GLSL >= 1.10  # trailing comment

[vertex shader passthrough]

[fragment shader]
void main() { # kept: shader text is not a comment
}

[fragment shader]
void helper() {}

[vertex data]
piglit_vertex/float/2
-1 -1

[test]
draw arrays GL_POINTS 0 1
# a comment line
"""


def test_sections_are_split_and_comments_dropped_outside_shaders():
    script = split(TEXT)
    assert script.require == [(4, "GLSL >= 1.10")]
    assert script.passthrough_vs
    assert [(stage, line) for stage, _, line in script.shaders] == [("fs", 9), ("fs", 13)]
    assert "# kept" in script.shaders[0][1]
    assert script.vertex_data == [(16, "piglit_vertex/float/2"), (17, "-1 -1")]
    assert script.test == [(20, "draw arrays GL_POINTS 0 1")]
    assert script.unsupported == []


def test_an_unknown_section_is_noted_with_its_line():
    script = split("[require]\nGLSL >= 1.10\n[fancy section]\nx\n")
    assert script.unsupported == ["section [fancy section] (line 3)"]
    assert script.require == [(2, "GLSL >= 1.10")]
