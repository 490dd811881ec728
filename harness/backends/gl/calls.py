"""The GL entry points every case calls, past PyOpenGL's Python wrappers.

PyOpenGL's wrapped functions (OpenGL.GL) convert arguments and allocate an output array per
call, several times the cost of the call itself; the raw ones (OpenGL.raw.GL) are the ctypes
functions the wrappers call, with PyOpenGL's error check still attached (glGetError after the
call, a GLError naming the function and its arguments). Here they are called with the same
arguments the wrappers pass, the output written into a one-element array made once. A GLError
from one of them names its output as the wrapper's would have (a numpy array of what the
driver left in it), so a failing case reads the same whichever path made the call.

Calls.glX is the raw glX, for entry points whose wrapper passes the arguments the harness
gives (ctypes arrays, c_void_p offsets, a ctypes pointer array) on unchanged: the same call,
and the same GLError, without the wrapper.
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
        from OpenGL.raw.GL.VERSION import GL_1_0, GL_1_1, GL_1_2, GL_1_5, GL_2_0, GL_3_0, GL_3_1, GL_3_2, GL_4_0, GL_4_2
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
        self._buffer_data, self._buffer_sub_data = GL_1_5.glBufferData, GL_1_5.glGetBufferSubData
        from OpenGL.GL.VERSION.GL_2_0 import glShaderSource      # its string array typed c_char_p
        self._shader_source = glShaderSource.wrappedOperation
        self._GL_QUERY_RESULT = GL_1_5.GL_QUERY_RESULT
        self.glPatchParameterfv: Any = GL_4_0.glPatchParameterfv
        self.glClearBufferfv: Any = GL_3_0.glClearBufferfv
        self.glClipPlane: Any = GL_1_0.glClipPlane
        self.glTransformFeedbackVaryings: Any = GL_3_0.glTransformFeedbackVaryings
        self.glVertexAttribPointer: Any = GL_2_0.glVertexAttribPointer     # the wrapper makes None c_void_p(None)
        self.glDrawElements: Any = GL_1_1.glDrawElements
        self.glDrawRangeElements: Any = GL_1_2.glDrawRangeElements
        self.glDrawElementsInstanced: Any = GL_3_1.glDrawElementsInstanced
        self.glDrawElementsBaseVertex: Any = GL_3_2.glDrawElementsBaseVertex
        self.glDrawRangeElementsBaseVertex: Any = GL_3_2.glDrawRangeElementsBaseVertex
        self.glDrawElementsInstancedBaseVertex: Any = GL_3_2.glDrawElementsInstancedBaseVertex
        self.glDrawElementsInstancedBaseInstance: Any = GL_4_2.glDrawElementsInstancedBaseInstance
        self.glDrawElementsInstancedBaseVertexBaseInstance: Any = GL_4_2.glDrawElementsInstancedBaseVertexBaseInstance
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

    def shader_source(self, shader: int, source: str) -> None:
        """glShaderSource(shader, source) as its wrapper calls it: one UTF-8 string and its length."""
        text = source.encode("utf-8")
        self._shader_source(shader, 1, (ctypes.c_char_p * 1)(text), (ctypes.c_int * 1)(len(text)))

    def buffer_sub_data(self, target: Any, offset: int, size: int) -> bytes:
        """glGetBufferSubData(target, offset, size): `size` bytes (a new array: they are kept)."""
        out = (ctypes.c_ubyte * size)()
        self._call(self._buffer_sub_data, (target, offset, size), out, np.uint8)
        return bytes(out)

    def _out(self, function: Any, args: tuple[Any, ...], out: Any, dtype: Any, start: int) -> int:
        out[0] = start
        self._call(function, args, out, dtype)
        return int(out[0])

    def _call(self, function: Any, args: tuple[Any, ...], out: Any, dtype: Any) -> None:
        try:
            function(*args, out)
        except self._error as exc:
            exc.cArguments = args + (np.array(out, dtype=dtype),)     # as the wrapper's numpy array
            raise
