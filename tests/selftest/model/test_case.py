"""Case ids are stable, unique and readable; cases survive a JSON round trip unchanged."""
from __future__ import annotations

import dataclasses
import json

import pytest
from conftest import family

from harness.model.case import ID_RE, Case, CaseError

tess = family("tess")

# Pinned ids: baselines and bisection scripts name cases by these strings. If a change renames
# one of them, that is a deliberate decision (and a note for users), not an accident.
PINNED = [
    "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7",
    "tess/no-tcs/triangles/fractional_odd/pv4/o2.5_1.25_3.75-i3.5",
    "tess/no-tcs/isolines/equal/pv32/o2_3",
    "tess/no-tcs/quads/fractional_even/points/pv4/o2_3_4_5-i6_7",
    "tess/no-tcs/triangles/equal/pv4/o2_3_4-i6/then/pv16",
    "tess/no-tcs/isolines/equal/initial",
]


@pytest.fixture(scope="module")
def regenerated():
    """The tess family generated once more, for the tests that compare generations (one
    generation is seconds of CPU: made once for the module)."""
    return tess.generate()


def test_ids_unique_and_well_formed(tess_cases, draw_params_cases, regenerated):
    generated = regenerated
    assert len(generated) == len({c.id for c in generated}) >= 100
    every = list(tess_cases) + list(draw_params_cases)
    assert len(every) == len(set(every))
    for case_id in every:
        assert ID_RE.match(case_id), case_id


def test_every_id_is_a_valid_k_expression(tess_cases, draw_params_cases):
    """`pytest -k '<case id>'` must work for every case: -k rejects e.g. commas and spaces."""
    from _pytest.mark.expression import Expression      # pytest's own -k parser
    for case_id in list(tess_cases) + list(draw_params_cases):
        assert Expression.compile(case_id).evaluate(lambda name, case_id=case_id: name == case_id), case_id


def test_ids_stable_across_generations(tess_cases, regenerated):
    again = regenerated
    assert [c.id for c in again] == list(tess_cases)
    assert [c.to_json() for c in again] == [c.to_json() for c in tess_cases.values()]


@pytest.mark.parametrize("case_id", PINNED)
def test_pinned_ids_exist(tess_cases, case_id):
    assert case_id in tess_cases


def _sample(cases: list[Case], every: int) -> list[Case]:
    """Every `every`th case, and the first of each kind (the id's first three parts: a draw_params
    command and its parameters' pattern, a tess domain and spacing)."""
    kinds: set[str] = set()
    chosen = []
    for number, case in enumerate(cases):
        kind = "/".join(case.id.split("/")[:3])
        if number % every == 0 or kind not in kinds:
            chosen.append(case)
        kinds.add(kind)
    return chosen


# Every case in CI (marked slow: ~3 ms a case, 8 s in all); a contributor's run a sample.
@pytest.mark.parametrize("every", [pytest.param(1, marks=pytest.mark.slow), 17])
def test_json_round_trip(tess_cases, draw_params_cases, every):
    for case in _sample(list(tess_cases.values()) + list(draw_params_cases.values()), every):
        text = case.to_json()
        again = Case.from_json(text)
        assert again == case
        assert again.to_json() == text


def test_json_is_plain_data(tess_cases):
    case = tess_cases["tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"]
    data = json.loads(case.to_json())
    assert data["id"] == case.id
    assert data["steps"][0]["state"]["default_outer"] == [2.0, 3.0, 4.0, 5.0]
    assert dict(map(tuple, data["shaders"]))["tes"].startswith("#version 400 core")


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d.update(id="Not An Id"), "bad case id"),
    (lambda d: d.update(family="draw_params"), "does not start with its family"),
    (lambda d: d.update(colour="red"), "unknown field"),
    (lambda d: d["steps"][0].update(bogus=1), "unknown field"),
    (lambda d: d["steps"][0].update(kind="Blit"), "'Blit' is not one of Draw, Clear, SetState"),
    (lambda d: d["expect"][0].update(step=7), "an expectation names step 7, the case has 1"),
    (lambda d: d.update(shaders=[["mesh", "void main(){}"]]), "unknown shader stage"),
    (lambda d: d["readback"]["captures"][0].update(type="dmat4"), "cannot capture"),
    (lambda d: d.update(steps="DrawArrays"), "Case.steps: expected a list, got str"),
    (lambda d: d.update(steps=["DrawArrays"]), "'str' is not one of Draw"),
])
def test_malformed_case_is_one_clear_error(tess_cases, mutate, words):
    data = json.loads(next(iter(tess_cases.values())).to_json())
    mutate(data)
    with pytest.raises(CaseError, match="^malformed case description: .*" + words):
        Case.from_json(json.dumps(data))


def test_not_json_at_all():
    with pytest.raises(CaseError, match="malformed case"):
        Case.from_json("{ not json")


def test_case_is_frozen(tess_cases):
    case = next(iter(tess_cases.values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.id = "tess/other"


def test_json_carries_its_schema_and_leaves_defaults_out(tess_cases):
    from harness.model.case import SCHEMA
    case = tess_cases["tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"]
    data = json.loads(case.to_json())
    assert data["schema"] == SCHEMA == 3
    assert "separable" not in data and "instance_count" not in data["steps"][0]["entries"][0]
    assert data["steps"][0]["kind"] == "Draw" and data["expect"][0]["step"] == 0


def _as_draws(data: dict) -> dict:
    """A case's JSON as schemas 1 and 2 wrote it: "draws" without kinds, expectations naming a "draw"."""
    data["draws"] = [{k: v for k, v in step.items() if k != "kind"} for step in data.pop("steps")]
    data["expect"] = [{("draw" if k == "step" else k): v for k, v in e.items()} for e in data["expect"]]
    return data


def test_schema_1_and_2_json_still_read(tess_cases):
    """Schema 1 wrote every field and no "schema" key, schema 2 only those off their defaults; both
    called the steps "draws": results and exports from before read the same."""
    case = tess_cases["tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"]
    every_field = _as_draws(dataclasses.asdict(case))
    assert Case.from_json(json.dumps(every_field)) == case
    schema_2 = _as_draws(json.loads(case.to_json())) | {"schema": 2}
    assert Case.from_json(json.dumps(schema_2)) == case


def test_an_old_imported_case_with_script_steps_is_one_clear_error(tess_cases):
    data = _as_draws(json.loads(next(iter(tess_cases.values())).to_json())) | {"schema": 2}
    data["draws"].append({"command": "None", "mode": "POINTS", "entries": [], "read_image": True})
    with pytest.raises(CaseError, match="import its shader_test file again"):
        Case.from_json(json.dumps(data))


@pytest.mark.parametrize("schema", [4, 0, "2"])
def test_a_schema_this_harness_does_not_read_is_one_clear_error(tess_cases, schema):
    data = json.loads(next(iter(tess_cases.values())).to_json()) | {"schema": schema}
    with pytest.raises(CaseError, match=f"^malformed case description: case JSON schema {schema!r}: "
                                        "this harness reads 1 to 3"):
        Case.from_json(json.dumps(data))
