"""The checks added for the tessellation family, on observations built by hand: value sets
(the exact gl_TessCoord set of a patch, primitive ids seen by a GS), the per-record rules of
gl_TessCoord, NaN handed on as NaN; and the case-model fields for several programs."""
from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from harness.model.case import (Capture, Case, CaseError, Draw, DrawEntry, Expectation, Readback, RecordGroup,
                          Requirements, TessCoordCheck, ValueSet)
from harness.model.status import Result
from harness.model.observation import encode_records, record_dtype
from harness.oracle.verdict import judge

CAPTURES = (Capture("x_patch", "int", "gl_PrimitiveID"), Capture("x_coord", "vec3", "gl_TessCoord"))
QUAD = ((0.0, 0.0, 0.0), (0.5, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 0.0))


def make_case(expect: Expectation, primitive: str = "POINTS", **fields) -> Case:
    fields.setdefault("steps", (Draw("DrawArrays", "PATCHES", (DrawEntry(3),), label="draw 0"),))
    return Case(id="tess/selftest/checks", family="tess", shaders=(), requires=Requirements(), vertices=0,
                attributes=(), readback=Readback(CAPTURES, primitive), expect=(expect,), **fields)


def observe(rows) -> dict:
    records = np.zeros(len(rows), record_dtype(CAPTURES))
    for i, (patch, coord) in enumerate(rows):
        records["gl_PrimitiveID"][i] = patch
        records["gl_TessCoord"][i] = coord
    return {"steps": [{"counts": {}, "xfb": encode_records(records.tobytes())}]}


def verdict(case, rows):
    return judge(case, Result("ok", observation=observe(rows)), "t")


def coord_set(each=0, tolerance=2e-3):
    return Expectation(0, value_sets=(ValueSet("gl_TessCoord", QUAD, "patch 0, TES", key="gl_PrimitiveID",
                                               key_value=0, each=each, tolerance=tolerance),))


def test_value_set_passes_within_tolerance():
    rows = [(0, (x + 0.0004, y - 0.0004, z)) for x, y, z in QUAD]
    assert verdict(make_case(coord_set(each=1)), rows).status == "pass"
    # other patches' records are not this set's business
    assert verdict(make_case(coord_set(each=1)), rows + [(1, (0.3, 0.3, 0.0))]).status == "pass"


def test_value_set_names_missing_and_stray_values():
    rows = [(0, c) for c in QUAD[:4]] + [(0, (0.25, 0.0, 0.0))]
    v = verdict(make_case(coord_set()), rows)
    assert v.status == "fail"
    assert "draw 0, patch 0, TES: gl_TessCoord: 1 of 5 expected values never seen, e.g. (1, 1, 0)" in v.message
    assert ("draw 0, patch 0, TES: gl_TessCoord = (0.25, 0, 0) in 1 of 5 records, which is not an "
            "expected value (1 such values)") in v.message


def test_value_set_counts_each_value():
    rows = [(0, c) for c in QUAD] + [(0, QUAD[1])]
    assert verdict(make_case(coord_set(each=0)), rows).status == "pass"          # any number of times
    v = verdict(make_case(coord_set(each=1)), rows)
    assert "gl_TessCoord = (0.5, 0, 0) seen 2 times, expected 1 (1 values seen a wrong number of times)" in v.message


def test_value_set_without_records():
    v = verdict(make_case(coord_set()), [(3, QUAD[0])])
    assert "patch 0, TES: no record to compare gl_TessCoord with 5 expected values" in v.message


def test_value_set_nan_is_never_a_match():
    rows = [(0, c) for c in QUAD] + [(0, (math.nan, 0.0, 0.0))]
    v = verdict(make_case(coord_set()), rows)
    assert "gl_TessCoord = (nan, 0, 0) in 1 of 6 records, which is not an expected value" in v.message


def rules(domain="triangles", winding=""):
    return Expectation(0, tess_coord=TessCoordCheck("gl_TessCoord", domain, winding=winding, key="gl_PrimitiveID"))


def test_tess_coord_rules_pass():
    rows = [(0, (0.25, 0.5, 0.25)), (0, (1.0, 0.0, 0.0)), (0, (0.0, 0.0, 1.0))]
    assert verdict(make_case(rules()), rows).status == "pass"
    assert verdict(make_case(rules("quads")), [(0, (0.25, 1.0, 0.0))]).status == "pass"


def test_tess_coord_z_rule_named():
    v = verdict(make_case(rules()), [(0, (0.25, 0.5, 0.25)), (1, (0.25, 0.5, 0.0))])
    assert v.status == "fail"
    assert ("draw 0, record 1 (gl_PrimitiveID = 1): gl_TessCoord = (0.25, 0.5, 0), expected z = 1 - x - y "
            "= 0.25 (1 of 2 records)") in v.message
    v = verdict(make_case(rules("isolines")), [(0, (0.25, 0.5, 0.125))])
    assert "gl_TessCoord = (0.25, 0.5, 0.125), expected z = 0 = 0 (1 of 1 records)" in v.message


def test_tess_coord_range_named():
    v = verdict(make_case(rules("quads")), [(0, (1.5, -0.25, 0.0))])
    assert "record 0 (gl_PrimitiveID = 0): gl_TessCoord = (1.5, -0.25, 0), expected every component in [0, 1]" \
        in v.message


def test_tess_coord_winding():
    ccw = [(0, (0.0, 0.0, 1.0)), (0, (1.0, 0.0, 0.0)), (0, (0.0, 1.0, 0.0))]       # counter-clockwise in (u, v)
    cw = [ccw[0], ccw[2], ccw[1]]
    flat = [(0, (0.0, 0.0, 1.0)), (0, (0.5, 0.0, 0.5)), (0, (1.0, 0.0, 0.0))]       # no area: either way
    assert verdict(make_case(rules(winding="ccw"), "TRIANGLES"), ccw + flat).status == "pass"
    assert verdict(make_case(rules(winding="cw"), "TRIANGLES"), cw + flat).status == "pass"
    v = verdict(make_case(rules(winding="ccw"), "TRIANGLES"), ccw + cw)
    assert v.status == "fail"
    assert ("record 3 (gl_PrimitiveID = 0): triangle 1 of 2 has gl_TessCoord (0, 0, 1), (0, 1, 0), (1, 0, 0): "
            "cw in (u, v), expected ccw (1 of 2 triangles)") in v.message


def test_expected_nan_matches_only_nan():
    group = Expectation(0, groups=(RecordGroup("gl_PrimitiveID", 0, "patch 0", (("gl_TessCoord", (math.nan, 1.0)),)),))
    assert verdict(make_case(group), [(0, (math.nan, 1.0, 0.0))]).status == "pass"
    v = verdict(make_case(group), [(0, (0.0, 1.0, 0.0))])
    assert "patch 0: gl_TessCoord = (0, 1), expected (nan, 1) (all 1 records)" in v.message
    inf = Expectation(0, groups=(RecordGroup("gl_PrimitiveID", 0, "patch 0", (("gl_TessCoord", (math.inf,)),)),))
    assert verdict(make_case(inf), [(0, (math.inf, 0.0, 0.0))]).status == "pass"


# --- the case model: new fields stay out of the JSON at their defaults ------------------------

def test_new_fields_absent_from_json_at_defaults():
    data = json.loads(make_case(Expectation(0, counts=(("primitives_generated", 1),))).to_json())
    assert "programs" not in data
    assert "program" not in data["steps"][0] and "delete_programs" not in data["steps"][0]
    assert "value_sets" not in data["expect"][0] and "tess_coord" not in data["expect"][0]


def test_new_fields_round_trip():
    case = make_case(dataclasses.replace(coord_set(each=1), tess_coord=rules().tess_coord),
                     programs=((("vs", "void main() {}"),), (("vs", "void main() {}"), ("tes", "x"))))
    draws = (Draw("DrawArrays", "PATCHES", (DrawEntry(3),), program=2, delete_programs=(0, 1)),)
    case = dataclasses.replace(case, steps=draws)
    again = Case.from_json(case.to_json())
    assert again == case and again.to_json() == case.to_json()
    assert again.steps[0].delete_programs == (0, 1) and again.expect[0].tess_coord.domain == "triangles"


def test_nan_round_trips_equal():
    group = Expectation(0, groups=(RecordGroup("gl_PrimitiveID", 0, "patch 0", (("gl_TessCoord", math.nan),)),))
    case = make_case(group)
    assert "NaN" in case.to_json() and Case.from_json(case.to_json()) == case


@pytest.mark.parametrize("fields, words", [
    ({"steps": (Draw("DrawArrays", "PATCHES", (DrawEntry(3),), program=1),)}, "draw names program 1, the case has 1"),
    ({"steps": (Draw("DrawArrays", "PATCHES", (DrawEntry(3),), delete_programs=(2,)),), "programs": ((("vs", "x"),),)},
     "draw names program 2, the case has 2"),
    ({"programs": ((("vs", "x"),),), "separable": True}, "several programs and separable"),
    ({"programs": ((("mesh", "x"),),)}, "unknown shader stage 'mesh'"),
])
def test_bad_program_fields_are_refused(fields, words):
    with pytest.raises(CaseError, match=words):
        make_case(Expectation(0), **fields)
