"""A case's GL programs: compiled, linked (with the transform-feedback varyings its readback
captures), given zeroed uniform buffers as shader_runner gives them; and the cache of linked
programs a backend keeps across cases where no case can change them (ProgramCache)."""
from __future__ import annotations

import ctypes
import functools
import re
from typing import Any

from harness.backends import BackendError, Skip
from harness.backends.gl.calls import Calls
from harness.backends.gl.objects import Objects
from harness.backends.gl.uniforms import block_property
from harness.glsl.model import ParseError, parse
from harness.glsl.preprocess import PreprocessError, preprocess
from harness.model.case import Case
from harness.model.glfacts import STAGE, last_vertex_stage

# Cases that share a program come close together: a small cache keeps nearly every hit
# (bench/results/2026-11-28-program-cache-size.md).
PROGRAM_CACHE_SIZE = 16

Shaders = Any                       # a sequence of (stage, GLSL source)


class LinkFailed(BackendError):
    """The program did not link (its shaders compiled)."""


def programs(GL: Any, case: Case, made: Objects) -> list[int]:
    """Compile and link the case's programs (or one separable program per stage), bind the
    first and return them all. A (stage, source) that several programs list is compiled
    once, and that one shader object is attached to each of them."""
    if case.separable:
        pipeline = made.pipeline(GL.glGenProgramPipelines(1))
        last = last_vertex_stage(stage for stage, _ in case.shaders)
        for stage, source in case.shaders:
            program = made.program(GL.glCreateProgram())
            GL.glProgramParameteri(program, GL.GL_PROGRAM_SEPARABLE, GL.GL_TRUE)
            link(GL, case, program, [(stage, source)], made, {}, capture=stage == last)
            GL.glUseProgramStages(pipeline, getattr(GL, STAGE[stage].pipeline_bit), program)
        GL.glBindProgramPipeline(pipeline)
        return []
    compiled: dict[tuple[str, str], int] = {}
    linked = []
    for index, shaders in enumerate((case.shaders,) + case.programs):
        program = made.program(GL.glCreateProgram())
        link(GL, case, program, shaders, made, compiled, f"program {index}: " if case.programs else "")
        uniform_buffers(GL, program, shaders, made)
        linked.append(program)
    GL.glUseProgram(linked[0])
    return linked


def link_fails(GL: Any, case: Case, made: Objects) -> int:
    """1 if the case's program (each of its separable programs) fails to link, else 0; a
    shader that does not compile fails the case, as in shader_runner."""
    groups = [[shader] for shader in case.shaders] if case.separable else [case.shaders]
    last = last_vertex_stage(stage for stage, _ in case.shaders)
    for shaders in groups:
        program = made.program(GL.glCreateProgram())
        if case.separable:
            GL.glProgramParameteri(program, GL.GL_PROGRAM_SEPARABLE, GL.GL_TRUE)
        try:
            link(GL, case, program, shaders, made, {},
                 capture=not case.separable or any(stage == last for stage, _ in shaders))
        except LinkFailed:
            return 1
    return 0


def link(GL: Any, case: Case, program: int, shaders: Shaders, made: Objects, compiled: dict[tuple[str, str], int],
         which: str = "", capture: bool = True) -> None:
    """`capture`: the program holds the last vertex-processing stage, whose outputs transform
    feedback records (a separable pipeline's other programs name no varyings)."""
    for stage, source in shaders:
        shader = compiled.get((stage, source))
        if shader is None:
            shader = made.shader(GL.glCreateShader(getattr(GL, STAGE[stage].shader_type)))
            made.calls.shader_source(shader, source)
            GL.glCompileShader(shader)
            if not made.calls.shader_iv(shader, GL.GL_COMPILE_STATUS):
                log = text(GL.glGetShaderInfoLog(shader))
                raise BackendError(f"{which}{stage.upper()} failed to compile:\n{log}")
            compiled[(stage, source)] = shader
        GL.glAttachShader(program, shader)
    for attr in case.attributes:
        if attr.name:
            GL.glBindAttribLocation(program, attr.location, attr.name)
    names = [c.varying.encode() for c in case.readback.captures] if capture else []
    if names:
        array = (ctypes.c_char_p * len(names))(*names)
        pointers = ctypes.cast(array, ctypes.POINTER(ctypes.POINTER(ctypes.c_char)))
        made.calls.glTransformFeedbackVaryings(program, len(names), pointers, GL.GL_INTERLEAVED_ATTRIBS)
    GL.glLinkProgram(program)
    if not made.calls.program_iv(program, GL.GL_LINK_STATUS):
        log = text(GL.glGetProgramInfoLog(program))
        if case.requires.link_failure_allowed:
            raise Skip(f"{case.requires.link_failure_allowed}; the program did not link: "
                       f"{log.splitlines()[0] if log else 'no log'}")
        raise LinkFailed(f"{which or 'program '}failed to link:\n{log}")


def uniform_buffers(GL: Any, program: int, shaders: Shaders, made: Objects) -> None:
    """A zeroed buffer for each active uniform block, bound to binding point i for block i
    unless the shaders give bindings themselves, as shader_runner does; `uniform` commands
    naming a block member write into it (set_uniform)."""
    explicit = any(re.search(r"layout\s*\([^)]*\bbinding\b", source) for _, source in shaders)
    for block in range(made.calls.program_iv(program, GL.GL_ACTIVE_UNIFORM_BLOCKS)):
        if not explicit:
            GL.glUniformBlockBinding(program, block, block)
        binding = block_property(GL, program, block, GL.GL_UNIFORM_BLOCK_BINDING)
        size = block_property(GL, program, block, GL.GL_UNIFORM_BLOCK_DATA_SIZE)
        GL.glBindBuffer(GL.GL_UNIFORM_BUFFER, made.new("buffer"))
        made.calls.buffer_data(GL.GL_UNIFORM_BUFFER, size, bytes(size), GL.GL_DYNAMIC_DRAW)
        GL.glBindBufferBase(GL.GL_UNIFORM_BUFFER, binding, made.last())
    GL.glBindBuffer(GL.GL_UNIFORM_BUFFER, 0)


class ProgramCache:
    """Linked programs kept across cases, per profile (programs belong to a context), keyed by
    everything that goes into linking, least recently used first: only for cases whose program
    holds no state a case changes (cacheable)."""

    def __init__(self) -> None:
        self._programs: dict[str, dict[Any, int]] = {}

    def use(self, GL: Any, case: Case, calls: Calls) -> list[int]:
        """The case's linked program, from the cache or linked now, made current."""
        key = (case.shaders, tuple((c.varying, c.type) for c in case.readback.captures),
               tuple((a.name, a.location) for a in case.attributes if a.name),
               case.requires.link_failure_allowed)
        cache = self._programs.setdefault(case.requires.profile, {})
        if key in cache:
            cache[key] = cache.pop(key)                   # most recently used last
        else:
            shaders = Objects(GL, calls)
            program = int(GL.glCreateProgram())
            try:
                link(GL, case, program, case.shaders, shaders, {})
            except BaseException:
                GL.glDeleteProgram(program)
                raise
            finally:
                shaders.delete()                          # the linked program no longer needs them
            cache[key] = program
            if len(cache) > PROGRAM_CACHE_SIZE:
                GL.glDeleteProgram(cache.pop(next(iter(cache))))
        GL.glUseProgram(cache[key])
        return [cache[key]]


def cacheable(case: Case) -> bool:
    """One plain program that the case itself never deletes, and without uniforms (a cached
    program would keep the values an earlier case set); not on targets that set
    program_cache off (zink: see targets.py)."""
    return not case.separable and not case.programs and \
        not any(d.delete_programs for d in case.draws()) and \
        not any(declares_uniforms(stage, source) for stage, source in case.shaders)


@functools.lru_cache(maxsize=256)
def declares_uniforms(stage: str, source: str) -> bool:
    """Whether a stage declares a uniform (a variable or a block), from the GLSL model of its
    preprocessed text: one in a comment or a dead #if branch does not count. Remembered per
    source, as parsing every stage of every case was a large part of llvmpipe's child time. Without
    the word `uniform` in its text, and no `##` to paste it from parts, a stage declares none:
    no family shader has one, so most are never parsed."""
    if "uniform" not in source and "##" not in source:
        return False
    try:
        shader = parse(preprocess(stage, source))
    except (ParseError, PreprocessError):
        return True                          # unreadable here: the driver will say; never cached
    return any(d.storage == "uniform" for d in shader.declarations)


def text(log: Any) -> str:
    return (log.decode("utf-8", "replace") if isinstance(log, bytes) else str(log)).strip()
