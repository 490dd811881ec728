"""Draws that change the restart index between them: one element array, one vertex buffer, two
draws. Draw 0 restarts at a chosen index (7); draw 1, over the array's second part and with its
vertices far from draw 0's (base vertex 100), at the type's maximum, and its indices hold 7 as a
vertex. A layer that keeps draw 0's restart index splits draw 1's runs at that 7.

GL 4.6 compatibility 10.3.6: "the primitive restart index is ... specified by
PrimitiveRestartIndex"; the state is read by each drawing command, as every other state is
(the restart comparison "occurs before the basevertex offset is added").

The type switches (type_switch) change the index type between the two draws instead, over one
element array: draw 0 reads its part as one type, draw 1 its part as the other (GL reads "the
indices ... as unsigned bytes, shorts or ints" as `type` says, 10.3.5/10.4). 10.3.6: "If
PRIMITIVE_RESTART_FIXED_INDEX is enabled, primitive restart is enabled ... with an index value
of 2^N - 1, where N is 8, 16 or 32 if the type is UNSIGNED_BYTE, UNSIGNED_SHORT, or UNSIGNED_INT,
respectively", taking precedence over PRIMITIVE_RESTART; with PRIMITIVE_RESTART the index set
by PrimitiveRestartIndex is compared with the index values as they are, whatever their type.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from harness.model.case import Attribute, Case, Draw, Requirements
from harness.model.glfacts import INDEX_TYPES

from . import build


def restart_switch(mode: str) -> Case:
    first = build.make_case(build.Plan(mode, path="elements", index_type="ushort", restart="chosen"))
    second = build.make_case(build.Plan(mode, path="elements-far", index_type="ushort", restart="fixed"))
    assert build.CHOSEN_RESTART in second.indices, "draw 1 must hold the first draw's restart index as a vertex"
    vertices = max(first.vertices, second.vertices)
    attributes = tuple(_merged(a, b, vertices) for a, b in zip(first.attributes, second.attributes))
    (entry,) = _draw(second).entries
    draw1 = dataclasses.replace(_draw(second), entries=(dataclasses.replace(entry, first=len(first.indices)),),
                                label=_draw(second).label.replace("draw 0", "draw 1", 1))
    expect1 = dataclasses.replace(second.expect[0], step=1)
    expect1 = dataclasses.replace(expect1, pixels=tuple(dataclasses.replace(
        p, quantity=p.quantity.replace("draw 0", "draw 1")) for p in expect1.pixels))
    plan_id = f"{build.FAMILY}/{build.TOKENS[mode]}/pv-last/elements-ushort/restart-chosen-then-fixed"
    return dataclasses.replace(
        first, id=plan_id, vertices=vertices, attributes=attributes, steps=(first.steps[0], draw1),
        expect=(first.expect[0], expect1), indices=first.indices + second.indices,
        description=f"GL_{mode}: glDrawElements restarting at {build.CHOSEN_RESTART}, then "
                    f"glDrawElementsBaseVertex restarting at 0xffff over indices holding {build.CHOSEN_RESTART}",
        params=(("mode", mode), ("switch", "restart-chosen-then-fixed")))


def _draw(case: Case) -> Draw:
    """A case's draw: make_case's cases draw once, their first step."""
    step = case.steps[0]
    assert isinstance(step, Draw), step
    return step


def _merged(a: Attribute, b: Attribute, vertices: int) -> Attribute:
    """One attribute of both draws: each vertex's data from the draw that uses it (the unused
    filler of one is the other's vertex)."""
    size = a.components
    data = []
    for v in range(vertices):
        own = b if v * size < len(b.data) and v >= build.FAR_BASE_VERTEX else a
        chunk = own.data[v * size:(v + 1) * size]
        data += list(chunk) if len(chunk) == size else [-1000.0] * size
    return dataclasses.replace(a, data=tuple(data))


# token -> (draw 0's type and Plan restart, draw 1's, how both restart: "fixed-index"
# (PRIMITIVE_RESTART_FIXED_INDEX) or the index PrimitiveRestartIndex sets)
TYPE_SWITCHES: dict[str, tuple[str, str, str, str, str | int]] = {
    # draw 1 must restart at 0xff, its type's maximum, no longer at 0xffff
    "elements-ushort-then-ubyte/restart-fixed-index": ("ushort", "fixed", "ubyte", "fixed", "fixed-index"),
    # draw 1 must restart at 0xffff, and its indices hold 0xff as a vertex
    "elements-ubyte-then-ushort/restart-fixed-index": ("ubyte", "fixed", "ushort", "fixed", "fixed-index"),
    # 0xffff restarts draw 0; draw 1's bytes never equal it, and 0xff is a vertex there
    "elements-ushort-then-ubyte/restart-index-ffff": ("ushort", "fixed", "ubyte", "above", 0xFFFF),
    # 0xff restarts draw 0 (its maximum) and draw 1 too (below its maximum, 0xffff)
    "elements-ubyte-then-ushort/restart-index-ff": ("ubyte", "fixed", "ushort", "chosen", 0xFF),
}
BYTE = 0xFF


def type_switch(mode: str, token: str) -> Case:
    """Two element draws over one array of bytes, each reading its part as its own index type."""
    type0, restart0, type1, restart1, how = TYPE_SWITCHES[token]
    first = build.make_case(build.Plan(mode, path="elements", index_type=type0, restart=restart0))
    second = build.make_case(build.Plan(mode, path="elements-far", index_type=type1, restart=restart1))
    if restart1 == "chosen":                # the chosen index (7) becomes 0xff, a restart for 16-bit indices too
        second = dataclasses.replace(second, indices=tuple(BYTE if v == build.CHOSEN_RESTART else v
                                                           for v in second.indices))
    elif type1 == "ushort":                 # 0xff a vertex of the 16-bit draw
        second = _renumbered(second, second.indices[1], BYTE)
    if how == "fixed-index":
        restarts: tuple[int | None, int | None] = (None, None)
    else:
        restarts = (int(how), int(how))
    names = (build.INDEX[type0], build.INDEX[type1])
    part0 = np.asarray(first.indices, dtype=INDEX_TYPES[names[0]].dtype).tobytes()
    size1 = INDEX_TYPES[names[1]].size
    part0 += bytes(-len(part0) % size1)        # draw 1's offset a multiple of its index size
    part1 = np.asarray(second.indices, dtype=INDEX_TYPES[names[1]].dtype).tobytes()
    (entry,) = _draw(second).entries
    draws = []
    for i, (case, name, restart) in enumerate(zip((first, second), names, restarts)):
        draw = _draw(case)
        call = f"glDraw{'ElementsBaseVertex' if i else 'Elements'}(GL_{mode}, GL_{name})"
        draws.append(dataclasses.replace(
            draw, index_type="" if name == "UNSIGNED_BYTE" else name, restart_index=restart,
            restart_fixed=how == "fixed-index", label=f"draw {i} ({call})",
            entries=(dataclasses.replace(entry, first=len(part0) // size1),) if i else draw.entries))
    vertices = max(first.vertices, second.vertices)
    attributes = tuple(_merged(a, b, vertices) for a, b in zip(first.attributes, second.attributes))
    expect1 = dataclasses.replace(second.expect[0], step=1)
    restart_words = ("PRIMITIVE_RESTART_FIXED_INDEX" if how == "fixed-index"
                     else f"glPrimitiveRestartIndex({int(how):#x})")
    return dataclasses.replace(
        first, id=f"{build.FAMILY}/{build.TOKENS[mode]}/pv-last/{token}", vertices=vertices, attributes=attributes,
        steps=tuple(draws), expect=(first.expect[0], expect1), indices=tuple(part0 + part1),
        index_type="UNSIGNED_BYTE",
        requires=Requirements((4, 3), first.requires.profile) if how == "fixed-index" else first.requires,
        description=f"GL_{mode}: {restart_words}, glDrawElements with GL_{names[0]} indices, then "
                    f"glDrawElementsBaseVertex with GL_{names[1]} indices of the same element array",
        params=(("mode", mode), ("switch", token)))


def _renumbered(case: Case, old: int, new: int) -> Case:
    """The case with index value `old` written as `new`, the vertex it reads (base vertex added)
    moved with it: the same vertex, under another index value."""
    (entry,) = _draw(case).entries
    source, target = old + entry.base_vertex, new + entry.base_vertex
    vertices = max(case.vertices, target + 1)
    attributes = []
    for a in case.attributes:
        n = a.components
        data = list(a.data) + [-1000.0] * (vertices * n - len(a.data))
        data[target * n:(target + 1) * n] = a.data[source * n:(source + 1) * n]
        attributes.append(dataclasses.replace(a, data=tuple(data)))
    return dataclasses.replace(case, vertices=vertices, attributes=tuple(attributes),
                               indices=tuple(new if v == old else v for v in case.indices))
