"""Exploration's plain generator (harness/sources/explored/draws.py): the same parameters for a
seed, every dimension of each family's space reached, every kind of case the space describes
drawn, and each drawn case rebuilt from its id. Pure logic: no driver."""
from __future__ import annotations

import functools
import math

import pytest
from hypothesis import given, settings

from harness.explore import search
from harness.model import glfacts
from harness.sources.explored import draw_params, draws, id_codec as ids, space, tess, varyings

DRAWN = 3000                         # parameters drawn per family for the coverage checks


@functools.cache
def drawn(family: str, seed: int = 3) -> tuple:
    source, sp = draws.Plain(seed), space.get(family)
    return tuple(p for p in (sp.draw(source) for _ in range(DRAWN)) if p is not None)


def values(family: str, get) -> set:
    """Every value `get(params)` yields (a list of values) over the family's drawn parameters."""
    return {v for params in drawn(family) for v in get(params)}


@pytest.mark.parametrize("family", space.FAMILIES)
def test_same_seed_same_parameters(family):
    sp = space.get(family)

    def first(seed):
        source = draws.Plain(seed)
        return [sp.draw(source) for _ in range(30)]
    assert first(5) == first(5)
    assert first(5) != first(6)


def test_plain_primitives_stay_in_bounds_and_reach_both_ends():
    d = draws.Plain(1)
    ints = [d.integer(-2, 9) for _ in range(400)]
    assert set(ints) == set(range(-2, 10))
    assert {d.pick("abc") for _ in range(100)} == set("abc")
    lengths = {len(d.many(lambda: 0, 1, 3)) for _ in range(100)}
    assert lengths == {1, 2, 3}
    for _ in range(100):
        chosen = d.distinct(range(16), 1, 4)
        assert 1 <= len(chosen) <= 4 and len(set(chosen)) == len(chosen) and set(chosen) <= set(range(16))
    assert {d.maybe(lambda: 1) for _ in range(50)} == {None, 1}
    assert d.distinct("ab", 0, 5) in ([], ["a"], ["b"], ["a", "b"], ["b", "a"])


@pytest.mark.parametrize("family", space.FAMILIES)
def test_each_drawn_case_builds_or_is_refused_and_its_id_rebuilds_it(family):
    sp = space.get(family)
    built = 0
    for params in drawn(family)[:150]:
        case = search.build(sp, params)
        if case is None:
            continue
        built += 1
        assert ids.decode(case.id) == (family, params)          # every word drawn is in VOCAB
    assert built >= 100


def test_draw_params_reaches_every_dimension():
    assert values("draw_params", lambda p: [d["command"] for d in p["draws"]]) == set(glfacts.COMMANDS)
    assert values("draw_params", lambda p: [p["index_type"]]) == set(draw_params.INDEX_TYPE_TOKENS)
    assert values("draw_params", lambda p: [(p["chain"], p["version"], p["only_draw_id"])]) == {
        (c, v, o) for c in ("vs", "gs", "tes") for v in (450, 460) for o in (False, True)}
    assert values("draw_params", lambda p: [len(p["draws"])]) == {1, 2, 3}
    entries = values("draw_params", lambda p: [tuple(e) for d in p["draws"] for e in d["entries"]])
    assert {e[0] for e in entries} >= {0, draw_params.INDICES, draw_params.VERTICES}      # zero and whole counts
    assert {e[3] for e in entries} >= {-draw_params.MIN_INDEX, 0}                          # negative base vertex
    assert {e[4] for e in entries} >= {0, draw_params.INSTANCES}
    assert values("draw_params", lambda p: [d["offset"] for d in p["draws"]]) == set(draw_params.OFFSETS)
    assert values("draw_params", lambda p: [d["stride"] for d in p["draws"]]) == set(draw_params.STRIDES)
    assert values("draw_params", lambda p: [d["restart"] for d in p["draws"]]) == {False, True}
    assert values("draw_params", lambda p: [len(d["entries"]) for d in p["draws"]
                                            if d["command"] in glfacts.MULTI_COMMANDS]) == {0, 1, 2, 3, 4}


def test_tess_reaches_every_kind_and_dimension():
    assert values("tess", lambda p: [p["kind"]]) == set(tess.KINDS)
    assert values("tess", lambda p: [p["domain"]]) == set(tess.DOMAINS)
    assert values("tess", lambda p: [p["spacing"]] if "spacing" in p else []) == set(tess.SPACINGS)
    levels = values("tess", lambda p: [repr(v) for v in sum(p.get("levels", [[], []]), [])])
    assert levels == {repr(v) for v in tess.FLOATS}                     # inf and nan among them
    control = [p for p in drawn("tess") if p["kind"] == "control"]
    assert {p["plan"] for p in control} == set(range(8)) and {True, False} == {p["gs"] for p in control}
    assert any(p["barrier"] for p in control) and {1, 32} <= {p["size"] for p in control}
    assert {p["set"] for p in drawn("tess") if p["kind"] == "types"} == {
        t.token for t in tess.vertex_types.TYPE_SETS}
    seq = [p for p in drawn("tess") if p["kind"] == "seq"]
    assert {kind for p in seq for kind, *_ in p["programs"]} == set(tess.PROGRAM_KINDS)
    deleting = [p for p in seq if any(gone for *_, gone in p["steps"])]  # programs deleted between draws
    assert 0.3 < len(deleting) / len(seq) < 0.6          # tess.DELETING: half the sequences, not nearly all
    assert {len(p["steps"]) for p in deleting} == {1, 2, 3, 4, 5}
    assert {p["primitive_id"] for p in drawn("tess") if p["kind"] == "facing"} == {False, True}
    assert any(math.isnan(v) for p in drawn("tess") for v in sum(p.get("levels", [[], []]), []))


def test_varyings_reaches_every_kind_and_dimension():
    assert values("varyings", lambda p: [p["chain"]]) == set(varyings.CHAINS)
    assert values("varyings", lambda p: [p["version"]]) == set(varyings.VERSIONS)
    assert values("varyings", lambda p: [u[2] for u in p["users"]]) == set(varyings.QUALIFIERS)
    assert values("varyings", lambda p: [p["face"]]) == set(varyings.FACES)
    assert values("varyings", lambda p: [u[1] for u in p["users"]]) == set(varyings._types_for(450))
    assert values("varyings", lambda p: [tuple(p["limit"]) if p["limit"] else None]) == {
        None, *((total, how) for total in (64, 124, 128) for how in ("at", "over"))}
    assert values("varyings", lambda p: [p["separable"], p["clip_vertex"], p["reverse"], p["compat"]]) == {
        False, True}
    assert values("varyings", lambda p: p["builtins"]) == set(varyings.family.BUILTINS)
    assert values("varyings", lambda p: p["controls"]) == set(varyings.family.CONTROLS)


@pytest.mark.parametrize("family", space.FAMILIES)
def test_the_strategy_is_the_same_description(family):
    """space.strategy() (draws.strategy over space.draw) draws parameters Plain could draw too:
    the same keys, and each builds (or is refused) as exploration's would."""
    sp = space.get(family)
    shapes = {tuple(sorted(p)) for p in drawn(family)}

    @settings(max_examples=25, database=None, deadline=None)
    @given(sp.strategy())
    def check(params):
        assert tuple(sorted(params)) in shapes
    check()
