"""The observation's JSON form (harness/model/observation.py): what a backend observes crosses the
child's pipe and lands in a failure's observation file as JSON, and comes back the same."""
from __future__ import annotations

import json

import numpy as np

from harness.model.case import Capture
from harness.model.observation import Observation, Step, decode_records, encode_records, record_dtype

EVERY_PART = Observation([
    Step(counts={"primitives_generated": 2, "xfb_primitives_written": 2, "xfb_vertices": 2},
         xfb=np.arange(8, dtype="<f4").tobytes()),
    Step(counts={"gl_error": 0}, image=np.linspace(0, 1, 16, dtype="<f4").tobytes()),
    Step(counts={"atomic counter 0": 3}, queries={"a": {"glGetActiveUniformsiv": 0x8B5C}, "b": None},
         storage={2: b"\x01\x02\x03\x04", 5: None}),
    Step(),
])


def test_an_observation_survives_its_json_form():
    text = json.dumps(EVERY_PART.to_json())
    assert Observation.from_json(json.loads(text)) == EVERY_PART


def test_the_json_form_is_what_the_runners_wrote_before_it_was_typed():
    """Keys in the runners' order, bytes as base64, storage bindings as strings: observation files
    written before and after read the same."""
    wire = EVERY_PART.to_json()
    assert list(wire) == ["steps"]
    assert [list(step) for step in wire["steps"]] == [["counts", "xfb"], ["counts", "image"],
                                                      ["counts", "queries", "storage"], ["counts"]]
    assert wire["steps"][2]["storage"] == {"2": encode_records(b"\x01\x02\x03\x04"), "5": None}
    assert Observation.from_json(wire).to_json() == wire


def test_an_old_or_broken_observation_has_no_steps_to_judge():
    assert Observation.from_json(None) == Observation() == Observation.from_json({"steps": "x"})
    old = {"draws": [{"counts": {"primitives_generated": 1}}]}          # before cases had steps
    assert Observation.from_json(old).steps == [Step(counts={"primitives_generated": 1})]


def test_records_decode_from_bytes_or_base64_and_drop_a_partial_one():
    captures = (Capture("x", "vec2", "q"),)
    rows = np.array([((1.0, 2.0),), ((3.0, 4.0),)], dtype=record_dtype(captures))
    raw = rows.tobytes() + b"\x00\x00"
    assert decode_records(captures, raw)["q"].tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert decode_records(captures, encode_records(raw))["q"].tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert len(decode_records(captures, None)) == 0
