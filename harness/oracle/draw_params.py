"""Reference model of the vertex shader built-ins a draw command produces (OpenGL 4.6).

Given a drawing command's arguments, list what every vertex shader invocation sees
(gl_VertexID, gl_InstanceID, gl_BaseVertex, gl_BaseInstance, gl_DrawID and the attribute
elements it fetches), in the order transform feedback captures them: sub-draws in order,
then instances, then vertices (GL 4.6 section 10.4 defines every command "as if"
DrawArraysOneInstance / DrawElementsOneInstance were called in that order).

Mode is always POINTS, so each transferred vertex is one invocation. The commands and the
arguments each takes are harness/model/glfacts.py's; a sub-draw's arguments are a case.DrawEntry.
Pure functions, no state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from harness.model.case import DrawEntry
from harness.model.glfacts import (ARRAYS_COMMANDS, COMMANDS, COUNT_COMMANDS, ELEMENTS_COMMANDS,  # noqa: F401
                             INDIRECT_COMMANDS, MULTI_COMMANDS, takes)


@dataclass(frozen=True)
class Invocation:
    """What one vertex shader invocation sees."""
    entry: int               # which sub-draw (0 for single draws)
    instance: int            # 0-based instance within the sub-draw
    vertex: int              # position i in the sub-draw's sequence (restart positions count)
    vertex_id: int           # gl_VertexID
    instance_id: int         # gl_InstanceID
    base_vertex: int         # gl_BaseVertex
    base_instance: int       # gl_BaseInstance
    draw_id: int             # gl_DrawID
    fetched_vertex: int      # element of a per-vertex attribute array read
    fetched_instance: int    # element of an instanced (divisor 1) attribute array read


def invocations(command: str, entries: Sequence[DrawEntry], indices: Sequence[int] = (),
                restart_index: int | None = None,
                draw_count: int | None = None) -> list[Invocation]:
    """Every vertex shader invocation of the draw, in transform feedback order.

    `indices` is the whole element array (element commands only; DrawEntry.first offsets into
    it). `restart_index` is the primitive restart index when restart is enabled.
    `draw_count` is the value in the count buffer (the *IndirectCount commands only;
    `entries` is then maxdrawcount long).
    """
    fields = takes(command)                  # ValueError for an unknown command
    if command not in MULTI_COMMANDS and len(entries) != 1:
        raise ValueError(f"{command} draws exactly one entry, got {len(entries)}")
    if command in COUNT_COMMANDS:
        if draw_count is None or draw_count < 0:
            raise ValueError(f"{command} needs a non-negative draw_count, got {draw_count}")
        # 10.4: the draw count is the lesser of the count buffer value and maxdrawcount.
        entries = entries[:min(draw_count, len(entries))]
    elif draw_count is not None:
        raise ValueError(f"{command} takes no draw_count (only *IndirectCount commands do)")

    elements = command in ELEMENTS_COMMANDS
    out: list[Invocation] = []
    for d, entry in enumerate(entries):
        # Fields the command does not take have their defaults: instancecount 1,
        # basevertex 0, baseinstance 0 (GLSL 4.60 7.1: gl_BaseVertex/gl_BaseInstance
        # are zero when the command has no such parameter).
        count = entry.count
        first = entry.first
        n_inst = entry.instance_count if "instance_count" in fields else 1
        base_v = entry.base_vertex if "base_vertex" in fields else 0
        base_i = entry.base_instance if "base_instance" in fields else 0
        for name, value in (("count", count), ("first", first),
                            ("instance_count", n_inst), ("base_instance", base_i)):
            if value < 0:
                raise ValueError(f"{command} entry {d}: negative {name} {value}")
        if elements and count and first + count > len(indices):
            raise ValueError(f"{command} entry {d}: element positions {first}..{first + count - 1}"
                             f" are out of range of the {len(indices)} indices given")
        # gl_DrawID is the sub-draw's index for Multi* commands, zero otherwise (10.4).
        draw_id = d if command in MULTI_COMMANDS else 0
        # Instances in order, each one a full *OneInstance pass over the vertices (10.4).
        for inst in range(n_inst):
            for i in range(count):
                if elements:
                    index = indices[first + i]
                    # 10.3.6: restart compares the index before basevertex is added, and
                    # applies only to element commands; a restart index draws nothing.
                    if restart_index is not None and index == restart_index:
                        continue
                    vertex_id = index + base_v       # DrawElementsOneInstance
                else:
                    vertex_id = first + i            # DrawArraysOneInstance
                out.append(Invocation(
                    entry=d, instance=inst, vertex=i,
                    vertex_id=vertex_id,
                    instance_id=inst,                # gl_InstanceID excludes baseinstance
                    base_vertex=base_v,              # 0 for arrays commands, whatever first is
                    base_instance=base_i,
                    draw_id=draw_id,
                    fetched_vertex=vertex_id,        # per-vertex attributes: element gl_VertexID
                    fetched_instance=inst + base_i,  # floor(instance / 1) + baseinstance
                ))
    return out
