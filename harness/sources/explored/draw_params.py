"""The draw-parameters space: the arguments tests/draw_params/cases.py's make_case takes.

Parameters: {"draws": [draw, ...] (1-3 draws on one program), "index_type": ubyte|ushort|uint,
"version": 450|460, "chain": vs|gs|tes, "only_draw_id": bool}; a draw is {"command", "entries":
[[count, instance_count, first, base_vertex, base_instance], ...], "restart", "offset", "stride",
"draw_count"}. Every value stays inside what the family's vertex data covers (24 vertices, 16
instances, 12 indices all >= 2), so each invocation fetches a defined element; the expectations
are the family oracle's (harness/oracle/draw_params.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from harness.model import glfacts
from harness.model.case import Case, Draw, DrawEntry
from harness.sources.explored import draws
from harness.sources.explored.choices import Params, fixed_dict, smaller_ints, some_of, st, toward
from harness.sources.explored.draws import Draws
from harness.sources.explored.modules import FamilyModule

if TYPE_CHECKING:                   # the family's cases.py, typed (modules.py)
    from tests.draw_params import cases as family
else:
    family = FamilyModule("draw_params")

FAMILY = "draw_params"
VERTICES, INSTANCES, INDICES, MIN_INDEX, MAX_INDEX = 24, 16, 12, 2, 11
RESTART_POSITIONS = (2, 6)                 # where make_case puts the restart index
OFFSETS = (0, 4, 8, 12, 32)                # bytes into the indirect buffer (multiples of 4)
STRIDES = (0, 20, 24, 32, 36)              # 0 packed; else >= the 20-byte elements command
INDEX_TYPE_TOKENS = ("uint", "ushort", "ubyte")


def _canonical_entry(command: str, e: list[int]) -> list[int]:
    """Fields the command does not take hold their defaults, so one draw has one encoding."""
    count, n, first, bv, bi = e
    takes = glfacts.takes(command)
    return [count, n if "instance_count" in takes else 1, first,
            bv if "base_vertex" in takes else 0, bi if "base_instance" in takes else 0]


def canonical_draw(d: Params) -> Params:
    """A draw as its id encodes it: what its command ignores set to one value (each entry's
    untaken fields at their defaults, one entry for a single draw, no restart without elements,
    no offset without indirection, no stride or draw count where the command takes none), so
    that two draws that render alike are one."""
    command = d["command"]
    entries = [_canonical_entry(command, e) for e in d["entries"]]
    if command not in glfacts.MULTI_COMMANDS:
        entries = entries[:1]
    multi_indirect = command in glfacts.MULTI_COMMANDS and command in glfacts.INDIRECT_COMMANDS
    return {"command": command, "entries": entries,
            "restart": bool(d["restart"]) and command in glfacts.ELEMENTS_COMMANDS,
            "offset": d["offset"] if command in glfacts.INDIRECT_COMMANDS else 0,
            "stride": d["stride"] if multi_indirect else 0,
            "draw_count": d["draw_count"] if command in glfacts.COUNT_COMMANDS else None}


def _entry(d: Draws, command: str) -> list[int]:
    elements = command in glfacts.ELEMENTS_COMMANDS
    if elements:
        first = d.integer(0, INDICES)
        count = d.integer(0, INDICES - first)
        bv = d.integer(-MIN_INDEX, VERTICES - 1 - MAX_INDEX)
    else:
        first = d.integer(0, VERTICES)
        count = d.integer(0, VERTICES - first)
        bv = 0
    bi = d.integer(0, INSTANCES)
    n = d.integer(0, INSTANCES - bi)
    return _canonical_entry(command, [count, n, first, bv, bi])


def _draw(d: Draws) -> Params:
    command = d.pick(glfacts.COMMANDS)
    many = command in glfacts.MULTI_COMMANDS
    entries = d.many(lambda: _entry(d, command), 0 if many else 1, 4 if many else 1)
    return canonical_draw({
        "command": command, "entries": entries, "restart": d.boolean(),
        "offset": d.pick(OFFSETS), "stride": d.pick(STRIDES),
        "draw_count": d.integer(0, len(entries) + 2)})


class DrawParamsSpace:
    family = FAMILY
    # The words an id may hold, by index (ids.py): frozen; append new ones at the end, never
    # reorder or remove (an explored id names words by their index). test_explore checks coverage.
    VOCAB: tuple[str, ...] = (
        "draws", "index_type", "version", "chain", "only_draw_id", "command", "entries", "restart", "offset",
        "stride", "draw_count", "vs", "gs", "tes", "uint", "ushort", "ubyte", "DrawArrays", "DrawArraysInstanced",
        "DrawArraysInstancedBaseInstance", "DrawElements", "DrawRangeElements", "DrawElementsBaseVertex",
        "DrawRangeElementsBaseVertex", "DrawElementsInstanced", "DrawElementsInstancedBaseVertex",
        "DrawElementsInstancedBaseInstance", "DrawElementsInstancedBaseVertexBaseInstance", "MultiDrawArrays",
        "MultiDrawElements", "MultiDrawElementsBaseVertex", "DrawArraysIndirect", "DrawElementsIndirect",
        "MultiDrawArraysIndirect", "MultiDrawElementsIndirect", "MultiDrawArraysIndirectCount",
        "MultiDrawElementsIndirectCount",
    )
    FLOATS: tuple[float, ...] = ()
    SHAPES: tuple[tuple[str, ...], ...] = (
        ("chain", "draws", "index_type", "only_draw_id", "version"),
        ("command", "draw_count", "entries", "offset", "restart", "stride"),
    )

    def draw(self, d: Draws) -> Params:
        return {"chain": d.pick(("vs", "gs", "tes")), "draws": d.many(lambda: _draw(d), 1, 3),
                "index_type": d.pick(INDEX_TYPE_TOKENS), "only_draw_id": d.boolean(), "version": d.pick((450, 460))}

    def strategy(self) -> st.SearchStrategy[Params]:
        return draws.strategy(self.draw)

    def build(self, params: Params) -> Case:
        draws = []
        restart = any(d["restart"] for d in params["draws"])
        for d in params["draws"]:
            for entry in d["entries"]:
                _check_entry(d["command"], entry, restart and not d["restart"])
            index_type = family.INDEX_TYPES[params["index_type"]]
            draws.append(Draw(d["command"], "POINTS",
                              tuple(DrawEntry(c, instance_count=n, first=f, base_vertex=bv, base_instance=bi)
                                    for c, n, f, bv, bi in d["entries"]),
                              restart_index=index_type.fixed_restart if d["restart"] else None,
                              indirect_offset=d["offset"], indirect_stride=d["stride"],
                              draw_count=d["draw_count"]))
        return family.make_case(draws, params["index_type"], version=params["version"], chain=params["chain"],
                                only_draw_id=params["only_draw_id"],
                                name=None if len(draws) == 1 else "sequence/explored")

    def below(self, params: Params) -> st.SearchStrategy[Params]:
        return fixed_dict(
            draws=some_of(params["draws"], _below_draw),
            index_type=toward(["uint"], params["index_type"]), version=toward([450], params["version"]),
            chain=toward(["vs"], params["chain"]), only_draw_id=toward([False], params["only_draw_id"]))

    def from_case(self, case: Case) -> Params | None:
        if case.family != FAMILY or not case.id.startswith(FAMILY + "/"):
            return None
        tokens = {v: k for k, v in family.INDEX_TYPES.items()}
        extra = dict(case.params)
        draws = [canonical_draw({
            "command": d.command,
            "entries": [[e.count, e.instance_count, e.first, e.base_vertex, e.base_instance] for e in d.entries],
            "restart": d.restart_index is not None, "offset": d.indirect_offset, "stride": d.indirect_stride,
            "draw_count": d.draw_count}) for d in case.draws()]
        return {"draws": draws, "index_type": tokens[glfacts.INDEX_TYPES[case.index_type]],
                "version": extra.get("version", 450), "chain": extra.get("chain", "vs"),
                "only_draw_id": bool(extra.get("only_draw_id", False))}


def _check_entry(command: str, e: list[int], restart_values: bool = False) -> None:
    """ValueError for an entry that would fetch outside the family's vertex data (undefined
    values, not a driver's fault). `restart_values`: the element array holds restart indices
    (another draw restarts) that this draw, not restarting, would fetch as vertices."""
    count, n, first, bv, bi = e
    if not count or not n:
        return
    if command in glfacts.ELEMENTS_COMMANDS:
        ok = first + count <= INDICES and -MIN_INDEX <= bv <= VERTICES - 1 - MAX_INDEX
        ok = ok and not (restart_values and any(first <= p < first + count for p in RESTART_POSITIONS))
    else:
        ok = first + count <= VERTICES
    if not ok or bi + n > INSTANCES or min(e) < -MIN_INDEX:
        raise ValueError(f"gl{command} entry {e} fetches outside the family's vertex data")


def _simpler_commands(command: str) -> list[str]:
    """Commands of the same kind (arrays or elements) that come before it in the spec's order,
    DrawArrays or DrawElements first: a multi-draw may become a single draw."""
    kind = glfacts.ELEMENTS_COMMANDS if command in glfacts.ELEMENTS_COMMANDS else glfacts.ARRAYS_COMMANDS
    order = list(glfacts.COMMANDS)
    return [c for c in order[:order.index(command)] if c in kind]


def _below_entry(e: list[int]) -> st.SearchStrategy[list[int]]:
    count, n, first, bv, bi = e
    return st.tuples(toward(smaller_ints(count), count),
                     toward([1, 0] + smaller_ints(n, simplest=1), n),
                     toward(smaller_ints(first), first), toward(smaller_ints(bv, lowest=-MIN_INDEX), bv),
                     toward(smaller_ints(bi), bi)).map(list)


def _below_draw(d: Params) -> st.SearchStrategy[Params]:
    many = d["command"] in glfacts.MULTI_COMMANDS
    entries = some_of(d["entries"], _below_entry, at_least_one=not many) if d["entries"] else st.just([])
    return st.builds(
        lambda command, entries, restart, offset, stride, draw_count: canonical_draw(
            {"command": command, "entries": entries if entries or command in glfacts.MULTI_COMMANDS
             else [[1, 1, 0, 0, 0]], "restart": restart, "offset": offset, "stride": stride,
             "draw_count": draw_count}),
        toward(_simpler_commands(d["command"]), d["command"]), entries, toward([False], d["restart"]),
        toward([0], d["offset"]), toward([0], d["stride"]),
        toward(smaller_ints(d["draw_count"] or 0, simplest=1), d["draw_count"]))


SPACE = DrawParamsSpace()
