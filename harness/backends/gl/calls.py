"""The GL entry points every case calls, past PyOpenGL's Python wrappers.

PyOpenGL's wrapped functions (OpenGL.GL) convert arguments and allocate an output array per
call, several times the cost of the call itself; the raw ones (OpenGL.raw.GL) are the ctypes
functions the wrappers call, with PyOpenGL's error check still attached (glGetError after the
call, a GLError naming the function and its arguments). Here they are called with the same
arguments the wrappers pass, the output written into a one-element array made once. A GLError
from one of them names its output as the wrapper's would have (a numpy array of what the
driver left in it), so a failing case reads the same whichever path made the call.
"""
from __future__ import annotations

import ctypes
from typing import Any

import numpy as np


class Calls:
    """The raw calls of one GL context's cases (imported here: OpenGL's platform is chosen
    before its first import, context.select_platform)."""

    def __init__(self) -> None:
        from OpenGL.error import GLError
        from OpenGL.raw.GL.VERSION import GL_1_5, GL_2_0, GL_3_0
        self._error = GLError
        self._gen = {"buffer": GL_1_5.glGenBuffers, "query": GL_1_5.glGenQueries,
                     "framebuffer": GL_3_0.glGenFramebuffers, "renderbuffer": GL_3_0.glGenRenderbuffers,
                     "vertex_array": GL_3_0.glGenVertexArrays}
        self._delete = {"buffer": GL_1_5.glDeleteBuffers, "query": GL_1_5.glDeleteQueries,
                        "framebuffer": GL_3_0.glDeleteFramebuffers,
                        "renderbuffer": GL_3_0.glDeleteRenderbuffers,
                        "vertex_array": GL_3_0.glDeleteVertexArrays}
        self._query_result, self._program_iv, self._shader_iv = \
            GL_1_5.glGetQueryObjectuiv, GL_2_0.glGetProgramiv, GL_2_0.glGetShaderiv
        self._buffer_data = GL_1_5.glBufferData
        self._GL_QUERY_RESULT = GL_1_5.GL_QUERY_RESULT
        self._uint = (ctypes.c_uint * 1)()
        self._int = (ctypes.c_int * 1)()

    def generates(self, kind: str) -> bool:
        return kind in self._gen

    def gen(self, kind: str) -> int:
        """One new name of a kind in `_gen` (glGen*(1, names))."""
        return self._out(self._gen[kind], (1,), self._uint, np.uint32, 0)

    def delete(self, kind: str, name: int) -> None:
        """glDelete*(1, [name]) for a kind in `_delete`."""
        self._uint[0] = name
        self._delete[kind](1, self._uint)

    def query_result(self, query: int) -> int:
        """glGetQueryObjectuiv(query, GL_QUERY_RESULT)."""
        return self._out(self._query_result, (query, self._GL_QUERY_RESULT), self._uint, np.uint32, 0)

    def program_iv(self, program: int, pname: Any) -> int:
        """glGetProgramiv(program, pname)."""
        return self._out(self._program_iv, (program, pname), self._int, np.int32, 0)

    def shader_iv(self, shader: int, pname: Any) -> int:
        """glGetShaderiv(shader, pname); PyOpenGL's wrapper starts its output at 1, and so does this."""
        return self._out(self._shader_iv, (shader, pname), self._int, np.int32, 1)

    def buffer_data(self, target: Any, size: int, data: bytes | None, usage: Any) -> None:
        """glBufferData(target, size, data, usage), as the wrapper passes bytes or None on."""
        self._buffer_data(target, size, data, usage)

    def _out(self, function: Any, args: tuple[Any, ...], out: Any, dtype: Any, start: int) -> int:
        out[0] = start
        try:
            function(*args, out)
        except self._error as exc:
            exc.cArguments = args + (np.array([out[0]], dtype=dtype),)     # as the wrapper's array
            raise
        return int(out[0])
