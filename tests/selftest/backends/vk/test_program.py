"""harness/backends/vk/program.py: what the layer knows of a program; GLSL it cannot model is
the harness layer's fault (a TranslationError, status `error`), naming the stage."""
from __future__ import annotations

import pytest

from harness.backends.vk.program import FIXED_FUNCTION_FS, Program, TranslationError, models
from harness.base.errors import LayerFault

VS = "#version 330\nout vec4 v;\nvoid main() { v = vec4(1.0); gl_Position = vec4(0.0); }\n"


def test_each_stage_is_modelled_once():
    program = Program({"vs": VS, "fs": "#version 330\nin vec4 v;\nout vec4 c;\nvoid main() { c = v; }\n"},
                      frozenset())
    shaders = models(program)
    assert set(shaders) == {"vs", "fs"} and models(program) is shaders
    assert [x.name for d in shaders["vs"].variables("out") for x in d.declarators] == ["v"]


def test_a_program_without_fs_that_renders_gets_gl_fixed_function_fragment_stage():
    program = Program({"vs": VS}, frozenset(), fixed_function_fs=True)
    assert set(models(program)) == {"vs", "fs"} and program.shaders["fs"] == FIXED_FUNCTION_FS
    assert set(models(Program({"vs": VS}, frozenset()))) == {"vs"}


def test_glsl_the_layer_cannot_model_is_a_layer_fault_naming_the_stage():
    with pytest.raises(TranslationError) as raised:
        models(Program({"vs": "void main() { gl_Position = vec4(0.0);"}, frozenset()))
    assert isinstance(raised.value, LayerFault)
    assert str(raised.value).startswith("harness layer: cannot translate the GLSL: VS: "), str(raised.value)
