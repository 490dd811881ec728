"""harness/backends/gl/calls.py on llvmpipe: each raw call answers what PyOpenGL's wrapper
answers, and a GL error from it reads, in the runner's failure message, as the wrapper's did.
In a process of its own (PyOpenGL's platform is chosen once per process)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]

SCRIPT = r'''
import ctypes, json, re
from harness.backends.gl.runner import GLBackend, _args, _error_name
try:
    backend = GLBackend()
    backend._use("compat")
except Exception as exc:
    print(json.dumps({"skip": f"no GL context: {exc}"}))
    raise SystemExit(0)
GL, calls = backend.gl, backend.calls
from harness.backends.gl.objects import Objects
backend._framebuffer(Objects(GL, calls))       # a surfaceless context draws into one

def message(call, *args):
    """The runner's failure message for a GLError from the call (object addresses blanked), or its value."""
    try:
        value = call(*args)
    except GL.GLError as exc:
        return re.sub(r"0x[0-9a-f]+", "0x", f"GL error {_error_name(GL, exc.err)} from "
                                             f"{exc.baseOperation.__name__}{_args(exc)}")
    return ("value", int(value) if value is not None and not hasattr(value, "__len__") else None)

f4, d4 = (ctypes.c_float * 4)(1, 2, 3, 4), (ctypes.c_double * 4)(1, 2, 3, 4)
shader = GL.glCreateShader(GL.GL_VERTEX_SHADER)
calls.shader_source(shader, "#version 130\nvoid main() { gl_Position = vec4(0.0); /* é */ }\n")
GL.glCompileShader(shader)
program = GL.glCreateProgram()
pairs = {
    "shader_iv": ((GL.glGetShaderiv, shader, GL.GL_COMPILE_STATUS), (calls.shader_iv, shader, GL.GL_COMPILE_STATUS)),
    "shader_iv error": ((GL.glGetShaderiv, 99999, GL.GL_COMPILE_STATUS), (calls.shader_iv, 99999, GL.GL_COMPILE_STATUS)),
    "program_iv error": ((GL.glGetProgramiv, 99999, GL.GL_LINK_STATUS), (calls.program_iv, 99999, GL.GL_LINK_STATUS)),
    "query_result error": ((GL.glGetQueryObjectuiv, 99999, GL.GL_QUERY_RESULT), (calls.query_result, 99999)),
    "buffer_data error": ((GL.glBufferData, GL.GL_ARRAY_BUFFER, -1, b"abcd", GL.GL_STATIC_DRAW),
                          (calls.buffer_data, GL.GL_ARRAY_BUFFER, -1, b"abcd", GL.GL_STATIC_DRAW)),
    "buffer_sub_data error": ((GL.glGetBufferSubData, GL.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 16),
                              (calls.buffer_sub_data, GL.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 16)),
    # glShaderSource has no error check in PyOpenGL: the error waits for the next call's check
    "shader_source on a program": ((lambda: GL.glShaderSource(program, "void main() {}") or GL.glGetError(),),
                                   (lambda: calls.shader_source(program, "void main() {}") or GL.glGetError(),)),
    "glPatchParameterfv error": ((GL.glPatchParameterfv, 0x1234, f4), (calls.glPatchParameterfv, 0x1234, f4)),
    "glClearBufferfv error": ((GL.glClearBufferfv, GL.GL_COLOR, 99, f4), (calls.glClearBufferfv, GL.GL_COLOR, 99, f4)),
    "glClipPlane error": ((GL.glClipPlane, 0x1234, d4), (calls.glClipPlane, 0x1234, d4)),
    "glVertexAttribPointer error": ((GL.glVertexAttribPointer, 0, 7, GL.GL_FLOAT, GL.GL_FALSE, 0, None),
                                    (calls.glVertexAttribPointer, 0, 7, GL.GL_FLOAT, GL.GL_FALSE, 0, ctypes.c_void_p(None))),
    "glDrawElements error": ((GL.glDrawElements, 0x77, 3, GL.GL_UNSIGNED_INT, ctypes.c_void_p(12)),
                             (calls.glDrawElements, 0x77, 3, GL.GL_UNSIGNED_INT, ctypes.c_void_p(12))),
}
found = {name: [message(*wrapped), message(*raw)] for name, (wrapped, raw) in pairs.items()}

# a real query's count, and a buffer's bytes, through each path; names made and deleted
counts = []
for read in (lambda q: GL.glGetQueryObjectuiv(q, GL.GL_QUERY_RESULT), calls.query_result):
    query = calls.gen("query")
    GL.glEnable(GL.GL_RASTERIZER_DISCARD)
    GL.glBeginQuery(GL.GL_PRIMITIVES_GENERATED, query)
    GL.glDrawArrays(GL.GL_POINTS, 0, 5)
    GL.glEndQuery(GL.GL_PRIMITIVES_GENERATED)
    counts.append(int(read(query)))
    calls.delete("query", query)
    counts.append(bool(GL.glIsQuery(query)))
buffer = calls.gen("buffer")
GL.glBindBuffer(GL.GL_ARRAY_BUFFER, buffer)
calls.buffer_data(GL.GL_ARRAY_BUFFER, 4, b"abcd", GL.GL_STATIC_DRAW)
data = calls.buffer_sub_data(GL.GL_ARRAY_BUFFER, 0, 4).decode()
print(json.dumps({"messages": found, "counts": counts, "data": data,
                  "made": [calls.gen(kind) > 0 for kind in ("framebuffer", "renderbuffer", "vertex_array")]}))
'''


@pytest.fixture(scope="module")
def answers() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    if "skip" in found:
        pytest.skip(found["skip"])
    return found


def test_a_gl_error_from_a_raw_call_reads_as_the_wrappers(answers):
    for name, (wrapped, raw) in answers["messages"].items():
        assert raw == wrapped, name
        if name.endswith("error"):          # the call did fail, and says so by name
            assert isinstance(raw, str) and raw.startswith("GL error GL_INVALID_"), (name, raw)


def test_an_unchecked_call_stays_unchecked(answers):
    """PyOpenGL checks no error after glShaderSource; nor does calls.shader_source, so a GL
    error from it is still named by the next call, as before."""
    assert answers["messages"]["shader_source on a program"] == [["value", 0x502]] * 2     # GL_INVALID_OPERATION


def test_a_query_reads_the_same_count_either_way_and_its_name_is_deleted(answers):
    assert answers["counts"] == [5, False, 5, False]


def test_buffer_data_and_names(answers):
    assert answers["data"] == "abcd" and answers["made"] == [True, True, True]
