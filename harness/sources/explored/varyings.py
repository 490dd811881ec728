"""The varyings space: the family's Plan (tests/varyings/cases.py), drawn within what GLSL
allows for the dialect, so that every drawn program is valid and any wrong value is the
implementation's: a stage chain (VS->FS up to VS->TCS->TES->GS->FS), a GLSL version and
profile the chain allows, a subset of the legacy builtins (compatibility profile), the
gl_PointSize/gl_ClipDistance controls, up to eight user varyings of any type the version has
(ints and doubles flat, structs from 1.50, doubles from 4.00, arrays from 1.30) with
interpolation qualifiers, one- or two-sided colours, gl_ClipVertex with a user clip plane, the
FS declaring its inputs in reverse, and separable VS/FS programs matched by location.

Parameters: {"chain", "version", "compat", "builtins", "controls", "users": [[name, type,
qualifier, array, location, component]] (name None: u<index>), "face", "clip_vertex", "separable", "fs_users",
"reverse", "limit", "tag"}; build() makes the family's Plan and calls its make_case.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from harness.model.case import Case
from harness.sources.explored import draws
from harness.sources.explored.choices import Params, fixed_dict, some_of, st, toward
from harness.sources.explored.draws import Draws
from harness.sources.explored.modules import FamilyModule

if TYPE_CHECKING:                   # the family's cases.py, typed (modules.py)
    from tests.varyings import cases as family
else:
    family = FamilyModule("varyings")

FAMILY = "varyings"
CHAINS = ("vs-fs", "vs-gs-fs", "vs-tes-fs", "vs-tcs-tes-fs", "vs-tcs-tes-gs-fs")
VERSIONS = (110, 120, 130, 140, 150, 400, 450)
QUALIFIERS = ("", "flat", "noperspective", "smooth", "centroid", "sample")
FACES = ("front", "back", "two-side-front", "two-side-back")
MAX_COMPONENTS = 60                 # under zink's 64, with gl_ClipVertex's vec4 through a GS


def _lowest_version(chain: str) -> int:
    return 400 if "tes" in chain else 150 if "gs" in chain else 110


def _types_for(version: int) -> list[str]:
    types = list(family.TYPES)
    if version < 130:                # no integer varyings, no flat: float vectors and matrices
        types = [t for t in types if family.TYPES[t][0] == "float" and ("x" not in t or version >= 120)]
    if version < 400:
        types = [t for t in types if family.TYPES[t][0] != "double"]
    return types + (["S"] if version >= 150 else [])


def _user(d: Draws, version: int) -> list[object]:
    type_ = d.pick(_types_for(version))
    floats = type_ == "S" or family.TYPES[type_][0] == "float"
    qualifiers = [q for q in QUALIFIERS if q != "sample" or version >= 400] if version >= 130 and floats else [""]
    qualifier = d.pick(qualifiers)
    array = d.integer(0, 3) if version >= 130 and type_ != "S" else 0
    return [None, type_, qualifier, array, None, None]


def _plan(d: Draws) -> Params:
    chain = d.pick(CHAINS)
    version = d.pick([v for v in VERSIONS if v >= _lowest_version(chain)])
    compat = d.boolean() if version >= 150 else True
    params: Params = {"chain": chain, "version": version, "compat": compat, "builtins": [], "controls": [], "users": [],
              "face": "front", "clip_vertex": False, "separable": False, "fs_users": None, "reverse": False,
              "limit": None, "tag": "explored"}
    if chain == "vs-fs" and version == 450 and d.integer(0, 3) == 0:
        # At GL_MAX_VARYING_COMPONENTS (the common values), or one vec4 over it (link may fail:
        # the builder makes that a skip, never a pass), with or without builtins.
        total, over = d.pick((64, 124, 128)), d.boolean()
        builtins = list(family.BUILTINS)[:d.integer(0, 7)] if compat else []
        users = [[None, "vec4", "", 0, None, None]] * ((total - 4 * len(builtins)) // 4 + over)
        return params | {"builtins": builtins, "users": users, "limit": [total, "over" if over else "at"],
                         "tag": "vec4"}
    if chain == "vs-fs" and version == 450 and not compat and d.boolean():
        # Separable VS and FS matched by explicit locations; the FS reads a subset.
        locations = d.distinct(range(16), 1, 4)
        users = [[None, "vec4", "", 0, location, None] for location in sorted(locations)]
        reads = d.distinct([f"u{n}" for n in range(len(users))], 1, len(users))
        return params | {"users": users, "separable": True, "fs_users": sorted(reads),
                         "controls": ["pointsize"] if d.boolean() else []}
    if compat:
        params["builtins"] = [b for b in family.BUILTINS if d.boolean()]
        if version >= 130:
            params["controls"] = [c for c in family.CONTROLS if d.boolean()]
        if chain in ("vs-fs", "vs-gs-fs") and "clipdist" not in params["controls"]:
            # GLSL: a shader may not write both gl_ClipVertex and gl_ClipDistance.
            params["clip_vertex"] = d.boolean()
            if {"color", "secondary"} & set(params["builtins"]):
                params["face"] = d.pick(FACES)
    params["users"] = d.many(lambda: _user(d, version), 0, 8)
    params["reverse"] = chain == "vs-fs" and d.boolean()
    return params


def plan_of(params: Params) -> family.Plan:
    f = family
    # A user varying without a name is u<its index>: runs of equal varyings then encode short.
    users = tuple(f.Varying(name or f"u{n}", type_, qualifier, array, location, component)
                  for n, (name, type_, qualifier, array, location, component) in enumerate(params["users"]))
    return f.Plan(f.Dialect(params["version"], params["compat"]), params["chain"], tuple(params["builtins"]),
                  tuple(params["controls"]), users, params["face"], params["clip_vertex"], params["separable"],
                  params["reverse"], tuple(params["fs_users"]) if params["fs_users"] is not None else None,
                  tuple(params["limit"]) if params["limit"] else None, params["tag"])


class VaryingsSpace:
    family = FAMILY
    FLOATS: tuple[float, ...] = ()
    SHAPES: tuple[tuple[str, ...], ...] = (
        ("builtins", "chain", "clip_vertex", "compat", "controls", "face", "fs_users", "limit", "reverse",
         "separable", "tag", "users", "version"),
    )
    # The words an id may hold, by index (ids.py): frozen; append new ones at the end, never
    # reorder or remove (an explored id names words by their index). test_explore checks coverage.
    VOCAB: tuple[str, ...] = (
        "at", "over", "explored", "vs-fs", "vs-gs-fs", "vs-tes-fs", "vs-tcs-tes-fs", "vs-tcs-tes-gs-fs", "",
        "flat", "noperspective", "smooth", "centroid", "sample", "front", "back", "two-side-front",
        "two-side-back", "u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9", "u10", "u11", "u12", "u13",
        "u14", "u15", "u16", "u17", "u18", "u19", "u20", "u21", "u22", "u23", "u24", "u25", "u26", "u27", "u28",
        "u29", "u30", "u31", "u32", "u33", "u34", "u35", "u36", "u37", "u38", "u39", "S", "a", "arrays", "b", "c",
        "clipdist", "color", "components", "d", "dmat2", "double", "dvec2", "dvec3", "dvec4", "e", "f", "float",
        "fog", "int", "ivec2", "ivec3", "ivec4", "locations", "mat2", "mat2x3", "mat2x4", "mat3", "mat3x2",
        "mat3x4", "mat4", "mat4x2", "mat4x3", "mixed", "pointsize", "qualifier-centroid", "qualifier-flat",
        "qualifier-noperspective", "qualifier-sample", "qualifier-smooth", "secondary", "struct", "tex0", "tex1",
        "tex2", "tex3", "tex4", "tex5", "tex6", "tex7", "uint", "uvec2", "uvec3", "uvec4", "vec2", "vec3", "vec4",
        "vec4-loc0+3+8",
    )

    def draw(self, d: Draws) -> Params | None:
        """A plan, or None where its varyings take more than MAX_COMPONENTS (a limit case aside)."""
        params = _plan(d)
        return params if params["limit"] or family.components(plan_of(params)) <= MAX_COMPONENTS else None

    def strategy(self) -> st.SearchStrategy[Params]:
        return draws.strategy(self.draw)

    def build(self, params: Params) -> Case:
        return family.make_case(plan_of(params))

    def below(self, params: Params) -> st.SearchStrategy[Params]:
        chains = [c for c in CHAINS[:CHAINS.index(params["chain"])] if _lowest_version(c) <= params["version"]]
        named = [[u[0] or f"u{n}"] + list(u[1:]) for n, u in enumerate(params["users"])]
        users = some_of(named, _below_user, at_least_one=False)
        fs_users = (st.just(None) if params["fs_users"] is None
                    else some_of(params["fs_users"], st.just))
        return fixed_dict(
            chain=toward(chains, params["chain"]), version=st.just(params["version"]),
            compat=st.just(params["compat"]),
            builtins=some_of(params["builtins"], st.just, at_least_one=False),
            controls=some_of(params["controls"], st.just, at_least_one=False), users=users,
            face=toward(["front"], params["face"]), clip_vertex=toward([False], params["clip_vertex"]),
            separable=st.just(params["separable"]), fs_users=fs_users, reverse=toward([False], params["reverse"]),
            limit=st.just(params["limit"]), tag=st.just(params["tag"])).map(_consistent)

    def from_case(self, case: Case) -> Params | None:
        if case.family != FAMILY:
            return None
        plan = _fixed_plans().get(case.id)
        if plan is None:
            return None
        return {"chain": plan.chain, "version": plan.dialect.version, "compat": plan.dialect.compat,
                "builtins": list(plan.builtins), "controls": list(plan.controls),
                "users": [[v.name, v.type, v.qualifier, v.array, v.location, v.component] for v in plan.users],
                "face": plan.face, "clip_vertex": plan.clip_vertex, "separable": plan.separable,
                "fs_users": list(plan.fs_users) if plan.fs_users is not None else None,
                "reverse": plan.reverse_consumer, "limit": list(plan.limit) if plan.limit else None,
                "tag": plan.tag}


@functools.cache
def _fixed_plans() -> dict[str, family.Plan]:
    return {family.case_id_of(plan): plan for plan in family.plans()}


def _below_user(user: list[Any]) -> st.SearchStrategy[list[Any]]:
    name, type_, qualifier, array, location, component = user
    return st.tuples(st.just(name), st.just(type_), toward([""], qualifier),
                     toward([0], array) if array and location is None else st.just(array),
                     st.just(location), st.just(component)).map(list)


def _consistent(params: Params) -> Params:
    """What a reduction may not leave: a two-sided face without a colour, FS reads of a varying
    no longer written, a limit case no longer at its limit."""
    if not {"color", "secondary"} & set(params["builtins"]):
        params = params | {"face": "front"}
    if params["fs_users"] is not None:
        names = {u[0] or f"u{n}" for n, u in enumerate(params["users"])}
        params = params | {"fs_users": [n for n in params["fs_users"] if n in names]}
    if params["limit"] is not None:
        total, how = params["limit"]
        if family.components(plan_of(params)) != total + (4 if how == "over" else 0):
            params = params | {"limit": None}
    return params


SPACE = VaryingsSpace()
