"""The tessellation space: four of the family's builders (tests/tess/), each with its own
parameters under "kind":

  coords   coords.coords_case: TCS or not, domain, spacing, point mode, winding, the six levels
           (edge values: 0, negative, NaN, inf, below 1, above 64), the exact gl_TessCoord set
  control  control.control_case: TCS or not, input and output patch sizes (1..32), barrier(),
           a GS after the TES, point mode, the draw (arrays, partial patch, instanced, base
           instance, elements, base vertex, multi, indirect) that gl_PrimitiveID goes through
  types    vertex_types.type_case: VS outputs of every type (a subset of one of the family's
           type sets: matrices, doubles, arrays, structs, gl_PointSize, gl_ClipDistance, legacy
           colours, gl_TexCoord[]) through a TCS-less TES, as variables, blocks or gl_in[]
  steps    default_levels.make_case: a TCS-less program drawn 1-3 times, each draw changing the
           patch size and/or the default levels (or neither)
  facing   facing.facing_case: gl_FrontFacing at every pixel for either winding, or the FS's
           gl_PrimitiveID without a GS (one triangle a patch, so both readings of the spec agree)
  seq      sequences.seq_case: 2-4 programs (TCS-less ones sharing one TES shader object, with a
           TCS, without tessellation) drawn in any order, each draw setting the patch size and/or
           the default levels, programs deleted between draws (never one drawn later)

Levels are drawn from FLOATS, the family's own level values; patch counts stay those of the
builders (two patches a draw), and control's levels stay small, so a case stays quick.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, cast

from harness.model.case import Case
from harness.sources.explored import draws
from harness.sources.explored.choices import Params, fixed_dict, smaller_ints, some_of, st, toward
from harness.sources.explored.draws import Draws
from harness.sources.explored.modules import FamilyModule

if TYPE_CHECKING:                   # the family's own modules, typed (modules.py)
    from tests.tess import common, control, coords, default_levels, facing, sequences, vertex_types
else:
    common, control, coords, default_levels, facing, sequences, vertex_types = (
        FamilyModule("tess", name)
        for name in ("common", "control", "coords", "default_levels", "facing", "sequences", "vertex_types"))

FAMILY = "tess"
DOMAINS = ("triangles", "quads", "isolines")
SPACINGS = ("equal_spacing", "fractional_even_spacing", "fractional_odd_spacing")
# Every level value of the family's fixed lists; ids name levels by their index here: append only.
FLOATS = (-2.0, -1.0, 0.0, 0.125, 0.25, 0.375, 0.5, 0.75, 1.0, 1.25, 2.0, 2.015625, 2.25, 2.5, 3.0, 3.015625,
          3.5, 3.75, 3.984375, 4.0, 4.5, 4.984375, 5.0, 5.5, 6.0, 7.0, 8.0, 9.0, 33.0, 62.125, 63.0, 63.5,
          63.875, 64.0, 70.0, math.inf, math.nan)
SMALL_LEVELS = tuple(v for v in FLOATS if 0.5 <= v <= 4.0)      # control: counts stay small
KINDS = ("coords", "control", "types", "steps", "seq", "facing")
# DELETING: a sequence that deletes a program retires its child (Case.last_in_child), so the next
# case starts a fresh one: such a case costs the driver's processes 4-5x another tess case, about
# 70 ms of CPU more than a sequence that deletes nothing (bench/explore_kinds.py). Drawn in every
# step, deletions were in 19 sequences of 20; half the sequences may delete (2 in 5 do), so
# program switches without deletions are explored about as often.
PROGRAM_KINDS = ("no-tcs", "tcs", "plain")

Levels = list[list[float]]          # [outer[4], inner[2]], as the parameters hold them


def _levels(d: Draws, pool: Sequence[float]) -> Levels:
    return [[d.pick(pool) for _ in range(4)], [d.pick(pool) for _ in range(2)]]


def _coords(d: Draws) -> Params:
    domain, point_mode = d.pick(DOMAINS), d.boolean()
    winding = "" if point_mode or domain == "isolines" else d.pick(("ccw", "cw"))
    return {"kind": "coords", "tcs": d.boolean(), "domain": domain, "spacing": d.pick(SPACINGS),
            "point_mode": point_mode, "winding": winding, "levels": _levels(d, FLOATS)}


def _control(d: Draws) -> Params:
    tcs = d.boolean()
    return {"kind": "control", "tcs": tcs, "domain": d.pick(DOMAINS), "spacing": d.pick(SPACINGS),
            "size": d.integer(1, 32), "out": d.integer(1, 32) if tcs else None, "plan": d.integer(0, 7),
            "barrier": d.boolean() if tcs else False, "gs": d.boolean(), "point_mode": d.boolean(),
            "levels": _levels(d, SMALL_LEVELS)}


def _types(d: Draws) -> Params:
    ts = d.pick(vertex_types.TYPE_SETS)
    kept = [i for i in range(len(ts.carried)) if d.boolean()] or [0]
    lengths = [d.integer(1, ts.carried[i].length) if ts.carried[i].length else 0 for i in kept]
    return {"kind": "types", "set": ts.token, "carried": [[i, n] for i, n in zip(kept, lengths)],
            "form": d.pick(ts.forms), "domain": d.pick(DOMAINS), "size": d.integer(1, 32)}


def _steps(d: Draws) -> Params:
    def step() -> list[object]:
        return [d.maybe(lambda: d.integer(1, 32)), d.maybe(lambda: _levels(d, FLOATS))]
    return {"kind": "steps", "domain": d.pick(DOMAINS), "spacing": d.pick(SPACINGS),
            "point_mode": d.boolean(), "steps": d.many(step, 1, 3)}


def _seq(d: Draws) -> Params:
    programs: list[list[object]] = []
    for _ in range(d.integer(2, 4)):
        kind = d.pick(PROGRAM_KINDS)
        programs.append(["no-tcs", d.integer(0, 2)] if kind == "no-tcs" else
                        ["tcs", d.integer(1, 8), _levels(d, SMALL_LEVELS)] if kind == "tcs" else ["plain"])
    steps: list[list[object]] = []
    deleted: set[int] = set()
    deletes = d.boolean()               # DELETING: half the sequences delete programs, not nearly all
    for _ in range(d.integer(1, 5)):
        alive = [p for p in range(len(programs)) if p not in deleted]
        program = d.pick(alive)
        gone = sorted(set(d.distinct(alive, 0, 2)) - {program}) if deletes else []
        deleted |= set(gone)
        steps.append([program, d.maybe(lambda: d.integer(1, 32)), d.maybe(lambda: _levels(d, FLOATS)), gone])
    return {"kind": "seq", "domain": d.pick(DOMAINS), "spacing": d.pick(SPACINGS),
            "programs": programs, "steps": steps}


def _facing(d: Draws) -> Params:
    return _facing_valid({"kind": "facing", "tcs": d.boolean(), "domain": d.pick(DOMAINS[:2]),
                          "spacing": d.pick(SPACINGS), "winding": d.pick(("ccw", "cw")),
                          "levels": _levels(d, SMALL_LEVELS), "primitive_id": d.boolean()})


DESCRIBE_KIND: dict[str, Callable[[Draws], Params]] = {
    "coords": _coords, "control": _control, "types": _types, "steps": _steps, "seq": _seq, "facing": _facing}


ONES: Levels = [[1.0] * 4, [1.0] * 2]


def _facing_valid(params: Params) -> Params:
    """The FS gl_PrimitiveID check needs one triangle a patch: triangles, every level 1."""
    if params["primitive_id"]:
        return params | {"domain": "triangles", "levels": ONES}
    return params


def _seq_valid(params: Params) -> Params:
    """Steps that never draw or delete a deleted program; programs no step draws are dropped
    (and the steps renumbered), so a reduced sequence stays a valid one."""
    deleted: set[int] = set()
    steps: list[tuple[int, int | None, Levels | None, list[int]]] = []
    for program, size, levels, gone in params["steps"]:
        if program in deleted:
            continue
        gone = sorted(set(gone) - deleted - {program})
        deleted |= set(gone)
        steps.append((program, size, levels, gone))
    used = sorted({s[0] for s in steps} | {g for s in steps for g in s[3]})
    renumber = {old: new for new, old in enumerate(used)}
    return params | {"programs": [params["programs"][p] for p in used],
                     "steps": [[renumber[p], size, levels, [renumber[g] for g in gone]]
                               for p, size, levels, gone in steps]}


def _pair(levels: Levels) -> common.Levels:
    """The builders' (outer, inner) tuples; an id's lists keep their lengths (no check here)."""
    return cast("common.Levels", (tuple(levels[0]), tuple(levels[1])))


def _type_set(params: Params) -> vertex_types.TypeSet:
    ts = next(t for t in vertex_types.TYPE_SETS if t.token == params["set"])
    carried = []
    for index, length in params["carried"]:
        c = ts.carried[index]
        carried.append(c if not c.length else type(c)(c.name, c.type, length, c.dynamic, c.builtin, c.kind))
    whole = [list(p) for p in params["carried"]] == [[i, c.length] for i, c in enumerate(ts.carried)]
    token = ts.token if whole else ts.token + "-" + "+".join(f"{i}l{n}" for i, n in params["carried"])
    return vertex_types.TypeSet(token, tuple(carried), ts.compat, ts.forms)


class TessSpace:
    family = FAMILY
    # The words an id may hold, by index (ids.py): frozen; append new ones at the end, never
    # reorder or remove (an explored id names words by their index). test_explore checks coverage.
    VOCAB: tuple[str, ...] = (
        "kind", "tcs", "domain", "spacing", "point_mode", "winding", "levels", "size", "out", "plan", "barrier",
        "gs", "set", "carried", "form", "steps", "", "ccw", "cw", "coords", "control", "types", "steps", "seq",
        "facing", "triangles", "quads", "isolines", "equal_spacing", "fractional_even_spacing",
        "fractional_odd_spacing", "programs", "no-tcs", "tcs", "plain", "primitive_id", "var", "block", "gl_in",
        "float", "vec2", "vec3", "vec4", "int", "ivec2", "ivec3", "ivec4", "uint", "uvec2", "uvec3", "uvec4",
        "mat2", "mat3", "mat4", "mat2x3", "mat2x4", "mat3x2", "mat3x4", "mat4x2", "mat4x3", "double", "dvec2",
        "dvec3", "dvec4", "dmat2", "dmat3", "dmat4", "dmat2x3", "dmat4x2", "float4-const", "float4-dyn",
        "vec4x3-dyn", "ivec2x5-dyn", "mat2x2-const", "dvec2x3-dyn", "struct", "struct2", "mix", "pointsize",
        "clipdistance2", "clipdistance8", "pointsize+clipdistance4+vec4", "frontcolor", "backcolor",
        "frontsecondarycolor", "texcoord1", "texcoord4", "texcoord7", "fogfragcoord",
        "frontcolor+texcoord2+fogfragcoord+vec4",
    )
    FLOATS: tuple[float, ...] = FLOATS
    SHAPES: tuple[tuple[str, ...], ...] = (
        ("domain", "kind", "levels", "point_mode", "spacing", "tcs", "winding"),
        ("barrier", "domain", "gs", "kind", "levels", "out", "plan", "point_mode", "size", "spacing", "tcs"),
        ("carried", "domain", "form", "kind", "set", "size"),
        ("domain", "kind", "point_mode", "spacing", "steps"),
        ("domain", "kind", "programs", "spacing", "steps"),
        ("domain", "kind", "levels", "primitive_id", "spacing", "tcs", "winding"),
    )

    def draw(self, d: Draws) -> Params:
        return DESCRIBE_KIND[d.pick(KINDS)](d)

    def strategy(self) -> st.SearchStrategy[Params]:
        return draws.strategy(self.draw)

    def build(self, params: Params) -> Case:
        kind = params["kind"]
        if kind == "coords":
            return coords.coords_case(params["tcs"], params["domain"], params["spacing"], params["point_mode"],
                                      params["winding"], _pair(params["levels"]))
        if kind == "control":
            size = params["size"]
            plan = control.draw_plans(size)[params["plan"]]
            tokens = [f"in{size}-out{params['out']}" if params["tcs"] else f"in{size}", plan.token]
            tokens += [t for t, on in (("barrier", params["barrier"]), ("gs", params["gs"]),
                                       ("points", params["point_mode"])) if on]
            return control.control_case(params["tcs"], params["domain"], params["spacing"], size,
                                        params["out"] if params["tcs"] else None, plan,
                                        barrier=params["barrier"] and params["tcs"], gs=params["gs"],
                                        point_mode=params["point_mode"], levels=_pair(params["levels"]),
                                        path=("explored",) + tuple(tokens))
        if kind == "types":
            return vertex_types.type_case(_type_set(params), params["form"], params["domain"], params["size"])
        if kind == "steps":
            steps = tuple(default_levels.Step(pv, _pair(levels) if levels else None)
                          for pv, levels in params["steps"])
            return default_levels.make_case(params["domain"], params["spacing"], params["point_mode"], steps)
        if kind == "facing":
            if _facing_valid(params) != params or params["domain"] == "isolines":
                raise ValueError("gl_PrimitiveID in the FS needs triangles with every level 1; no isolines")
            return facing.facing_case(params["tcs"], params["domain"], params["spacing"], params["winding"],
                                      _pair(params["levels"]), primitive_id=params["primitive_id"])
        if kind == "seq":
            if not params["steps"] or _seq_valid(params) != params:
                raise ValueError("a sequence that draws or deletes a deleted program, or leaves one unused")
            programs: list[sequences.Program] = [
                sequences.NoTcs(sequences.SEQ_OFFSETS[p[1]]) if p[0] == "no-tcs" else
                sequences.WithTcs(p[1], _pair(p[2])) if p[0] == "tcs" else sequences.Plain()
                for p in params["programs"]]
            seq_steps = [sequences.SeqStep(program, size, _pair(levels) if levels else None, tuple(gone))
                         for program, size, levels, gone in params["steps"]]
            return sequences.seq_case(params["domain"], params["spacing"], "explored", programs, seq_steps)
        raise ValueError(f"unknown tess kind {kind!r}")

    def below(self, params: Params) -> st.SearchStrategy[Params]:
        kind = params["kind"]
        simple: dict[str, st.SearchStrategy[object]] = {"domain": toward(["triangles"], params["domain"]),
                  "kind": st.just(kind)}
        if "spacing" in params:
            simple["spacing"] = toward(["equal_spacing"], params["spacing"])
        if "point_mode" in params:
            simple["point_mode"] = toward([True], params["point_mode"]) if kind == "coords" else \
                toward([False], params["point_mode"])
        if kind == "coords":
            return fixed_dict(**simple, tcs=toward([False], params["tcs"]), levels=_below_levels(params["levels"]),
                              winding=toward(["ccw"], params["winding"])).map(_fix_winding)
        if kind == "control":
            tcs = params["tcs"]
            return fixed_dict(**simple, tcs=toward([False], tcs) if tcs else st.just(False),
                              size=toward(smaller_ints(params["size"], simplest=1), params["size"]),
                              out=toward(smaller_ints(params["out"], simplest=1), params["out"]) if tcs else st.just(None),
                              plan=toward([0], params["plan"]), barrier=toward([False], params["barrier"]),
                              gs=toward([False], params["gs"]), levels=_below_levels(params["levels"])
                              ).map(_fix_control)
        if kind == "types":
            return fixed_dict(**simple, set=st.just(params["set"]),
                              carried=some_of(params["carried"], _below_carried),
                              form=st.just(params["form"]), size=toward(smaller_ints(params["size"], simplest=1),
                                                                        params["size"]))
        if kind == "facing":
            return fixed_dict(**simple, tcs=toward([False], params["tcs"]), winding=toward(["ccw"], params["winding"]),
                              levels=_below_levels(params["levels"]), primitive_id=st.just(params["primitive_id"])
                              ).map(_facing_valid)
        if kind == "seq":
            def seq_step(s: list[Any]) -> st.SearchStrategy[list[Any]]:
                program, size, levels, gone = s
                return st.tuples(st.just(program), toward([None], size), toward([None], levels),
                                 some_of(gone, st.just, at_least_one=False)).map(list)

            def program(p: list[Any]) -> st.SearchStrategy[list[Any]]:
                if p[0] == "tcs":
                    return st.tuples(st.just("tcs"), toward(smaller_ints(p[1], simplest=1), p[1]),
                                     _below_levels(p[2])).map(list)
                return st.just(p)
            return fixed_dict(**simple, programs=st.tuples(*map(program, params["programs"])).map(list),
                              steps=some_of(params["steps"], seq_step)).map(_seq_valid)

        def step(s: list[Any]) -> st.SearchStrategy[list[Any]]:
            return st.tuples(toward([None], s[0]) if s[0] is not None else st.just(None),
                             toward([None], s[1]) if s[1] is not None else st.just(None)).map(list)
        return fixed_dict(**simple, steps=some_of(params["steps"], step))

    def from_case(self, case: Case) -> Params | None:
        if case.family != FAMILY:
            return None
        for candidate in _candidates(case):
            try:
                rebuilt = self.build(candidate)
            except (ValueError, AssertionError, KeyError, IndexError, StopIteration):
                continue
            if (rebuilt.shaders, rebuilt.steps, rebuilt.expect) == (case.shaders, case.steps, case.expect):
                return candidate
        return None


def _fix_winding(params: Params) -> Params:
    """Winding means nothing in point mode or for isolines (the builder's id leaves it out)."""
    if params["point_mode"] or params["domain"] == "isolines":
        return params | {"winding": ""}
    return params | {"winding": params["winding"] or "ccw"}


def _fix_control(params: Params) -> Params:
    if not params["tcs"]:
        return params | {"out": None, "barrier": False}
    return params


def _below_levels(levels: Levels) -> st.SearchStrategy[Levels]:
    """Each level toward 1.0, or toward 2.0 then 1.0 (the simplest levels that tessellate)."""
    def one(v: float) -> st.SearchStrategy[float]:
        return toward([1.0, 2.0], v)
    return st.tuples(st.tuples(*map(one, levels[0])).map(list), st.tuples(*map(one, levels[1])).map(list)).map(list)


def _below_carried(item: list[int]) -> st.SearchStrategy[list[int]]:
    index, length = item
    return st.tuples(st.just(index), toward(smaller_ints(length, simplest=1), length) if length else st.just(0)).map(list)


def _candidates(case: Case) -> Iterator[Params]:
    """Parameters that might rebuild a fixed case, from its params and id; from_case keeps the
    one whose rebuilt program, steps and expectations equal the case's."""
    p = dict(case.params)
    parts = case.id.split("/")
    if "/types/" in case.id:
        ts = next((t for t in vertex_types.TYPE_SETS if t.token == p.get("types")), None)
        if ts is not None:
            yield {"kind": "types", "set": ts.token, "carried": [[i, c.length] for i, c in enumerate(ts.carried)],
                   "form": p["form"], "domain": p["domain"], "size": p["patch_vertices"]}
        return
    if "/coords/" in case.id:
        for outer, inner in coords.LEVEL_GRID:
            yield {"kind": "coords", "tcs": p["tcs"], "domain": p["domain"], "spacing": p["spacing"],
                   "point_mode": p["point_mode"], "winding": p["winding"],
                   "levels": [list(map(float, outer)), list(map(float, inner))]}
        return
    if "/front-facing/" in case.id or "/fs-primitive-id/" in case.id:
        for outer, inner in (common.LEVELS["integer"], common.LEVELS["fractional"], common.LEVELS["ones"]):
            yield {"kind": "facing", "tcs": parts[1] == "tcs", "domain": parts[2],
                   "spacing": common.SPACINGS[[common.spacing_token(x) for x in common.SPACINGS].index(parts[3])],
                   "winding": parts[4], "levels": [list(map(float, outer)), list(map(float, inner))],
                   "primitive_id": "/fs-primitive-id/" in case.id}
        return
    if "draw" in p and "out_vertices" in p:
        tokens = [plan.token for plan in control.draw_plans(p["patch_vertices"])]
        if p["draw"] in tokens:
            for outer, inner in (control.CONTROL_LEVELS, common.LEVELS["fractional"]):
                yield {"kind": "control", "tcs": p["tcs"], "domain": p["domain"], "spacing": p["spacing"],
                       "size": p["patch_vertices"], "out": p["out_vertices"], "plan": tokens.index(p["draw"]),
                       "barrier": "barrier" in parts, "gs": p["gs"], "point_mode": p["point_mode"],
                       "levels": [list(map(float, outer)), list(map(float, inner))]}
        return
    if set(p) == {"domain", "spacing", "point_mode"} and parts[1] == "no-tcs":
        steps: list[list[object]] = []
        for draw in case.draws():
            default_outer, default_inner = draw.state.default_outer, draw.state.default_inner
            levels = ([list(default_outer), list(default_inner)]
                      if default_outer is not None and default_inner is not None else None)
            steps.append([draw.state.patch_vertices, levels])
        yield {"kind": "steps", "domain": p["domain"], "spacing": p["spacing"], "point_mode": p["point_mode"],
               "steps": steps}


SPACE = TessSpace()
