"""Primitive assembly as a layer converts it: every GL primitive type, both provoking-vertex
conventions, the draw paths, primitive restart, polygon mode and flat varyings of every type.

Every vertex carries a unique id through a flat varying; each run of a draw (a piece between
restarts, a sub-draw, an instance) has a band of the image to itself, where its primitives lie
apart (layout.py). The fragment shader writes the flat id it sees into an RGBA32F target, and at
the pixels that tell each primitive (its inside, a line's middle, in polygon mode LINE its
axis-aligned edges and a clear inside) the oracle (harness/oracle/primitives.py) says which
vertex's id must be there: the provoking vertex of Table 13.2 under the draw's convention.

Flatshading (GL 4.6 compatibility, 13.6): "the value of a flat-shaded output is taken from the
provoking vertex" of the primitive; the GL's initial convention is LAST_VERTEX_CONVENTION.
"""
from __future__ import annotations

from harness.model.case import Case
from harness.oracle import primitives as oracle

from . import geometry, readouts, switches
from .build import FLAT_TYPES, Plan, make_case


def conventions(mode: str) -> list[tuple[str, bool | None]]:
    """Both conventions; under the first, a quad's provoking vertex depends on the driver's
    QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION, so each value is a case that requires it."""
    if mode in ("QUADS", "QUAD_STRIP"):
        return [("last", None), ("first", True), ("first", False)]
    return [("last", None), ("first", None)]


def plans() -> list[Plan]:
    out: list[Plan] = []
    sweep = [("arrays", "ushort"), ("arrays-instanced", "ushort"), ("elements", "ubyte"), ("elements-bv", "ushort"),
             ("elements-instanced-bv", "uint"), ("multi-arrays", "ushort"), ("multi-elements-bv", "ushort"),
             ("indirect-arrays", "ushort"), ("indirect-elements", "uint")]
    for mode in oracle.MODES:
        for convention, follow in conventions(mode):
            for path, index_type in sweep:
                out.append(Plan(mode, convention, follow, path, index_type))
    restarted = [("elements", "ubyte"), ("elements-bv", "ushort"), ("elements-instanced-bv", "uint"),
                 ("multi-elements-bv", "uint"), ("indirect-elements", "ushort")]
    for mode in oracle.MODES:
        for restart in ("fixed", "chosen"):
            for path, index_type in restarted:
                out.append(Plan(mode, path=path, index_type=index_type, restart=restart))
        for _, follow in conventions(mode)[1:]:
            out.append(Plan(mode, "first", follow, path="elements-bv", index_type="ushort", restart="fixed"))
        out.append(Plan(mode, path="elements", index_type="ubyte", restart="above"))
    for mode in ("TRIANGLES", "QUADS", "QUAD_STRIP", "POLYGON", "TRIANGLE_FAN", "TRIANGLE_STRIP"):
        polygons = [("LINE", "LINE"), ("POINT", "POINT")]
        if mode in ("TRIANGLES", "QUADS"):
            polygons += [("LINE", "FILL"), ("FILL", "POINT")]
        for polygon in polygons:
            for convention, follow in conventions(mode):
                out.append(Plan(mode, convention, follow, polygon=polygon))
    for mode in oracle.MODES:                      # the compatibility profile's glBegin/glEnd
        for convention, follow in conventions(mode):
            out.append(Plan(mode, convention, follow, path="begin-end"))
    # 10.1.17: "When a primitive of type POLYGON, TRIANGLES, or QUADS is drawn, each vertex
    # transferred begins an edge", boundary or not as its edge flag says
    for mode in ("TRIANGLES", "QUADS", "POLYGON"):
        for polygon in (("LINE", "LINE"), ("POINT", "POINT")):
            for path, index_type in (("arrays", "ushort"), ("elements", "ushort"), ("begin-end", "ushort")):
                out.append(Plan(mode, path=path, index_type=index_type, polygon=polygon, edge_flags=True))
    for mode in ("TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN", "QUADS", "QUAD_STRIP", "POLYGON", "LINE_LOOP"):
        for flat_type in FLAT_TYPES:
            if flat_type != "int":
                out.append(Plan(mode, flat_type=flat_type))
    return out + geometry.plans(Plan) + _readout_plans()


def _readout_plans() -> list[Plan]:
    """Transform feedback (the order, the provoking vertex, the counts) and the query counts."""
    out: list[Plan] = []
    captured = [("arrays", "ushort", ""), ("elements-instanced-bv", "uint", "fixed"),
                ("multi-elements-bv", "ushort", "chosen"), ("indirect-arrays", "ushort", ""), ("begin-end", "ushort", "")]
    for mode in oracle.MODES:
        if readouts.adjacency(mode):                 # an error under transform feedback (Table 13.1)
            out.append(Plan(mode, readout="xfb"))
            continue
        # quads are recorded as triangles in an undefined order: the convention moves nothing checked
        for convention in ("last", "first"):
            for path, index_type, restart in captured:
                out.append(Plan(mode, convention, None, path, index_type, restart, readout="xfb"))
    counted = [("arrays", "ushort", ""), ("elements", "ubyte", "fixed"), ("elements-instanced-bv", "uint", ""),
               ("multi-arrays", "ushort", ""), ("begin-end", "ushort", "")]
    for mode in oracle.MODES:
        for path, index_type, restart in counted:
            out.append(Plan(mode, path=path, index_type=index_type, restart=restart, readout="stats"))
    # polygon mode acts at rasterization only (14.6.4: "these modes affect only the final
    # rasterization of polygons"): what is captured and counted is the filled form's
    for mode in ("TRIANGLES", "QUADS", "QUAD_STRIP", "POLYGON"):
        out.append(Plan(mode, polygon=("LINE", "LINE"), readout="xfb"))
        if mode != "TRIANGLES":
            out.append(Plan(mode, polygon=("LINE", "LINE"), readout="stats"))
    # the clipping counts (13.7.3) of every type, and the counts a GS of three invocations makes
    for mode in oracle.MODES:
        for path, index_type, restart in counted[:3]:
            out.append(Plan(mode, path=path, index_type=index_type, restart=restart, readout="clipping"))
            if geometry.accepts(mode):
                out.append(Plan(mode, path=path, index_type=index_type, restart=restart, readout="stats", gs=3))
    return out


def generate() -> list[Case]:
    return [make_case(plan) for plan in plans()] + [switches.restart_switch(mode) for mode in oracle.MODES] + \
        [switches.type_switch(mode, token) for mode in oracle.MODES for token in switches.TYPE_SWITCHES]
