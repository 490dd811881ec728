"""Draws that change the restart index between them: one element array, one vertex buffer, two
draws. Draw 0 restarts at a chosen index (7); draw 1, over the array's second part and with its
vertices far from draw 0's (base vertex 100), at the type's maximum, and its indices hold 7 as a
vertex. A layer that keeps draw 0's restart index splits draw 1's runs at that 7.

GL 4.6 compatibility 10.3.6: "the primitive restart index is ... specified by
PrimitiveRestartIndex"; the state is read by each drawing command, as every other state is
(the restart comparison "occurs before the basevertex offset is added").
"""
from __future__ import annotations

import dataclasses

from harness.model.case import Attribute, Case

from . import cases


def restart_switch(mode: str) -> Case:
    first = cases.make_case(cases.Plan(mode, path="elements", index_type="ushort", restart="chosen"))
    second = cases.make_case(cases.Plan(mode, path="elements-far", index_type="ushort", restart="fixed"))
    assert cases.CHOSEN_RESTART in second.indices, "draw 1 must hold the first draw's restart index as a vertex"
    vertices = max(first.vertices, second.vertices)
    attributes = tuple(_merged(a, b, vertices) for a, b in zip(first.attributes, second.attributes))
    (entry,) = second.steps[0].entries
    draw1 = dataclasses.replace(second.steps[0], entries=(dataclasses.replace(entry, first=len(first.indices)),),
                                label=second.steps[0].label.replace("draw 0", "draw 1", 1))
    expect1 = dataclasses.replace(second.expect[0], step=1)
    expect1 = dataclasses.replace(expect1, pixels=tuple(dataclasses.replace(
        p, quantity=p.quantity.replace("draw 0", "draw 1")) for p in expect1.pixels))
    plan_id = f"{cases.FAMILY}/{cases.TOKENS[mode]}/pv-last/elements-ushort/restart-chosen-then-fixed"
    return dataclasses.replace(
        first, id=plan_id, vertices=vertices, attributes=attributes, steps=(first.steps[0], draw1),
        expect=(first.expect[0], expect1), indices=first.indices + second.indices,
        description=f"GL_{mode}: glDrawElements restarting at {cases.CHOSEN_RESTART}, then "
                    f"glDrawElementsBaseVertex restarting at 0xffff over indices holding {cases.CHOSEN_RESTART}",
        params=(("mode", mode), ("switch", "restart-chosen-then-fixed")))


def _merged(a: Attribute, b: Attribute, vertices: int) -> Attribute:
    """One attribute of both draws: each vertex's data from the draw that uses it (the unused
    filler of one is the other's vertex)."""
    size = a.components
    data = []
    for v in range(vertices):
        own = b if v * size < len(b.data) and v >= cases.FAR_BASE_VERTEX else a
        chunk = own.data[v * size:(v + 1) * size]
        data += list(chunk) if len(chunk) == size else [-1000.0] * size
    return dataclasses.replace(a, data=tuple(data))
