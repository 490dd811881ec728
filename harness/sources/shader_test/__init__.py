"""piglit shader_runner files (`.shader_test`) as harness Cases.

A shader_test is a script: `[require]`, one section per shader stage, optional `[vertex data]`,
and a `[test]` section of commands run in order against one framebuffer (piglit's window:
250x250 RGBA8 unless `SIZE` says otherwise). The importer plays the script's state forward and
writes each drawing command as a harness Draw carrying the state in effect for it (patch
parameters, enables, clip planes, uniforms set since the previous draw, a pending clear), and
each probe as a Probe checked on the image read back after the last draw before it.

What the importer does not support (a command, a section, a requirement it does not know) makes
the case `skip`, naming the first such line: a file never passes on the part the harness
understood while ignoring the rest.

Semantics follow piglit's documented shader_runner behaviour: a shader without `#version` gets
the `GLSL >=` requirement's version; the context is compatibility for GL < 3.1 requirements,
core from 3.1 unless `GL COMPAT` is asked for; `draw rect` draws a triangle strip
(x, y) (x+w, y) (x, y+h) (x+w, y+h) through attribute 0 (`piglit_vertex`, which aliases
`gl_Vertex` in compatibility contexts), and `draw rect tex` its coordinates through attribute 1
(`piglit_texcoord`), or, in a compatibility context whose program has no `piglit_vertex`, through
the texture coordinate array of gl_MultiTexCoord0; `ortho` loads glOrtho(0, w, 0, h, -1, 1) as the
projection; probe tolerance defaults to 3/256 a channel (an 8-bit channel) and a channel
passes when |observed - expected| <= tolerance. `atomic counters N` binds N zeroed counters at
GL_ATOMIC_COUNTER_BUFFER binding 0 and `probe atomic counter I == V` reads counter I at its line.
A file that draws but probes nothing passes in shader_runner when its program links and its
commands run; the harness checks that, and that no step leaves a GL error.

The parts: sections.py splits the file, requirements.py reads [require] and the shaders,
vertex_data.py [vertex data], commands.py is the [test] command table (draws.py and probes.py
hold its drawing and checking commands), state.py the parse state, builder.py the case made of it.
"""
from __future__ import annotations

from pathlib import Path

from harness.model.case import Case
from harness.sources.shader_test import commands
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.ids import FAMILY, case_id
from harness.sources.shader_test.requirements import add_program, read_requirements
from harness.sources.shader_test.sections import split
from harness.sources.shader_test.vertex_data import read_vertex_data

__all__ = ["FAMILY", "Unsupported", "case_id", "load", "to_case"]


def load(path: Path, id_: str | None = None) -> Case:
    path = Path(path)
    return to_case(path.read_text(errors="replace"), id_ or case_id(path), source=str(path))


def to_case(text: str, id_: str, source: str = "") -> Case:
    """The Case of a shader_test's text; one the importer cannot run in full is a `skip` case
    naming the first line it could not."""
    script = split(text)
    b = Builder(script)
    try:
        if script.unsupported:
            raise Unsupported(script.unsupported[0])
        read_requirements(b.context, script.require)
        add_program(b.shaders, script, b.context.glsl)
        read_vertex_data(b.vertices, script, b.shaders)
        for number, line in script.test:
            commands.run(b, number, line)
        b.finish()
    except Unsupported as exc:
        b.unsupported = f"shader_test: unsupported {exc}"
    return b.case(id_, source)
