"""Self-tests of harness/glsl/templates.py: GLSL templates rendered per case, each compiled once."""
from __future__ import annotations

import pytest
from jinja2 import UndefinedError

from harness.glsl import templates


def test_render_fills_a_template_and_its_imports(tmp_path):
    (tmp_path / "lib.glsl").write_text("{% macro decl(t, n) %}{{ t }} {{ n }};{% endmacro %}")
    (tmp_path / "a.vert").write_text('{% import "lib.glsl" as lib %}\n#version {{ v }}\n{{ lib.decl("vec4", "x") }}\n')
    assert templates.render(tmp_path / "a.vert", v=450) == "#version 450\nvec4 x;\n"
    assert templates.render(str(tmp_path / "a.vert"), v=110) == "#version 110\nvec4 x;\n"
    with pytest.raises(UndefinedError):                    # StrictUndefined: a missing parameter is an error
        templates.render(tmp_path / "a.vert")


def test_a_template_is_compiled_once_a_process(tmp_path):
    path = tmp_path / "b.frag"
    path.write_text("{{ x }} first\n")
    assert templates.render(path, x=1) == "1 first\n"
    path.write_text("{{ x }} edited under a running harness\n")       # not read again: no stat per render
    assert templates.render(path, x=2) == "2 first\n"


def test_macros_are_callable_from_python(tmp_path):
    (tmp_path / "values.glsl").write_text("{% macro twice(a) %}({{ a }} * 2){% endmacro %}")
    assert str(templates.macros(tmp_path / "values.glsl").twice("k")) == "(k * 2)"


def test_plain_parameters_render_once_and_equal_values_of_other_types_apart(tmp_path):
    path = tmp_path / "c.tese"
    path.write_text("{{ x }} {{ y }}\n")
    hits = templates._rendered.cache_info().hits
    assert templates.render(path, x=1, y="a") == templates.render(path, y="a", x=1) == "1 a\n"
    assert templates._rendered.cache_info().hits == hits + 1          # the second: remembered
    assert templates.render(path, x=True, y=None) == "True None\n"     # True == 1, rendered apart
    assert templates.render(path, x=0, y=False) == "0 False\n"
    assert templates.render(path, x=-0.0, y=[1]) == "-0.0 [1]\n"      # floats, lists: rendered each time
    assert templates.render(path, x=0.0, y=[1]) == "0.0 [1]\n"
