"""[vertex data] as attributes (harness/sources/shader_test/vertex_data.py)."""
from __future__ import annotations

import pytest

from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.sections import split
from harness.sources.shader_test.state import Vertices
from harness.sources.shader_test.vertex_data import read_vertex_data

VS = ("vs", "#version 330\nlayout(location = 3) in mat2 m;\nin vec4 piglit_vertex;\nin float w;\n"
            "void main() { gl_Position = piglit_vertex; }\n")


def read(data: str, shaders=(VS,), test: str = "") -> Vertices:
    vertices = Vertices()
    read_vertex_data(vertices, split(f"[vertex data]\n{data}[test]\n{test}"), list(shaders))
    return vertices


def test_columns_get_locations_explicit_ones_first():
    vertices = read("piglit_vertex/float/2 w/float/1 m/float/2/0 m/float/2/1\n"
                    "1 2 3 4 5 6 7\n8 9 10 11 12 13 14\n")
    assert {name: c.location for name, c in vertices.columns.items()} == \
        {"piglit_vertex": 0, "w": 1, "m/0": 3, "m/1": 4}
    assert vertices.columns["m/1"].data == [6.0, 7.0, 13.0, 14.0]
    assert vertices.rows == 2


def test_int_columns_are_read_as_integers():
    vertices = read("piglit_vertex/float/2 k/int/1\n1 2 0x10\n", shaders=())
    assert vertices.columns["k"].data == [16] and vertices.types["k"] == "int"


@pytest.mark.parametrize("data, message", [
    ("v/double/1\n1\n", "float, int and uint columns only"),
    ("piglit_vertex/float/2\n1 2 3\n", "3 values, the header names 2"),
    ("q/float/2/1\n1 2\n", "no location for 'q'"),
    ("piglit_vertex/float/2\n1 x\n", "could not convert string to float: 'x'"),
])
def test_what_it_cannot_read_is_unsupported(data, message):
    with pytest.raises(Unsupported, match=message):
        read(data, shaders=())
