"""The importer's parse state (harness/sources/shader_test/state.py)."""
from __future__ import annotations

from harness.model.case import Probe, Uniform
from harness.sources.shader_test.state import TEXCOORD_ARRAY, Checks, Context, DrawingState, Line, Vertices


def test_a_step_takes_the_state_and_the_uniforms_and_buffers_set_for_it():
    state = DrawingState(enabled=["CLIP_PLANE2"], planes={0: (1.0, 0.0, 0.0, 0.0)},
                         uniforms=[Uniform("u", "float", (1.0,))], pending_storage=[(0, 16)])
    first = state.take()
    assert first.clip_planes == ((1.0, 0.0, 0.0, 0.0), (0.0,) * 4, (0.0,) * 4)
    assert first.uniforms and first.storage_buffers == ((0, 16),) and first.patch_vertices == 3
    second = state.take()
    assert second.uniforms == () and second.storage_buffers == () and second.enable == ("CLIP_PLANE2",)


def test_rectangles_fill_missing_components_and_attributes_are_padded():
    vertices = Vertices()
    vertices.append_rect("piglit_vertex", 0, 4, [float(i) for i in range(16)])
    vertices.append_rect(TEXCOORD_ARRAY, -1, 2, [0.0] * 8)
    vertices.rows = 5
    position, texcoord = vertices.attributes()[1], vertices.attributes()[0]
    assert (position.location, position.name, len(position.data)) == (0, "piglit_vertex", 20)
    assert texcoord.array == "TEXTURE_COORD" and texcoord.name == ""


def test_the_context_names_its_profile_and_checks_gather_by_step():
    assert Context(gl=(3, 0)).profile == "compat" and Context(gl=(3, 1)).profile == "core"
    assert Context(gl=(4, 0), profile_asked="compat").requirements("why").unsupported == "why"
    checks = Checks(probes={2: [Probe("p", 0, 0, 1, 1, (1.0, 0.0, 0.0), (0.0,) * 4)]}, counts={0: [("gl_error", 0)]})
    assert checks.any() and not Checks().any()
    assert [e.step for e in checks.expectations()] == [0, 2]
    line = Line(7, "draw  arrays", ["draw", "arrays"])
    assert (line.where, line.label) == ("command 'draw  arrays' (line 7)", "draw  arrays (line 7)")
