"""[require] as the context a case asks for, and the program's shaders with the GLSL version it
implies: a shader without `#version` gets the `GLSL >=` requirement's version; the context is
compatibility for GL < 3.1 requirements, core from 3.1 unless `GL COMPAT` is asked for."""
from __future__ import annotations

import re
from typing import Callable

from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.sections import Script
from harness.sources.shader_test.state import Context

# GLSL version -> the GL version that brings it (what a context must offer).
GL_FOR_GLSL = {110: (2, 0), 120: (2, 1), 130: (3, 0), 140: (3, 1), 150: (3, 2), 330: (3, 3),
               400: (4, 0), 410: (4, 1), 420: (4, 2), 430: (4, 3), 440: (4, 4), 450: (4, 5), 460: (4, 6)}


def _gl(context: Context, m: re.Match[str]) -> None:
    context.gl = max(context.gl, (int(m[2]), int(m[3])))
    context.profile_asked = {"CORE": "core", "COMPAT": "compat"}.get(m[1] or "", context.profile_asked)


def _glsl(context: Context, m: re.Match[str]) -> None:
    context.glsl = int(m[1]) * 100 + int(m[2])


def _extension(context: Context, m: re.Match[str]) -> None:
    (context.absent if m[1] else context.extensions).append(m[2])


def _limit(context: Context, m: re.Match[str]) -> None:
    context.limits.append((m[1], m[2], int(m[3])))


def _separable(context: Context, m: re.Match[str]) -> None:
    context.separable = True                 # each stage its own separable program, in a pipeline


def _rlimit(context: Context, m: re.Match[str]) -> None:
    context.address_space = int(m[1])


def _size(context: Context, m: re.Match[str]) -> None:
    context.size = (int(m[1]), int(m[2]))


# Each requirement the importer knows: its pattern, and what it sets in the context.
REQUIREMENTS: tuple[tuple[re.Pattern[str], Callable[[Context, re.Match[str]], None]], ...] = (
    (re.compile(r"^GL(?:\s+(CORE|COMPAT))?\s*>=\s*(\d+)\.(\d+)$"), _gl),
    (re.compile(r"^GLSL\s*>=\s*(\d+)\.(\d+)$"), _glsl),
    (re.compile(r"^(!?)(GL_\w+)$"), _extension),
    (re.compile(r"^(?:INT\s+)?(GL_MAX_\w+)\s*(>=|==)\s*(\d+)$"), _limit),
    (re.compile(r"^SSO ENABLED$"), _separable),
    (re.compile(r"^rlimit\s+(\d+)$"), _rlimit),
    (re.compile(r"^SIZE\s+(\d+)\s+(\d+)$"), _size),
)


def read_requirements(context: Context, lines: list[tuple[int, str]]) -> None:
    """Set `context` from the [require] lines, one at a time (what was read before an
    unsupported line stays: the skipped case still names what it asked for)."""
    for number, line in lines:
        for pattern, apply in REQUIREMENTS:
            m = pattern.match(line)
            if m:
                apply(context, m)
                break
        else:
            raise Unsupported(f"requirement {line!r} (line {number})")
    if not context.glsl:
        raise Unsupported("file: no GLSL requirement (shader_runner needs one)")
    if context.glsl not in GL_FOR_GLSL:
        raise Unsupported(f"requirement GLSL {context.glsl // 100}.{context.glsl % 100:02d} (not desktop GLSL)")
    context.gl = max(context.gl, GL_FOR_GLSL[context.glsl])


def add_program(shaders: list[tuple[str, str]], script: Script, glsl: int) -> None:
    """The program's shaders, in file order, each with a `#version` (the passthrough VS first)."""
    version = f"#version {glsl}\n"
    if script.passthrough_vs:
        keyword = "in" if glsl >= 130 else "attribute"
        shaders.append(("vs", f"{version}{keyword} vec4 piglit_vertex;\n"
                              "void main() { gl_Position = piglit_vertex; }\n"))
    for stage, source, _ in script.shaders:     # several sections of a stage: all attached
        shaders.append((stage, source if "#version " in source else version + source))
    if not shaders:
        raise Unsupported("file: no shader (fixed-function tests)")
