"""One primitives case from its Plan: the family's constants, the draw paths, the shaders, the
layout of each run's vertices, and the pixels and counts the oracle (harness/oracle/primitives.py)
expects. cases.py says which plans the family holds; switches.py draws two plans into one case."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from harness.glsl.templates import render
from harness.model.case import (Attribute, Case, Draw, DrawEntry, DrawState, Expectation, ExpectedPixel, Readback,
                                Requirements)
from harness.model import glfacts
from harness.model.glfacts import INDEX_TYPES
from harness.oracle import primitives as oracle

from . import geometry, layout, readouts
from .readouts import Shape

HERE = Path(__file__).parent
FAMILY = "primitives"
WIDTH = 128
CLEAR = -7777.0
INSTANCE_IDS = 1000            # an instance's ids are its vertices' ids plus this times gl_InstanceID
BASE_VERTEX = 5
FAR_BASE_VERTEX = 100
CHOSEN_RESTART = 7             # a restart index inside the type's range, not its maximum
TOKENS = {m: m.lower().replace("_adjacency", "_adj") for m in oracle.MODES}
INDEX = {"ubyte": "UNSIGNED_BYTE", "ushort": "UNSIGNED_SHORT", "uint": "UNSIGNED_INT"}
Positions = dict[int, tuple[float, float]]     # element -> its vertex's (x, y)
# One run's length per mode: some primitives and, where the mode has them, the vertices of an
# incomplete one at the end, which must be ignored.
RUN = {"POINTS": 5, "LINES": 7, "LINE_LOOP": 6, "LINE_STRIP": 5, "TRIANGLES": 8, "TRIANGLE_STRIP": 7,
       "TRIANGLE_FAN": 6, "QUADS": 10, "QUAD_STRIP": 9, "POLYGON": 6, "LINES_ADJACENCY": 10,
       "LINE_STRIP_ADJACENCY": 6, "TRIANGLES_ADJACENCY": 14, "TRIANGLE_STRIP_ADJACENCY": 11}
# Runs of a restarted draw: pieces of other lengths, one of them too short for a primitive where
# the mode allows it (a restart right after a restart included for POINTS).
RESTART_RUNS = {"POINTS": (3, 0, 2), "LINES": (3, 4), "LINE_LOOP": (4, 1, 4), "LINE_STRIP": (3, 1, 4),
                "TRIANGLES": (4, 2, 3), "TRIANGLE_STRIP": (4, 2, 5), "TRIANGLE_FAN": (4, 5),
                "QUADS": (4, 3, 6), "QUAD_STRIP": (6, 3, 4), "POLYGON": (4, 2, 6), "LINES_ADJACENCY": (5, 4),
                "LINE_STRIP_ADJACENCY": (5, 3, 4), "TRIANGLES_ADJACENCY": (6, 7),
                "TRIANGLE_STRIP_ADJACENCY": (8, 5, 6)}
FLAT_TYPES = {                 # GLSL type -> (components, scalar constructor, GLSL version)
    "int": (1, "int", 330), "uint": (1, "uint", 330), "float": (1, "float", 330),
    "ivec2": (2, "int", 330), "uvec3": (3, "uint", 330), "vec4": (4, "float", 330),
    "double": (1, "double", 400), "dvec2": (2, "double", 400), "dvec3": (3, "double", 400),
    "block": (1, "int", 330),
}


@dataclass(frozen=True)
class Path_:
    """A way to issue the draw: the command, how many sub-draws and instances, base vertex."""
    token: str
    command: str
    entries: int = 1
    instances: int = 1
    base_vertex: int = 0

    @property
    def elements(self) -> bool:
        return "Elements" in self.command


PATHS = {p.token: p for p in (
    Path_("arrays", "DrawArrays"),
    Path_("arrays-instanced", "DrawArraysInstanced", instances=2),
    Path_("elements", "DrawElements"),
    Path_("elements-bv", "DrawElementsBaseVertex", base_vertex=BASE_VERTEX),
    Path_("elements-instanced-bv", "DrawElementsInstancedBaseVertex", instances=2, base_vertex=BASE_VERTEX),
    Path_("multi-arrays", "MultiDrawArrays", entries=2),
    Path_("multi-elements-bv", "MultiDrawElementsBaseVertex", entries=2, base_vertex=BASE_VERTEX),
    Path_("indirect-arrays", "DrawArraysIndirect", instances=2),
    Path_("indirect-elements", "DrawElementsIndirect", instances=2, base_vertex=BASE_VERTEX),
    Path_("begin-end", glfacts.BEGIN_END),      # compatibility: glBegin, glArrayElement per vertex, glEnd
    # vertices far from the others' (switches.py draws both into one case)
    Path_("elements-far", "DrawElementsBaseVertex", base_vertex=FAR_BASE_VERTEX),
)}


@dataclass(frozen=True)
class Plan:
    mode: str
    convention: str = "last"            # "last" (GL's initial) or "first"
    quads_follow: bool | None = None    # first convention, quads: the driver's QUADS_FOLLOW_... value
    path: str = "arrays"
    index_type: str = "ushort"
    restart: str = ""                   # "", "fixed" (2^N - 1), "chosen" (CHOSEN_RESTART), "above" (over 2^N - 1)
    polygon: tuple[str, str] = ("FILL", "FILL")      # front, back
    flat_type: str = "int"
    edge_flags: bool = False            # an edge flag array, FALSE at every run's vertices 1, 4, 7, ...
    readout: str = "image"              # "image", "xfb" (transform feedback), "stats" or "clipping" (query counts)
    gs: int = 0                         # > 0: a pass-through geometry shader of this many invocations (geometry.py)

    @property
    def compat(self) -> bool:
        return (self.mode in oracle.COMPAT_MODES or self.polygon[0] != self.polygon[1] or self.edge_flags
                or self.path == "begin-end")

    @property
    def version(self) -> int:
        return 400 if self.gs > 1 else FLAT_TYPES[self.flat_type][2]     # invocations: GLSL 4.00

    def case_id(self) -> str:
        parts = [FAMILY, TOKENS[self.mode]]
        pv = f"pv-{self.convention}"
        if self.quads_follow is not None:
            pv += "-quads-follow" if self.quads_follow else "-quads-last"
        parts.append(pv)
        path = PATHS[self.path]
        parts.append(f"{self.path}-{self.index_type}" if path.elements else self.path)
        if self.restart:
            parts.append(f"restart-{self.restart}")
        if self.polygon != ("FILL", "FILL"):
            front, back = (m.lower() for m in self.polygon)
            parts.append(f"polygon-{front}" if front == back else f"polygon-front-{front}-back-{back}")
        if self.flat_type != "int":
            parts.append(f"flat-{self.flat_type}")
        if self.edge_flags:
            parts.append("edge-flags")
        if self.gs:
            parts.append("gs" if self.gs == 1 else f"gs-x{self.gs}")
        if self.readout != "image":
            parts.append(self.readout)
        return "/".join(parts)


def restart_index(plan: Plan) -> int | None:
    top = INDEX_TYPES[INDEX[plan.index_type]].fixed_restart
    return {"": None, "fixed": top, "chosen": CHOSEN_RESTART, "above": top + 0x100}[plan.restart]


@functools.lru_cache(maxsize=None)
def shaders(version: int, compat: bool, flat_type: str, height: int, stride: int, mode: str = "", gs: int = 0,
            shift: int = 0) -> tuple[tuple[str, str], ...]:
    """The VS and FS; with `gs`, the geometry shader of `mode` with `gs` invocations between them,
    each invocation's copy `shift` pixels above the one before."""
    components, scalar, _ = FLAT_TYPES[flat_type]
    params = dict(version=version, compat=compat, flat_type=flat_type, typed=flat_type not in ("int", "block"),
                  components=components, scalar=scalar, width=WIDTH, height=height,
                  instance_stride=stride, instance_ids=INSTANCE_IDS, gs=bool(gs))
    middle = (("gs", geometry.shader(mode, version, compat, gs, height, shift)),) if gs else ()
    return (("vs", render(HERE / "primitives.vert", **params)),) + middle + \
        (("fs", render(HERE / "primitives.frag", **params)),)


def _lay_out(plan: Plan, run_lengths: tuple[int, ...], values: list[int], restart: int | None
             ) -> tuple[Positions, dict[int, bool], list[int], list[DrawEntry], list[Shape]]:
    """Each sub-draw's runs in their bands: every vertex's position and edge flag, the element
    array, the sub-draws and their runs (`values`: the index values an element draw takes, in order)."""
    path = PATHS[plan.path]
    positions: Positions = {}
    flags: dict[int, bool] = {}                             # each vertex's edge flag (10.1.17)
    indices: list[int] = []
    entries: list[DrawEntry] = []
    shapes: list[Shape] = []          # (entry, band, elements of the run)
    next_array = 2
    for entry in range(path.entries):
        first_index = len(indices)
        elements_of_entry: list[list[int]] = []
        for r, n in enumerate(run_lengths):
            band = entry * len(run_lengths) + r
            if path.elements:
                if r:                   # a run after the first: only where runs end at a restart
                    assert restart is not None
                    indices.append(restart)
                run = [values.pop(0) + path.base_vertex for _ in range(n)]
                indices += [e - path.base_vertex for e in run]
            else:
                run = list(range(next_array, next_array + n))
                next_array += n
            for k, element in enumerate(run):
                x, y = layout.position(plan.mode, k, n, back=plan.polygon[0] != plan.polygon[1])
                positions[element] = (x, y + band * layout.BAND)
                flags[element] = not plan.edge_flags or k % 3 != 1
            elements_of_entry.append(run)
            shapes.append((entry, band, run))
        if path.elements:
            entries.append(DrawEntry(len(indices) - first_index, path.instances, first_index, path.base_vertex))
            # the runs the spec makes of these indices (10.3.6) are the runs laid out
            read = indices[first_index:]
            split = [[read[p] + path.base_vertex for p in run] for run in oracle.runs(read, restart)]
            if split != elements_of_entry:
                raise ValueError(f"{plan.case_id()}: entry {entry} restarts into {split}, laid out {elements_of_entry}")
        else:
            first = elements_of_entry[0][0]
            entries.append(DrawEntry(len(elements_of_entry[0]), path.instances, first))
        if not path.elements and path.entries > 1:
            next_array += 3                              # a gap between the sub-draws' vertices
    return positions, flags, indices, entries, shapes


def make_case(plan: Plan) -> Case:
    path = PATHS[plan.path]
    restart = restart_index(plan)
    # an index above the type's maximum never equals an index value: no restart happens
    runs_at_restart = restart is not None and plan.restart != "above"
    run_lengths = RESTART_RUNS[plan.mode] if runs_at_restart else (RUN[plan.mode],)
    bands = path.entries * len(run_lengths)
    stride = bands * layout.BAND
    copies = max(1, plan.gs)            # a GS's invocations each draw a copy above the last's
    height = 1 << (stride * path.instances * copies - 1).bit_length()
    # Elements: an element draw reads index values in a scrambled order; base vertex moves them.
    forbidden = {restart} if restart is not None else set()
    values = [v for v in range(3, 3 + 64) if v not in forbidden]
    values = values[::2] + values[1::2]
    if plan.restart == "above":         # the type's maximum is a vertex here, not a restart
        values.insert(1, INDEX_TYPES[INDEX[plan.index_type]].fixed_restart)
    positions, flags, indices, entries, shapes = _lay_out(plan, run_lengths, values, restart)
    vertices = max(positions) + 2
    position_data = tuple(c for e in range(vertices) for c in positions.get(e, (-1000.0, -1000.0)))
    ids = tuple(float(e + 1) for e in range(vertices))

    readback, expectation = _readout(plan, shapes, positions, flags, height)
    state = DrawState(provoking_vertex="FIRST" if plan.convention == "first" else "",
                      polygon_mode="" if plan.polygon[0] == "FILL" else plan.polygon[0],
                      polygon_mode_back="" if plan.polygon[1] == plan.polygon[0] else plan.polygon[1])
    call = (f"glBegin(GL_{plan.mode}), glArrayElement per vertex, glEnd" if path.command == glfacts.BEGIN_END
            else f"gl{path.command}(GL_{plan.mode})")
    draw = Draw(path.command, plan.mode, tuple(entries), state=state, restart_index=restart, label=f"draw 0 ({call})")
    return Case(
        id=plan.case_id(), family=FAMILY,
        shaders=shaders(plan.version, plan.compat, plan.flat_type, height, stride, plan.mode, plan.gs,
                        stride * path.instances),
        requires=_requirements(plan), vertices=vertices,
        attributes=(Attribute(0, 2, position_data, name="a_position"), Attribute(1, 1, ids, name="a_id"))
        + ((Attribute(2, 1, tuple(float(flags.get(e, True)) for e in range(vertices)), array="EDGE_FLAG"),)
           if plan.edge_flags else ()),
        steps=(draw,), readback=readback, expect=(expectation,),
        indices=tuple(indices), index_type=INDEX[plan.index_type],
        description=f"GL_{plan.mode} through {call}, {plan.convention} vertex convention"
                    + (f", restart at {restart:#x}" if restart is not None else "")
                    + (f", polygon mode {plan.polygon[0]}/{plan.polygon[1]}" if plan.polygon != ("FILL", "FILL") else "")
                    + f", flat {plan.flat_type}"
                    + (f", a pass-through geometry shader ({plan.gs} invocations)" if plan.gs else ""),
        params=tuple((k, v) for k, v in vars(plan).items() if k != "gs" or v),     # as before the GS came
    )


def _requirements(plan: Plan) -> Requirements:
    limits: tuple[tuple[str, str, int], ...] = ()
    if plan.quads_follow is not None:
        limits = (("GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION", "==", int(plan.quads_follow)),)
    version = (4, 0) if plan.version == 400 else (3, 3)
    extensions = ("GL_ARB_pipeline_statistics_query",) if plan.readout in ("stats", "clipping") else ()
    # NV_geometry_shader4 lets a GS take the types no input type takes (geometry.py): not an error there
    absent = ("GL_NV_geometry_shader4",) if plan.gs and not geometry.accepts(plan.mode) else ()
    return Requirements(gl_version=version, profile="compat" if plan.compat else "core", limits=limits,
                        extensions=extensions, absent_extensions=absent)


def _readout(plan: Plan, shapes: list[Shape], positions: Positions, flags: dict[int, bool], height: int) -> tuple[Readback, Expectation]:
    if plan.readout == "xfb":
        return readouts.capture(plan, shapes, INSTANCE_IDS, PATHS[plan.path].instances)
    if plan.readout == "stats":
        return readouts.statistics(plan, shapes, PATHS[plan.path].instances, (WIDTH, height, CLEAR))
    if plan.readout == "clipping":
        return readouts.clipping(plan, shapes, PATHS[plan.path].instances)
    pixels, written = _expected(plan, shapes, positions, flags)
    if plan.gs and not geometry.accepts(plan.mode):
        # 11.3.1: the draw is an error (2.3.1: "the command generating the error is ignored so
        # that it has no effect on GL state or framebuffer contents"): every pixel stays clear
        clear = [ExpectedPixel(p.index, p.quantity.split(": flat id")[0] + ": flat id (nothing drawn: no geometry "
                               "shader input type takes GL_" + plan.mode + ")", CLEAR)
                 for p in pixels if p.index % 4 == 0]
        return (Readback(image=(WIDTH, height), clear=CLEAR, gl_error=True),
                Expectation(0, counts=(("gl_error", geometry.INVALID_OPERATION), ("primitives_generated", 0)),
                            pixels=tuple(clear), written=tuple(written)))
    if not any(p.value != CLEAR for p in pixels):
        raise ValueError(f"{plan.case_id()}: nothing drawn is checked")
    return Readback(image=(WIDTH, height), clear=CLEAR), Expectation(0, pixels=tuple(pixels), written=tuple(written))


def _expected(plan: Plan, shapes: list[Shape], positions: Positions, flags: dict[int, bool]) -> tuple[list[ExpectedPixel], list[tuple[float, str]]]:
    path = PATHS[plan.path]
    bands = len(shapes)                       # an instance's bands: one per sub-draw's run
    runs = bands // path.entries
    pixels: list[ExpectedPixel] = []
    written: list[tuple[float, str]] = []
    typed = plan.flat_type not in ("int", "block")
    filled = plan.polygon == ("FILL", "FILL")
    # 15.2.2: without a geometry shader gl_PrimitiveID counts the primitives "since the last
    # drawing command was called"; "For QUADS and QUAD_STRIP primitives that are decomposed into
    # triangles, the primitive ID is incremented after each complete quad is processed";
    # "Restarting a primitive using the primitive restart index ... has no effect on the
    # primitive ID counter"; "For polygons drawn in point or line mode, the primitive ID counter
    # is incremented only once". Left unchecked where the spec leaves it open: POLYGON ("undefined
    # for fragments generated by POLYGON primitives"), instances and the sub-draws of a
    # multi-draw (no text says whether either starts the count again).
    primitive_ids = path.instances == 1 and path.entries == 1 and plan.mode != "POLYGON"
    # With a geometry shader, 11.3.4.5: gl_PrimitiveIDIn "is filled with the number of primitives
    # processed since the last time Begin was called (directly or indirectly via vertex array
    # functions). The first primitive generated after a Begin is numbered zero, and the
    # primitive ID counter is incremented after every individual point, line, or triangle
    # primitive is processed. ... Restarting a primitive topology using the primitive restart
    # index has no effect on the primitive ID counter." The FS reads what the GS wrote (15.2.2:
    # "If a geometry shader is active, the built-in variable gl_PrimitiveID contains the ID value
    # emitted by the geometry shader for the provoking vertex"). Whether each instance and each
    # sub-draw of a multi-draw begins again the text leaves open, as above: the first instance's
    # first sub-draw is checked, where either reading counts from zero.
    counted = 0
    for instance in range(path.instances):
        for entry, band, run in shapes:
            ids_checked = (instance == 0 and entry == 0) if plan.gs else primitive_ids
            for element in run:
                written.append((float(element + 1 + INSTANCE_IDS * instance),
                                f"vertex {element}" + (f" of instance {instance}" if instance else "")))
            drawn = []
            for primitive in oracle.assemble(plan.mode, len(run)):
                corners = [(x, y - band * layout.BAND) for x, y in (positions[run[k]] for k in primitive.vertices)]
                # counter-clockwise is front-facing (GL's initial CCW); points and lines take no mode
                mode = plan.polygon[0] if layout.signed_area(corners) > 0 else plan.polygon[1]
                edges = [flags[run[k]] for k in primitive.vertices]
                drawn.append((primitive, corners, layout.samples(primitive, corners, mode, edges)))
            if filled:
                layout.check(drawn)
            # In polygon mode LINE and POINT, neighbours of a strip or fan share edges and corners:
            # a pixel two primitives draw is left out (only the order of the two would decide it).
            owners: dict[tuple[int, int], set[int]] = {}
            for number, (_, _, picks) in enumerate(drawn):
                for pick in picks:
                    owners.setdefault(pick.pixel, set()).add(number)
            for number, (primitive, _, picks) in enumerate(drawn):
                provoking = run[primitive.provoking(plan.convention, plan.quads_follow is not False)]
                value = float(provoking + 1 + INSTANCE_IDS * instance)
                y0 = (band + instance * bands) * layout.BAND
                where = (f"{'entry %d, ' % entry if path.entries > 1 else ''}"
                         f"{'instance %d, ' % instance if path.instances > 1 else ''}"
                         f"{'run %d, ' % (band % runs) if plan.restart else ''}"
                         f"primitive {primitive.number} (vertices {', '.join(str(run[k]) for k in primitive.vertices)})")
                for pick in picks:
                    if len(owners[pick.pixel]) > 1:
                        continue
                    x, y = pick.pixel[0], pick.pixel[1] + y0
                    index = (y * WIDTH + x) * 4
                    if not pick.drawn:
                        why = " (its edge flag is FALSE)" if pick.what != "inside" else ""
                        pixels.append(ExpectedPixel(index, f"{where}, pixel ({x}, {y}) {pick.what}, which polygon "
                                                    f"mode {'/'.join(plan.polygon)} leaves clear{why}: flat id",
                                                    CLEAR))
                        continue
                    pixels.append(ExpectedPixel(index, f"{where}, pixel ({x}, {y}) {pick.what}: flat id "
                                                f"(vertex {provoking}, the {plan.convention} vertex convention's)",
                                                value, f"vertex {provoking}"))
                    if ids_checked:
                        source = " (the GS's gl_PrimitiveIDIn)" if plan.gs else ""
                        pixels.append(ExpectedPixel(index + 1, f"{where}, pixel ({x}, {y}): gl_PrimitiveID{source}",
                                                    float(counted + number)))
                    if typed:
                        pixels.append(ExpectedPixel(index + 2, f"{where}, pixel ({x}, {y}): flat {plan.flat_type}'s "
                                                    f"id", value))
            counted += len(drawn)
    return pixels, written
