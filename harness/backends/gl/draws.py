"""Issues a Draw through the GL entry point it names, with exactly the arguments it takes.

Element draws read the case's element array (bound with the VAO); indirect draws read their
commands from a buffer built here, at the draw's offset and stride; *IndirectCount draws read
the draw count from a parameter buffer.
"""
from __future__ import annotations

import ctypes
import struct
from typing import Any

from harness.backends import indirect_commands
from harness.base.errors import HarnessFault
from harness.backends.gl.objects import Objects
from harness.model.case import Case, Draw
from harness.model.glfacts import BEGIN_END, INDEX_TYPES

PARAMETER_OFFSET = 4          # bytes into the parameter buffer where the draw count sits


class UnknownDraw(HarnessFault):
    """A Draw naming no GL entry point this module issues: the case's (the harness's) fault, never the driver's."""


def issue(GL: Any, case: Case, draw: Draw, made: Objects) -> None:
    """Buffers it needs are made in `made`, deleted with the case's other objects; the element
    draws go through made.calls' raw functions (calls.py)."""
    mode = getattr(GL, "GL_" + draw.mode)
    command = draw.command
    if command == BEGIN_END:
        for e in draw.entries:
            GL.glBegin(mode)
            for element in range(e.first, e.first + e.count):
                GL.glArrayElement(element)     # every enabled array's element, the edge flags' too
            GL.glEnd()
        return
    index_type = getattr(GL, "GL_" + case.index_type_of(draw))
    size = INDEX_TYPES[case.index_type_of(draw)].size
    entries = draw.entries
    if command.startswith("Multi") and "Indirect" not in command:
        _multi(GL, command, mode, entries, index_type, size)
        return
    if "Indirect" in command:
        _indirect(GL, case, draw, mode, index_type, made)
        return
    (e,) = entries
    raw = made.calls
    offset = ctypes.c_void_p(e.first * size)
    if command == "DrawArrays":
        GL.glDrawArrays(mode, e.first, e.count)
    elif command == "DrawArraysInstanced":
        GL.glDrawArraysInstanced(mode, e.first, e.count, e.instance_count)
    elif command == "DrawArraysInstancedBaseInstance":
        GL.glDrawArraysInstancedBaseInstance(mode, e.first, e.count, e.instance_count, e.base_instance)
    elif command == "DrawElements":
        raw.glDrawElements(mode, e.count, index_type, offset)
    elif command == "DrawRangeElements":
        start, end = _range(case, draw, e)
        raw.glDrawRangeElements(mode, start, end, e.count, index_type, offset)
    elif command == "DrawElementsBaseVertex":
        raw.glDrawElementsBaseVertex(mode, e.count, index_type, offset, e.base_vertex)
    elif command == "DrawRangeElementsBaseVertex":
        start, end = _range(case, draw, e)
        raw.glDrawRangeElementsBaseVertex(mode, start, end, e.count, index_type, offset, e.base_vertex)
    elif command == "DrawElementsInstanced":
        raw.glDrawElementsInstanced(mode, e.count, index_type, offset, e.instance_count)
    elif command == "DrawElementsInstancedBaseVertex":
        raw.glDrawElementsInstancedBaseVertex(mode, e.count, index_type, offset, e.instance_count, e.base_vertex)
    elif command == "DrawElementsInstancedBaseInstance":
        raw.glDrawElementsInstancedBaseInstance(mode, e.count, index_type, offset, e.instance_count,
                                               e.base_instance)
    elif command == "DrawElementsInstancedBaseVertexBaseInstance":
        raw.glDrawElementsInstancedBaseVertexBaseInstance(mode, e.count, index_type, offset, e.instance_count,
                                                         e.base_vertex, e.base_instance)
    else:
        raise UnknownDraw(f"unknown draw command gl{command}")


def _range(case: Case, draw: Draw, e: Any) -> tuple[int, int]:
    """DrawRange*'s start and end: the smallest and largest index values the draw reads."""
    used = case.elements(case.index_type_of(draw))[e.first:e.first + e.count] or (0,)
    return min(used), max(used)


def _multi(GL: Any, command: str, mode: Any, entries: Any, index_type: Any, size: int) -> None:
    n = len(entries)
    counts = (ctypes.c_int * max(n, 1))(*[e.count for e in entries])
    if command == "MultiDrawArrays":
        firsts = (ctypes.c_int * max(n, 1))(*[e.first for e in entries])
        GL.glMultiDrawArrays(mode, firsts, counts, n)
        return
    offsets = (ctypes.c_void_p * max(n, 1))(*[e.first * size for e in entries])
    if command == "MultiDrawElements":
        GL.glMultiDrawElements(mode, counts, index_type, offsets, n)
    elif command == "MultiDrawElementsBaseVertex":
        bases = (ctypes.c_int * max(n, 1))(*[e.base_vertex for e in entries])
        GL.glMultiDrawElementsBaseVertex(mode, counts, index_type, offsets, n, bases)
    else:
        raise UnknownDraw(f"unknown draw command gl{command}")


def _indirect(GL: Any, case: Case, draw: Draw, mode: Any, index_type: Any, made: Objects) -> None:
    elements = "Elements" in draw.command
    data, _ = indirect_commands(draw)
    GL.glBindBuffer(GL.GL_DRAW_INDIRECT_BUFFER, made.new("buffer"))
    made.calls.buffer_data(GL.GL_DRAW_INDIRECT_BUFFER, len(data), data, GL.GL_STATIC_DRAW)
    where = ctypes.c_void_p(draw.indirect_offset)
    n = len(draw.entries)
    command = draw.command
    if command == "DrawArraysIndirect":
        GL.glDrawArraysIndirect(mode, where)
    elif command == "DrawElementsIndirect":
        GL.glDrawElementsIndirect(mode, index_type, where)
    elif command == "MultiDrawArraysIndirect":
        GL.glMultiDrawArraysIndirect(mode, where, n, draw.indirect_stride)
    elif command == "MultiDrawElementsIndirect":
        GL.glMultiDrawElementsIndirect(mode, index_type, where, n, draw.indirect_stride)
    elif command in ("MultiDrawArraysIndirectCount", "MultiDrawElementsIndirectCount"):
        from OpenGL.GL.ARB import indirect_parameters as ARB
        parameters = struct.pack("<2I", 0xDEADBEEF, draw.draw_count)      # count at PARAMETER_OFFSET
        GL.glBindBuffer(ARB.GL_PARAMETER_BUFFER_ARB, made.new("buffer"))
        made.calls.buffer_data(ARB.GL_PARAMETER_BUFFER_ARB, len(parameters), parameters, GL.GL_STATIC_DRAW)
        if elements:
            ARB.glMultiDrawElementsIndirectCountARB(mode, index_type, where, PARAMETER_OFFSET, n,
                                                    draw.indirect_stride)
        else:
            ARB.glMultiDrawArraysIndirectCountARB(mode, where, PARAMETER_OFFSET, n, draw.indirect_stride)
    else:
        raise UnknownDraw(f"unknown draw command gl{command}")
