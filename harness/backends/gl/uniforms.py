"""Setting uniforms as piglit's shader_runner does: glUniform* by name or location number, a
member of a uniform block written into the block's buffer, a separable program's uniforms
through glActiveShaderProgram."""
from __future__ import annotations

import ctypes
import re
import struct
from typing import Any

import numpy as np

from harness.backends import BackendError
from harness.glsl import types
from harness.model.glfacts import STAGE


def block_property(GL: Any, program: int, block: int, pname: Any) -> int:
    value = np.zeros(1, dtype=np.int32)
    GL.glGetActiveUniformBlockiv(program, block, pname, value)
    return int(value[0])


def _uniform_index(GL: Any, program: int, name: str) -> int | None:
    index = np.zeros(1, dtype=np.uint32)
    names = ctypes.cast((ctypes.c_char_p * 1)(name.encode()), ctypes.POINTER(ctypes.POINTER(ctypes.c_char)))
    GL.glGetUniformIndices(program, 1, names, index)
    return None if int(index[0]) == GL.GL_INVALID_INDEX else int(index[0])


def set_block_member(GL: Any, program: int, uniform: Any) -> bool:
    """shader_runner's `uniform` command on a member of a uniform block: the values go into the
    block's buffer at the member's offset (element i of an array at i array strides; matrices
    column by column, or row by row where the member is row_major). False: no such member."""
    index, element = None, 0
    whole = re.fullmatch(r"(.*)\[(\d+)\]", uniform.name)
    if whole:                                       # "a[2]": the array "a[0]", element 2
        index, element = _uniform_index(GL, program, whole[1] + "[0]"), int(whole[2])
    if index is None:
        index, element = _uniform_index(GL, program, uniform.name), 0
    if index is None:
        return False
    props = {}
    for pname in ("BLOCK_INDEX", "OFFSET", "ARRAY_STRIDE", "MATRIX_STRIDE", "IS_ROW_MAJOR"):
        value = np.zeros(1, dtype=np.int32)
        GL.glGetActiveUniformsiv(program, 1, np.array([index], dtype=np.uint32), getattr(GL, "GL_UNIFORM_" + pname), value)
        props[pname] = int(value[0])
    if props["BLOCK_INDEX"] < 0:
        return False
    type_, values = uniform.type, uniform.values
    double = type_.startswith(("double", "dvec", "dmat"))
    fmt = "d" if double else "I" if type_.startswith(("uint", "uvec")) else \
        "i" if type_.startswith(("int", "ivec", "bool", "bvec")) else "f"
    size = 8 if double else 4
    if fmt == "i" and type_.startswith(("bool", "bvec")):
        values = tuple(int(bool(v)) for v in values)
    start = props["OFFSET"] + element * props["ARRAY_STRIDE"]
    placed = []                                      # (byte offset, value)
    matrix = re.fullmatch(r"d?mat(\d)(?:x(\d))?", type_)
    if matrix:
        cols, rows = int(matrix[1]), int(matrix[2] or matrix[1])
        for c in range(cols):
            for r in range(rows):
                at = r * props["MATRIX_STRIDE"] + c * size if props["IS_ROW_MAJOR"] \
                    else c * props["MATRIX_STRIDE"] + r * size
                placed.append((start + at, values[c * rows + r]))
    else:
        placed = [(start + i * size, v) for i, v in enumerate(values)]
    binding = block_property(GL, program, props["BLOCK_INDEX"], GL.GL_UNIFORM_BLOCK_BINDING)
    GL.glBindBuffer(GL.GL_UNIFORM_BUFFER, int(np.ravel(GL.glGetIntegeri_v(GL.GL_UNIFORM_BUFFER_BINDING, binding))[0]))
    for at, value in placed:
        data = struct.pack("<" + fmt, value)
        GL.glBufferSubData(GL.GL_UNIFORM_BUFFER, at, len(data), data)
    GL.glBindBuffer(GL.GL_UNIFORM_BUFFER, 0)
    return True


def active_program(GL: Any, stage: str) -> int:
    """The bound pipeline's program for a stage, made its active program (glActiveShaderProgram),
    which glUniform* then sets when no program is current."""
    pipeline = int(GL.glGetIntegerv(GL.GL_PROGRAM_PIPELINE_BINDING))
    program = np.zeros(1, dtype=np.int32)
    GL.glGetProgramPipelineiv(pipeline, getattr(GL, STAGE[stage].shader_type), program)
    GL.glActiveShaderProgram(pipeline, int(program[0]))
    return int(program[0])


def set_uniform(GL: Any, program: int, uniform: Any) -> None:
    """glUniform* for one value, as shader_runner's `uniform` command: the name must be active
    (a default-block uniform, or a member of a uniform block); a name of digits is the location
    itself, as shader_runner reads one."""
    numeric = uniform.name[:1].isdigit()
    location = int(uniform.name, 0) if numeric else GL.glGetUniformLocation(program, uniform.name)
    if location < 0 and not numeric:
        if set_block_member(GL, program, uniform):
            return
        raise BackendError(f"cannot get the location of uniform {uniform.name!r} (not an active uniform)")
    type_, values = uniform.type, uniform.values
    basic = types.basic(type_)
    if basic is not None and basic.columns > 1:
        cols, rows = basic.columns, basic.rows
        shape = cols if cols == rows else f"{cols}x{rows}"
        double = basic.scalar == "double"
        array = (ctypes.c_double if double else ctypes.c_float) * len(values)
        getattr(GL, f"glUniformMatrix{shape}{'dv' if double else 'fv'}")(location, 1, GL.GL_FALSE, array(*values))
        return
    n = int(type_[-1]) if type_[-1].isdigit() else 1
    ctype: Any
    if type_.startswith(("uint", "uvec")):
        kind, ctype = "uiv", ctypes.c_uint
    elif type_.startswith(("int", "ivec", "bool", "bvec")):
        kind, ctype = "iv", ctypes.c_int
    elif type_.startswith(("double", "dvec")):
        kind, ctype = "dv", ctypes.c_double
    else:
        kind, ctype = "fv", ctypes.c_float
    getattr(GL, f"glUniform{n}{kind}")(location, 1, (ctype * n)(*values))
