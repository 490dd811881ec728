"""A case's steps (harness/model/steps.py): the draw a step makes, the state it sets, how
messages name it."""
from __future__ import annotations

from harness.model.steps import Clear, Draw, DrawEntry, DrawState, Link, NewList, Read, step_draw, step_label, step_state

DRAW = Draw("DrawArrays", "PATCHES", (DrawEntry(4),), state=DrawState(patch_vertices=4), label="draw rect (line 9)")


def test_the_draw_a_step_makes():
    assert step_draw(DRAW) is DRAW
    assert step_draw(NewList("COMPILE", DRAW)) is DRAW
    assert step_draw(Clear((0.0, 0.0, 0.0, 1.0))) is None


def test_the_state_a_step_sets():
    assert step_state(NewList("COMPILE", DRAW)).patch_vertices == 4
    assert step_state(Read(image=True)) == DrawState()


def test_steps_are_named_by_label_else_kind_and_index():
    steps = [DRAW, NewList("COMPILE", DRAW), Draw("DrawArrays", "POINTS", (DrawEntry(1),)), Link()]
    assert [step_label(steps, i) for i in range(4)] == [
        "draw rect (line 9)", "draw rect (line 9)", "draw 2", "step 3 (Link)"]
