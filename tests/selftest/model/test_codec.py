"""The case JSON (harness/model/codec.py): defaults left out, steps tagged with their kind, lists
read back as tuples, unknown fields and schemas refused, older schemas upgraded."""
from __future__ import annotations

import json
import math

import pytest

from harness.model import codec
from harness.model.case import Case, CaseError, Draw, DrawEntry, DrawState, Readback, Requirements


def case(**fields) -> Case:
    return Case(**{"id": "tess/a/b", "family": "tess", "shaders": (("vs", "void main() {}"),),
                   "requires": Requirements(), "vertices": 3, "attributes": (),
                   "steps": (Draw("DrawArrays", "TRIANGLES", (DrawEntry(3),)),), "readback": Readback(),
                   "expect": (), **fields})


def test_defaults_are_left_out_and_steps_carry_their_kind():
    plain = codec.to_plain(case())
    assert "description" not in plain and "indices" not in plain
    assert plain["steps"] == [{"kind": "Draw", "command": "DrawArrays", "mode": "TRIANGLES", "entries": [{"count": 3}]}]
    assert json.loads(codec.dumps(case()))["schema"] == codec.SCHEMA


def test_a_round_trip_gives_the_same_case_with_tuples_and_nan():
    original = case(steps=(Draw("DrawArrays", "PATCHES", (DrawEntry(3, 2),),
                                state=DrawState(default_outer=(math.nan, 1.0, 2.0, 3.0))),))
    back = codec.loads(Case, codec.dumps(original))
    assert back == original
    assert isinstance(back.steps[0].entries, tuple)


def test_unknown_fields_kinds_and_schemas_are_refused():
    plain = json.loads(codec.dumps(case()))
    with pytest.raises(CaseError, match="unknown field"):
        codec.loads(Case, json.dumps({**plain, "colour": 1}))
    with pytest.raises(CaseError, match="is not one of"):
        codec.loads(Case, json.dumps({**plain, "steps": [{"kind": "Teleport"}]}))
    with pytest.raises(CaseError, match="schema"):
        codec.loads(Case, json.dumps({**plain, "schema": codec.SCHEMA + 1}))


def test_a_schema_2_case_has_its_draws_as_steps():
    plain = json.loads(codec.dumps(case()))
    plain["schema"], plain["draws"] = 2, plain.pop("steps")
    for draw in plain["draws"]:
        draw.pop("kind")
    assert codec.loads(Case, json.dumps(plain)) == case()
    plain["draws"][0]["read_image"] = True
    with pytest.raises(CaseError, match="import its shader_test file again"):
        codec.loads(Case, json.dumps(plain))
