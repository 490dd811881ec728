"""harness/backends/vk/locations.py: the same name gets the same location on both sides of an
interface, explicit locations are kept, and the legacy builtins go after the user's varyings
(slot-map) or at 0 on top of them (without it)."""
from __future__ import annotations

from harness.backends.vk.locations import assign_locations, legacy_location, locations_used, stage_order
from harness.backends.vk.program import Program

VS = ("#version 130\nout vec4 b;\nout vec2 a;\nout float z;\n"
      "void main() { a = vec2(0.0); b = vec4(0.0); z = 0.0; gl_FrontColor = vec4(1.0); gl_Position = vec4(0.0); }\n")
FS = "#version 130\nin vec2 a;\nin vec4 b;\nvoid main() { gl_FragColor = gl_Color + b + a.xyxy; }\n"


def located(without=frozenset()) -> Program:
    program = Program({"fs": FS, "vs": VS}, frozenset(without))
    assign_locations(program)
    return program


def test_names_match_across_the_interface_in_name_order():
    program = located()
    assert stage_order(program) == ["vs", "fs"]
    assert {name: loc for (index, name), loc in program.locations.items() if index == 0} == {"a": 0, "b": 1, "z": 2}


def test_legacy_builtins_come_after_the_users_varyings():
    program = located()
    assert program.legacy_used == ("FrontColor",)
    assert legacy_location(program, 0, "FrontColor") == 3 and locations_used(program) == 4


def test_without_slot_map_the_legacy_builtins_land_on_the_users():
    program = located({"slot-map"})
    assert legacy_location(program, 0, "FrontColor") == 0 and locations_used(program) == 3


def test_an_explicit_location_is_kept_and_skipped():
    program = Program({"vs": VS.replace("out vec2 a;", "layout(location = 0) out vec2 a;").replace("#version 130", "#version 410"),
                       "fs": FS.replace("in vec2 a;", "layout(location = 0) in vec2 a;").replace("#version 130", "#version 410 compatibility")},
                      frozenset())
    assign_locations(program)
    assert program.locations[(0, "a")] == 0 and program.locations[(0, "b")] == 1
