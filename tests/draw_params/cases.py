"""Draw parameters: gl_BaseVertex, gl_BaseInstance and gl_DrawID across every GL draw call.

In GL, gl_BaseVertex is 0 for every non-indexed draw whatever `first` is; in Vulkan BaseVertex
equals firstVertex there, so a layer must lower it. gl_DrawID counts the sub-draws of a
multi-draw and is 0 elsewhere. Each vertex is a point; transform feedback captures what each
invocation saw, in order, and the oracle (harness/oracle/draw_params.py) says what it must be.
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path

from harness.model.case import (Attribute, Capture, Case, Draw, DrawEntry, DrawState, Expectation,
                          ExpectedRecord, Readback, Requirements)
from harness.model import glfacts
from harness.glsl.templates import render
from harness.oracle import draw_params as oracle

HERE = Path(__file__).parent
FAMILY = "draw_params"

# Element array: every value >= 2, so a base vertex of -2 stays in range. Restart cases put the
# restart index at positions 2 and 6.
INDICES = (5, 2, 9, 3, 7, 4, 8, 2, 6, 10, 11, 3)
# Id token -> index type; restart cases use its fixed restart index (2^N - 1), the one index
# Vulkan can restart at.
INDEX_TYPES = {token: glfacts.INDEX_TYPES[name] for token, name in
               (("ubyte", "UNSIGNED_BYTE"), ("ushort", "UNSIGNED_SHORT"), ("uint", "UNSIGNED_INT"))}
VERTICES = 24          # per-vertex attribute elements (largest index 11 + base vertex 7 + slack)
INSTANCES = 16         # instanced attribute elements
QUANTITIES = (         # (VS output name, type, the quantity it carries)
    ("vertex_id", "int", "gl_VertexID"), ("instance_id", "int", "gl_InstanceID"),
    ("base_vertex", "int", "gl_BaseVertex"), ("base_instance", "int", "gl_BaseInstance"),
    ("draw_id", "int", "gl_DrawID"),
    ("fetched", "ivec2", "attributes fetched (a_vertex, a_instance)"),
)
CHAINS = {"vs": "POINTS", "gs": "POINTS", "tes": "PATCHES"}
TES_POINTS_PER_VERTEX = 2      # isolines, levels (1, 1), point_mode: u = 0 and u = 1
Variant = tuple[str, Draw]     # (index type token, the draw)


def _names(version: int) -> dict[str, str]:
    suffix = "" if version == 460 else "ARB"
    return {n: f"gl_{n[0].upper()}{n[1:]}{suffix}" for n in ("baseVertex", "baseInstance", "drawID")}


# A pure function of three values, remembered: every case of a (version, chain) has the same stages.
@functools.lru_cache(maxsize=None, typed=True)
def shaders(version: int, chain: str, only_draw_id: bool) -> tuple[tuple[tuple[str, str], ...], tuple[Capture, ...]]:
    names = _names(version)
    quantities = [q for q in QUANTITIES if not only_draw_id or q[0] == "draw_id"]
    vs = render(HERE / "draw_params.vert", version=version, only_draw_id=only_draw_id,
                out="x_" if chain == "vs" else "v_", base_vertex=names["baseVertex"],
                base_instance=names["baseInstance"], draw_id=names["drawID"])
    stages = [("vs", vs)]
    if chain != "vs":
        later = render(HERE / ("passthrough.geom" if chain == "gs" else "passthrough.tese"),
                       names=[q[0] for q in quantities], types={q[0]: q[1] for q in quantities})
        stages.append(("gs" if chain == "gs" else "tes", later))
    captures = tuple(Capture("x_" + name, type_, quantity) for name, type_, quantity in quantities)
    return tuple(stages), captures


def requirements(commands: Iterable[str], version: int) -> Requirements:
    gl = (4, 6) if version == 460 else (4, 5)
    extensions = [] if version == 460 else ["GL_ARB_shader_draw_parameters"]
    if any(c.endswith("IndirectCount") for c in commands):
        extensions.append("GL_ARB_indirect_parameters")      # the entry points the runner calls
    return Requirements(gl_version=gl, profile="core", extensions=tuple(extensions))


def entry_token(command: str, e: DrawEntry) -> str:
    takes = glfacts.takes(command)
    parts = [f"f{e.first}", f"c{e.count}"]
    if "instance_count" in takes:
        parts.append(f"i{e.instance_count}")
    if "base_vertex" in takes:
        parts.append(f"bv{e.base_vertex}")
    if "base_instance" in takes:
        parts.append(f"bi{e.base_instance}")
    return "".join(parts)


def draw_token(draw: Draw, index_type: str) -> str:
    parts = [draw.command]
    if draw.command in glfacts.ELEMENTS_COMMANDS:
        parts.append(index_type)
    if draw.restart_index is not None:
        parts.append("restart")
    parts.append("+".join(entry_token(draw.command, e) for e in draw.entries) or "none")
    if draw.command in glfacts.INDIRECT_COMMANDS:
        parts.append(f"off{draw.indirect_offset}-stride{draw.indirect_stride}")
    if draw.draw_count is not None:
        parts.append(f"count{draw.draw_count}")
    return "/".join(parts)


def make_case(draws: list[Draw], index_type: str = "uint", version: int = 450, chain: str = "vs",
              only_draw_id: bool = False, name: str | None = None) -> Case:
    stages, captures = shaders(version, chain, only_draw_id)
    gl_type = INDEX_TYPES[index_type].name
    restart = any(d.restart_index is not None for d in draws)
    indices = tuple(INDEX_TYPES[index_type].fixed_restart if restart and i in (2, 6) else v for i, v in enumerate(INDICES))
    body = name or draw_token(draws[0], index_type)
    id_ = f"{FAMILY}/{body}/glsl{version}{'-drawid-only' if only_draw_id else ''}/{chain}"
    repeat = TES_POINTS_PER_VERTEX if chain == "tes" else 1
    labelled, expects = [], []
    for index, draw in enumerate(draws):
        draw = Draw(draw.command, CHAINS[chain], draw.entries,
                    state=DrawState(patch_vertices=1) if chain == "tes" else DrawState(),
                    label=f"draw {index} (gl{draw.command})", restart_index=draw.restart_index,
                    indirect_offset=draw.indirect_offset, indirect_stride=draw.indirect_stride,
                    draw_count=draw.draw_count)
        labelled.append(draw)
        expected = oracle.invocations(draw.command, draw.entries, indices, draw.restart_index, draw.draw_count)
        sequence = tuple(record for inv in expected for record in [_record(draw, inv, captures)] * repeat)
        expects.append(Expectation(index, counts=(("xfb_vertices", len(sequence)),), sequence=sequence))
    return Case(
        id=id_, family=FAMILY, shaders=stages, requires=requirements([d.command for d in draws], version),
        vertices=VERTICES,
        attributes=(Attribute(0, 1, tuple(float(v) for v in range(VERTICES))),
                    Attribute(1, 1, tuple(float(i) for i in range(INSTANCES)), divisor=1)),
        steps=tuple(labelled), readback=Readback(captures, "POINTS", max_records=4096),
        expect=tuple(expects), indices=indices, index_type=gl_type,
        description=f"draw parameters through {' then '.join('gl' + d.command for d in draws)}, "
                    f"GLSL {version}, {chain} chain" + (", VS reads only gl_DrawID" if only_draw_id else ""),
        params=(("version", version), ("chain", chain), ("only_draw_id", only_draw_id)),
    )


def _record(draw: Draw, inv: oracle.Invocation, captures: tuple[Capture, ...]) -> ExpectedRecord:
    where = f"entry {inv.entry}, " if draw.command in glfacts.MULTI_COMMANDS else ""
    values: dict[str, float | tuple[float, ...]] = {
        "gl_VertexID": inv.vertex_id, "gl_InstanceID": inv.instance_id,
        "gl_BaseVertex": inv.base_vertex, "gl_BaseInstance": inv.base_instance, "gl_DrawID": inv.draw_id,
        "attributes fetched (a_vertex, a_instance)": (inv.fetched_vertex, inv.fetched_instance)}
    return ExpectedRecord(f"{where}vertex {inv.vertex}, instance {inv.instance}",
                          tuple((c.quantity, values[c.quantity]) for c in captures))


# -- argument variants per entry point ---------------------------------------------------------

def single_draws(command: str) -> Iterator[Variant]:
    """(index type, Draw) for every argument combination that matters to this entry point."""
    takes = glfacts.takes(command)
    elements = command in glfacts.ELEMENTS_COMMANDS
    firsts = (0, 3) if elements else (0, 5)
    base_vertices = (-2, 0, 7) if "base_vertex" in takes else (0,)
    base_instances = (0, 5) if "base_instance" in takes else (0,)
    instances = (1, 3) if "instance_count" in takes else (1,)
    types = ("ubyte", "ushort", "uint") if elements else ("uint",)
    for first, bv, bi, n, index_type in itertools.product(firsts, base_vertices, base_instances, instances, types):
        if index_type != "uint" and (bv, bi, n) != (base_vertices[-1], base_instances[-1], instances[-1]):
            continue                     # index type interacts with fetching, not with the rest
        entry = DrawEntry(4, instance_count=n, first=first, base_vertex=bv, base_instance=bi)
        if command in glfacts.INDIRECT_COMMANDS:
            for offset in (0, 12):
                yield index_type, Draw(command, "POINTS", (entry,), indirect_offset=offset)
        else:
            yield index_type, Draw(command, "POINTS", (entry,))
    if elements and command not in glfacts.INDIRECT_COMMANDS:
        entry = DrawEntry(8, instance_count=instances[-1], first=0, base_vertex=base_vertices[-1],
                          base_instance=base_instances[-1])
        for index_type in INDEX_TYPES:
            yield index_type, Draw(command, "POINTS", (entry,), restart_index=INDEX_TYPES[index_type].fixed_restart)


def multi_entry_sets(command: str) -> Iterator[tuple[DrawEntry, ...]]:
    takes = glfacts.takes(command)
    bv = "base_vertex" in takes
    inst = "instance_count" in takes
    def e(first: int, count: int, base_vertex: int = 0, n: int = 1, bi: int = 0) -> DrawEntry:
        return DrawEntry(count, instance_count=n if inst else 1, first=first,
                         base_vertex=base_vertex if bv else 0, base_instance=bi if inst else 0)
    yield (e(0, 3),)
    yield (e(2, 3, 7, 2, 1), e(0, 0, 1), e(5, 2, -2, 3, 4))          # zero-count entry in the middle
    yield (e(1, 2, 3), e(4, 1), e(0, 2, -2, 1, 2), e(6, 3, 0, 2, 0))
    yield ()                                                          # drawcount 0


def multi_draws(command: str) -> Iterator[Variant]:
    for entries in multi_entry_sets(command):
        if command.endswith("IndirectCount"):
            if entries:
                for count in sorted({1, len(entries), len(entries) + 2}):   # fewer, all, more than max
                    yield "uint", Draw(command, "POINTS", entries, indirect_stride=32, draw_count=count)
        elif command in glfacts.INDIRECT_COMMANDS:
            for offset, stride in ((0, 0), (8, 32)):
                yield "uint", Draw(command, "POINTS", entries, indirect_offset=offset, indirect_stride=stride)
        else:
            yield "uint", Draw(command, "POINTS", entries)
    if command in glfacts.ELEMENTS_COMMANDS and not command.endswith("IndirectCount"):
        entries = next(iter(multi_entry_sets(command)))
        for index_type in ("ubyte", "ushort"):
            yield index_type, Draw(command, "POINTS", entries)


def all_draws(command: str) -> Iterator[Variant]:
    return multi_draws(command) if command in glfacts.MULTI_COMMANDS else single_draws(command)


def sequence_cases() -> dict[str, list[Draw]]:
    """One program, several draws: the lowering's flag and the draw id must follow each draw."""
    arrays = DrawEntry(3, first=5)
    indexed = DrawEntry(3, first=1, base_vertex=3)
    multi = (DrawEntry(2, first=0), DrawEntry(2, first=4), DrawEntry(1, first=9))
    return {
        "arrays-indexed-arrays": [Draw("DrawArrays", "POINTS", (arrays,)),
                                  Draw("DrawElementsBaseVertex", "POINTS", (indexed,)),
                                  Draw("DrawArrays", "POINTS", (DrawEntry(2, first=2),))],
        "indexed-arrays-instanced": [Draw("DrawElementsInstancedBaseVertexBaseInstance", "POINTS",
                                          (DrawEntry(3, 2, 0, 7, 5),)),
                                     Draw("DrawArraysInstanced", "POINTS", (DrawEntry(2, 2, 6),))],
        "multi-then-singles": [Draw("MultiDrawArrays", "POINTS", multi),
                               Draw("DrawArrays", "POINTS", (arrays,)),
                               Draw("DrawArrays", "POINTS", (DrawEntry(2, first=1),))],
        "multi-elements-then-single": [Draw("MultiDrawElementsBaseVertex", "POINTS",
                                            (DrawEntry(2, 1, 0, 1), DrawEntry(3, 1, 4, 2))),
                                       Draw("DrawElements", "POINTS", (DrawEntry(3, first=2),))],
        "singles": [Draw("DrawArrays", "POINTS", (DrawEntry(1, first=f),)) for f in (0, 3, 7, 3)],
        "indirect-then-direct": [Draw("MultiDrawArraysIndirect", "POINTS",
                                      (DrawEntry(2, 1, 3, 0, 2), DrawEntry(2, 2, 0, 0, 0))),
                                 Draw("DrawArraysInstancedBaseInstance", "POINTS", (DrawEntry(2, 1, 4, 0, 0),))],
    }


def typical_variant(variants: list[Variant]) -> Variant:
    """For the GLSL, chain and gl_DrawID-only variants: a multi-draw with a zero-count entry,
    all of it drawn; else a single draw from the middle of the argument sets."""
    gaps = [(t, d) for t, d in variants if any(e.count == 0 for e in d.entries)
            and (d.draw_count is None or d.draw_count == len(d.entries))]
    return gaps[0] if gaps else variants[len(variants) // 2]


def generate() -> list[Case]:
    cases = []
    for command in glfacts.COMMANDS:
        variants = list(all_draws(command))
        # Every argument set, with the ARB names (GLSL 4.50), which llvmpipe's GL 4.5 runs too.
        for index_type, draw in variants:
            cases.append(make_case([draw], index_type))
        index_type, typical = typical_variant(variants)
        cases.append(make_case([typical], index_type, version=460))         # the GLSL 4.60 names
        cases.append(make_case([typical], index_type, only_draw_id=True))   # reads only gl_DrawID
        for chain in ("gs", "tes"):                            # values handed on to later stages
            if typical.restart_index is None:
                cases.append(make_case([typical], index_type, chain=chain))
    for name, draws in sequence_cases().items():
        for version in (450, 460):
            cases.append(make_case(draws, version=version, name=f"sequence/{name}"))
        cases.append(make_case(draws, chain="tes", name=f"sequence/{name}"))
    return cases
