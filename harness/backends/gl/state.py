"""The GL state a step sets beyond its draw: patch parameters, capabilities, and what imported
shader_test files set (uniforms, polygon mode, front face, provoking vertex, textures, storage
buffers, the compatibility projection); and, in a batch's shared context, setting back to GL's
initial values what the runner sets for a case."""
from __future__ import annotations

import ctypes
import re
from typing import Any

import numpy as np

from harness.backends.gl.calls import Calls
from harness.backends.gl.objects import Objects, quietly
from harness.backends.gl.uniforms import active_program, set_uniform
from harness.model.case import Case, step_state

# shader_runner's rgbw colours: red, green, blue, white (the 2D quadrants, the 1D quarters),
# then yellow, magenta, cyan, black (a 3D texture's back half)
RGBW = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1],
                 [1, 1, 0, 1], [1, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1]], dtype="<f4")


def capability(GL: Any, name: str) -> int:
    """A capability's enum from its name without "GL_" (PyOpenGL names clip planes 0 to 5 only)."""
    clip = re.fullmatch(r"CLIP_(?:PLANE|DISTANCE)(\d)", name)
    return int(GL.GL_CLIP_DISTANCE0 + int(clip[1])) if clip else int(getattr(GL, "GL_" + name))


def patch_parameters(GL: Any, state: Any, calls: Calls) -> None:
    if state.patch_vertices is not None:
        GL.glPatchParameteri(GL.GL_PATCH_VERTICES, state.patch_vertices)
    if state.default_outer is not None:
        calls.glPatchParameterfv(GL.GL_PATCH_DEFAULT_OUTER_LEVEL, (ctypes.c_float * 4)(*state.default_outer))
    if state.default_inner is not None:
        calls.glPatchParameterfv(GL.GL_PATCH_DEFAULT_INNER_LEVEL, (ctypes.c_float * 2)(*state.default_inner))


def has_extras(state: Any) -> bool:
    return bool(state.uniforms or state.polygon_mode or state.polygon_mode_back or state.front_face or state.provoking_vertex
                or state.textures or state.projection is not None or state.storage_buffers)


def set_extras(GL: Any, state: Any, made: Objects) -> None:
    """The state imported shader_test files set: uniforms, polygon mode, front face, the
    compatibility projection matrix, textures and storage buffers, for this step."""
    if state.uniforms:
        program = int(GL.glGetIntegerv(GL.GL_CURRENT_PROGRAM))
        for uniform in state.uniforms:
            set_uniform(GL, active_program(GL, uniform.stage) if uniform.stage else program, uniform)
    if state.polygon_mode_back:          # front and back apart: the compatibility profile's
        GL.glPolygonMode(GL.GL_FRONT, getattr(GL, "GL_" + (state.polygon_mode or "FILL")))
        GL.glPolygonMode(GL.GL_BACK, getattr(GL, "GL_" + state.polygon_mode_back))
    elif state.polygon_mode:
        GL.glPolygonMode(GL.GL_FRONT_AND_BACK, getattr(GL, "GL_" + state.polygon_mode))
    if state.front_face:
        GL.glFrontFace(getattr(GL, "GL_" + state.front_face))
    if state.provoking_vertex:
        GL.glProvokingVertex(getattr(GL, f"GL_{state.provoking_vertex}_VERTEX_CONVENTION"))
    for texture in state.textures:
        make_texture(GL, texture, made)
    for binding, size in state.storage_buffers:        # shader_runner's `ssbo N SIZE`: zeroed
        GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, made.new("buffer"))
        GL.glBufferData(GL.GL_SHADER_STORAGE_BUFFER, size, bytes(size), GL.GL_DYNAMIC_DRAW)
        GL.glBindBufferBase(GL.GL_SHADER_STORAGE_BUFFER, binding, made.last())
    if state.projection is not None:
        GL.glMatrixMode(GL.GL_PROJECTION)
        GL.glLoadMatrixf((ctypes.c_float * 16)(*state.projection))
        GL.glMatrixMode(GL.GL_MODELVIEW)


def unset_extras(GL: Any, state: Any) -> None:
    if state.polygon_mode or state.polygon_mode_back:
        quietly(GL.glPolygonMode, GL.GL_FRONT_AND_BACK, GL.GL_FILL)
    if state.front_face:
        quietly(GL.glFrontFace, GL.GL_CCW)
    if state.provoking_vertex:
        quietly(GL.glProvokingVertex, GL.GL_LAST_VERTEX_CONVENTION)
    if state.projection is not None:
        quietly(GL.glMatrixMode, GL.GL_PROJECTION)
        quietly(GL.glLoadIdentity)
        quietly(GL.glMatrixMode, GL.GL_MODELVIEW)


def texels(texture: Any) -> np.ndarray[Any, Any]:
    """A texture's RGBA float texels as shader_runner makes them (harness.model.case.Texture)."""
    w, h, d = texture.width, texture.height, texture.depth
    z, y, x = np.meshgrid(np.arange(d), np.arange(h), np.arange(w), indexing="ij")
    if texture.kind == "checkerboard":
        colors = np.array(texture.colors, dtype="<f4").reshape(2, 4)
        picked: np.ndarray[Any, Any] = colors[((x // max(1, w // 2)) ^ (y // max(1, h // 2))) & 1]
    elif texture.target == "1D":                # piglit_rgbw_texture_1d: quarters along x
        picked = RGBW[x * 4 // w]
    else:                                       # quadrants; in 3D, the back half's colours behind
        back = (z >= d // 2) if texture.target == "3D" else np.zeros_like(z, dtype=bool)
        picked = RGBW[(x >= w // 2).astype(int) + 2 * (y >= h // 2) + 4 * back]
    return picked


def make_texture(GL: Any, texture: Any, made: Objects) -> None:
    """A texture as shader_runner makes it, bound to its unit."""
    w, h, d = texture.width, texture.height, texture.depth
    target = getattr(GL, f"GL_TEXTURE_{texture.target}")
    GL.glActiveTexture(GL.GL_TEXTURE0 + texture.unit)
    GL.glBindTexture(target, made.texture(GL.glGenTextures(1)))
    wrap = "CLAMP_TO_EDGE" if texture.kind == "rgbw" else "CLAMP_TO_BORDER"
    axes = "ST" if texture.target == "2D" else "STR"
    parameters = [(f"WRAP_{axis}", wrap) for axis in axes] + [("MIN_FILTER", texture.min_filter),
                                                               ("MAG_FILTER", texture.mag_filter)]
    for name, value in parameters:
        GL.glTexParameteri(target, getattr(GL, "GL_TEXTURE_" + name), getattr(GL, "GL_" + value))
    if wrap == "CLAMP_TO_BORDER":
        GL.glTexParameterfv(target, GL.GL_TEXTURE_BORDER_COLOR, (ctypes.c_float * 4)(1, 0, 0, 1))
    data = np.ascontiguousarray(texels(texture), dtype="<f4").tobytes()
    if texture.target == "1D":
        GL.glTexImage1D(target, texture.level, GL.GL_RGBA8, w, 0, GL.GL_RGBA, GL.GL_FLOAT, data)
    elif texture.target == "2D":
        GL.glTexImage2D(target, texture.level, GL.GL_RGBA8, w, h, 0, GL.GL_RGBA, GL.GL_FLOAT, data)
    else:
        GL.glTexImage3D(target, texture.level, GL.GL_RGBA8, w, h, d, 0, GL.GL_RGBA, GL.GL_FLOAT, data)
    GL.glActiveTexture(GL.GL_TEXTURE0)


def restore(GL: Any, case: Case, calls: Calls) -> None:
    """Back to GL's initial values, in a batch's context, what the runner sets for a case and
    leaves set (a context per case drops it): bindings, the program, rasterizer discard,
    patch parameters, clip plane equations. What a case's own state leaves otherwise, the
    batch's audit and confirmations catch (harness/executor/batch.py)."""
    quietly(GL.glUseProgram, 0)
    quietly(GL.glBindProgramPipeline, 0)
    quietly(GL.glBindVertexArray, 0)
    quietly(GL.glBindFramebuffer, GL.GL_FRAMEBUFFER, 0)
    quietly(GL.glDisable, GL.GL_RASTERIZER_DISCARD)
    quietly(GL.glDisable, GL.GL_PRIMITIVE_RESTART)
    quietly(GL.glDisable, GL.GL_PRIMITIVE_RESTART_FIXED_INDEX)
    quietly(GL.glActiveTexture, GL.GL_TEXTURE0)
    states = [step_state(step) for step in case.steps if step_state(step) is not None]
    if any(s.patch_vertices is not None or s.default_outer is not None or s.default_inner is not None
           for s in states):
        quietly(GL.glPatchParameteri, GL.GL_PATCH_VERTICES, 3)
        quietly(calls.glPatchParameterfv, GL.GL_PATCH_DEFAULT_OUTER_LEVEL, (ctypes.c_float * 4)(1, 1, 1, 1))
        quietly(calls.glPatchParameterfv, GL.GL_PATCH_DEFAULT_INNER_LEVEL, (ctypes.c_float * 2)(1, 1))
    for i in range(max((len(s.clip_planes) for s in states), default=0)):
        quietly(calls.glClipPlane, GL.GL_CLIP_PLANE0 + i, (ctypes.c_double * 4)(0, 0, 0, 0))
