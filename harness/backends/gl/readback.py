"""What the GL runner reads back: the colour target as RGBA32F floats, the atomic counters, a
Read step's program queries and storage buffers, each sized by what the case made (a driver's
count is its to answer in the verdict, never a read past a buffer)."""
from __future__ import annotations

import ctypes
from typing import Any, cast

import numpy as np

from harness.backends import Skip, readback_bytes
from harness.backends.gl.objects import Objects
from harness.backends.gl.programs import text
from harness.model.case import Case, Read, Readback, step_state
from harness.model.facts import Profile
from harness.model.observation import Answers, Step


def read_step(GL: Any, case: Case, step: Read, facts: Profile) -> Step:
    """What a Read step reads back at its point of the script."""
    observed = Step(counts=read_counters(GL, case, facts) if step.counters else {})
    if step.image:
        observed.image = read_image(GL, case.readback)
    if step.queries:
        observed.queries = {q.label: program_query(GL, q, facts) for q in step.queries}
    if step.storage:
        observed.storage = {b: read_storage(GL, case, b) for b in step.storage}
    return observed


def image_target(GL: Any, readback: Readback, made: Objects) -> None:
    """The framebuffer a case with an image draws into, of its size and format."""
    size = cast(tuple[int, int], readback.image)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, made.new("framebuffer"))
    GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, made.new("renderbuffer"))
    fmt = GL.GL_RGBA8 if readback.image_format == "RGBA8" else GL.GL_RGBA32F
    GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, fmt, *size)
    GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, made.last())
    GL.glViewport(0, 0, *size)
    if readback.keep_image:          # starts cleared; draws then add to it
        GL.glClearBufferfv(GL.GL_COLOR, 0, (ctypes.c_float * 4)(0, 0, 0, 0))


def read_image(GL: Any, readback: Readback) -> bytes:
    width, height = cast(tuple[int, int], readback.image)
    raw = GL.glReadPixels(0, 0, width, height, GL.GL_RGBA, GL.GL_FLOAT)
    return np.asarray(raw, dtype="<f4").tobytes()


def atomic_counter_buffer(GL: Any, count: int, made: Objects) -> None:
    """`count` GLuint counters, all 0, at GL_ATOMIC_COUNTER_BUFFER binding 0 (and the
    generic binding, which read_counters reads)."""
    GL.glBindBuffer(GL.GL_ATOMIC_COUNTER_BUFFER, made.new("buffer"))
    GL.glBufferData(GL.GL_ATOMIC_COUNTER_BUFFER, 4 * count, bytes(4 * count), GL.GL_DYNAMIC_READ)
    GL.glBindBufferBase(GL.GL_ATOMIC_COUNTER_BUFFER, 0, made.last())


def read_counters(GL: Any, case: Case, facts: Profile) -> dict[str, int]:
    count = case.readback.atomic_counters
    if facts.version_number >= (4, 2):
        # shader atomic counter writes reach GetBufferSubData after this barrier (GL 4.6, 7.13.2)
        GL.glMemoryBarrier(GL.GL_BUFFER_UPDATE_BARRIER_BIT)
    raw = GL.glGetBufferSubData(GL.GL_ATOMIC_COUNTER_BUFFER, 0, 4 * count)
    values = np.frombuffer(bytes(raw), dtype="<u4")
    return {f"atomic counter {i}": int(v) for i, v in enumerate(values)}


def program_query(GL: Any, query: Any, facts: Profile) -> Answers | None:
    """What shader_runner's `active uniform` / `verify program_interface_query` reads of the
    program in use: the property of the active uniform or resource whose name GL lists as
    `query.name`, by every call that answers it ({call: value}); None: no such name."""
    program = int(GL.glGetIntegerv(GL.GL_CURRENT_PROGRAM))
    pname, got = getattr(GL, query.pname), np.zeros(1, dtype=np.int32)
    if not query.interface:
        for i in range(int(GL.glGetProgramiv(program, GL.GL_ACTIVE_UNIFORMS))):
            name, size, type_ = GL.glGetActiveUniform(program, i)
            if text(name) != query.name:
                continue
            GL.glGetActiveUniformsiv(program, 1, np.array([i], dtype=np.uint32), pname, got)
            answers = {"glGetActiveUniformsiv": int(got[0])}
            also = {"GL_UNIFORM_TYPE": type_, "GL_UNIFORM_SIZE": size}.get(query.pname)
            if also is not None:                       # shader_runner checks both calls
                answers["glGetActiveUniform"] = int(also)
            return answers
        return None
    if "GL_ARB_program_interface_query" not in (facts.extensions or ()) and facts.version_number < (4, 3):
        raise Skip("program_interface_query needs GL 4.3 or GL_ARB_program_interface_query")
    interface = getattr(GL, query.interface)
    count = np.zeros(1, dtype=np.int32)
    GL.glGetProgramInterfaceiv(program, interface, GL.GL_ACTIVE_RESOURCES, count)
    for i in range(int(count[0])):
        buffer = ctypes.create_string_buffer(512)
        GL.glGetProgramResourceName(program, interface, i, len(buffer), None, buffer)
        if buffer.value.decode("utf-8", "replace") != query.name:
            continue
        GL.glGetProgramResourceiv(program, interface, i, 1, np.array([pname], dtype=np.uint32), 1, None, got)
        return {"glGetProgramResourceiv": int(got[0])}
    return None


def read_storage(GL: Any, case: Case, binding: int) -> bytes | None:
    """The whole buffer bound at GL_SHADER_STORAGE_BUFFER binding `binding`; None: none is."""
    buffer = int(np.ravel(GL.glGetIntegeri_v(GL.GL_SHADER_STORAGE_BUFFER_BINDING, binding))[0])
    if not buffer:
        return None
    GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, buffer)
    reported = int(np.ravel(GL.glGetBufferParameteriv(GL.GL_SHADER_STORAGE_BUFFER, GL.GL_BUFFER_SIZE))[0])
    # GL_BUFFER_SIZE is the driver's word; the case made the buffer (shader_runner's `ssbo N SIZE`)
    made = max((size for s in case.steps for b, size in step_state(s).storage_buffers if b == binding), default=0)
    size = readback_bytes(reported, 1, made)
    raw = GL.glGetBufferSubData(GL.GL_SHADER_STORAGE_BUFFER, 0, size) if size else b""
    GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, 0)
    return bytes(raw)
