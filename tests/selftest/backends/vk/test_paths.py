"""The Vulkan layer's paths (harness/backends/vk/paths.py), multi-draw, patch size and vertex input: chosen by
the device's features as zink chooses, selectable, and each one really taken on lavapipe."""
from __future__ import annotations

import dataclasses

import json
import subprocess
import sys

import pytest
import vulkan
from conftest import ROOT, SYSTEM_ONLY_ENV, generated, on_the_systems_mesa, pinned_mesa

from harness.base.config import VkPath, VkPaths, VkPointSize, VkVertexInput
from harness.backends.vk import paths
from harness.executor.executor import Executor
from harness.model.status import Reply
from harness.executor.targets import get
from harness.oracle.verdict import judge

MULTI = "draw_params/MultiDrawArrays/f2c3+f0c0+f5c2/glsl450/vs"


@pytest.mark.parametrize("multi_draw, draw_parameters, path, words", [
    (True, True, "native", "offers VK_EXT_multi_draw and shaderDrawParameters"),
    (False, True, "split", "lacks VK_EXT_multi_draw (multiDraw)"),
    (True, False, "split", "lacks shaderDrawParameters"),
    (False, False, "split", "lacks VK_EXT_multi_draw (multiDraw) and shaderDrawParameters"),
])
def test_auto_takes_zinks_path_by_the_devices_features(multi_draw, draw_parameters, path, words):
    choice = paths.choose("auto", multi_draw, draw_parameters)
    assert choice.path == path and words in choice.why
    assert choice.describe().startswith(f"multi-draw path {path} (auto: ")


def test_a_named_path_is_taken_or_refused_in_one_line():
    assert paths.choose("split", True, True).path == "split"
    assert paths.choose("native", True, True).path == "native"
    with pytest.raises(paths.PathError, match=r"^--vk-path native: the Vulkan device lacks VK_EXT_multi_draw"):
        paths.choose("native", False, True)
    with pytest.raises(paths.PathError, match=r"unknown Vulkan path 'fast' \(known: auto, native, split\)"):
        paths.choose("fast", True, True)


def test_only_direct_multi_draws_depend_on_the_path():
    cases = generated("draw_params")
    commands = {c.id: {d.command for d in c.draws()} for c in cases}
    dependent = {c.id for c in cases if paths.depends_on_path(c)}
    assert MULTI in dependent
    assert all(commands[i] & {"MultiDrawArrays", "MultiDrawElements", "MultiDrawElementsBaseVertex"}
               for i in dependent)
    assert not any(paths.depends_on_path(c) for c in cases
                   if commands[c.id] <= {"DrawArrays", "MultiDrawArraysIndirect", "MultiDrawElementsIndirectCount"})


@pytest.mark.parametrize("path, draw_id_off", [("native", "pass"), ("split", "fail")])
def test_each_path_runs_on_lavapipe(path, draw_id_off):
    """Both paths pass the multi-draw case; with the draw-id translation off only the split path
    fails, which shows the native one reads DrawIndex from a real vkCmdDrawMultiEXT."""
    case = {c.id: c for c in generated("draw_params")}[MULTI]
    for without, expected in (("", "pass"), ("draw-id", draw_id_off)):
        ex = Executor(get("lavapipe"), mesa=pinned_mesa(), vk_without=without, vk_paths=VkPaths(multi_draw=VkPath(path)))
        try:
            info = ex.info()
            assert info.status is Reply.OK, info.message
            assert info.info.vk_paths["vk_path"] == path
            assert f"multi-draw path {path} (--vk-path {path})" in info.info.platform
            verdict = judge(case, ex.run(case), "lavapipe")
        finally:
            ex.close()
        assert verdict.status == expected, (path, without, verdict.message)
        if expected == "fail":
            assert "entry 2, vertex 0, instance 0: gl_DrawID = 0, expected 2" in verdict.message


def test_the_lavapipe_split_target_takes_the_split_path_on_the_cases_that_depend_on_it():
    target = get("lavapipe-split")
    assert target.vk_paths.multi_draw == "split" and target.path_dependent_only and target.default
    assert get("lavapipe").vk_paths.multi_draw is None      # the run's --vk-path, auto by default


@pytest.mark.parametrize("dynamic, path, words", [
    (True, "dynamic", "offers extendedDynamicState2PatchControlPoints, as zink uses it"),
    (False, "static", "lacks VK_EXT_extended_dynamic_state2 (extendedDynamicState2PatchControlPoints), as zink bakes"),
])
def test_auto_takes_zinks_patch_size_path_by_the_devices_feature(dynamic, path, words):
    choice = paths.choose_patch_size("auto", dynamic)
    assert choice.path == path and words in choice.why
    assert choice.describe().startswith(f"patch-size path {path} (auto: ")


def test_a_named_patch_size_path_is_taken_or_refused_in_one_line():
    assert paths.choose_patch_size("static", True).path == "static"
    assert paths.choose_patch_size("dynamic", True).path == "dynamic"
    with pytest.raises(paths.PathError, match=r"^--vk-patch-path dynamic: the Vulkan device lacks "
                                              r"VK_EXT_extended_dynamic_state2 \(extendedDynamicState2PatchControlPoints\)$"):
        paths.choose_patch_size("dynamic", False)
    with pytest.raises(paths.PathError, match=r"unknown patch-size path 'fast' \(known: auto, dynamic, static\)"):
        paths.choose_patch_size("fast", True)
    # the multi-draw choice still describes itself as before
    assert paths.choose("split", True, True).describe() == "multi-draw path split (--vk-path split)"


def test_only_patch_draws_with_a_tes_depend_on_the_patch_size_path():
    tess = generated("tess")
    assert all(paths.depends_on_patch_size_path(c) for c in tess if c.id.startswith(("tess/no-tcs/", "tess/tcs/")))
    assert not any(paths.depends_on_patch_size_path(c) for c in generated("draw_params")
                   if c.id.endswith("/vs"))


VI_LACKS = "VK_EXT_vertex_input_dynamic_state (vertexInputDynamicState)"
EDS2_LACKS = "VK_EXT_extended_dynamic_state2 (extendedDynamicState2)"


@pytest.mark.parametrize("vertex_input, eds2, path, words", [
    (True, True, "dynamic", "offers vertexInputDynamicState and extendedDynamicState2, as zink records"),
    (True, False, "static", f"lacks {EDS2_LACKS}, as zink bakes the vertex input"),
    (False, True, "static", f"lacks {VI_LACKS}, as zink bakes the vertex input"),
    (False, False, "static", f"lacks {VI_LACKS} and {EDS2_LACKS}, as zink bakes"),
])
def test_auto_takes_zinks_vertex_input_path_by_the_devices_features(vertex_input, eds2, path, words):
    """zink 25.0.7 uses VK_EXT_vertex_input_dynamic_state only with its feature and with
    extendedDynamicState2 (zink_device_info.py's conditions, zink_screen.c:2848-2850)."""
    choice = paths.choose_vertex_input("auto", vertex_input, eds2)
    assert choice.path == path and words in choice.why
    assert choice.describe().startswith(f"vertex-input path {path} (auto: ")


@pytest.mark.parametrize("vertex_input, eds2, lacks", [
    (False, True, VI_LACKS), (True, False, EDS2_LACKS), (False, False, f"{VI_LACKS} and {EDS2_LACKS}")])
def test_a_named_vertex_input_path_is_taken_or_refused_in_one_line(vertex_input, eds2, lacks):
    assert paths.choose_vertex_input("static", vertex_input, eds2).describe() == \
        "vertex-input path static (--vk-vertex-input static)"
    assert paths.choose_vertex_input("dynamic", True, True).describe() == \
        "vertex-input path dynamic (--vk-vertex-input dynamic)"
    with pytest.raises(paths.PathError) as refused:
        paths.choose_vertex_input("dynamic", vertex_input, eds2)
    assert str(refused.value) == f"--vk-vertex-input dynamic: the Vulkan device lacks {lacks}"
    with pytest.raises(paths.PathError, match=r"unknown vertex-input path 'fast' \(known: auto, dynamic, static\)"):
        paths.choose_vertex_input("fast", True, True)


def test_cases_with_vertex_attributes_depend_on_the_vertex_input_path():
    """Every draw_params case reads a_vertex and a_instance; a case without attributes gives the
    driver nothing to fetch in either path."""
    draw_params = generated("draw_params")
    assert all(paths.depends_on_vertex_input(c) for c in draw_params)
    without = [c for c in generated("tess") if not c.attributes]
    assert without and not any(paths.depends_on_vertex_input(c) for c in without)


def test_draw_parameters_are_needed_as_zink_needs_shader_draw_parameters():
    """zink offers GL_ARB_shader_draw_parameters and GL_ARB_base_instance only with
    shaderDrawParameters; the layer skips a case reading a draw parameter on a device without it."""
    from harness.backends.vk.runner import GL_EXTENSIONS, uses_draw_parameters
    assert "GL_ARB_shader_draw_parameters" not in GL_EXTENSIONS and "GL_ARB_base_instance" not in GL_EXTENSIONS
    draw_params = generated("draw_params")
    assert all(uses_draw_parameters(c) for c in draw_params)
    tess = generated("tess")
    assert not all(uses_draw_parameters(c) for c in tess)


# Every patch size 1..32 through the injected TCS; and a TCS program drawn with patch sizes 4 and 7
# around a TCS-less draw, where in the dynamic path one pipeline serves both sizes, so that only
# vkCmdSetPatchControlPointsEXT tells lavapipe the size of each.
PATCH_SIZES = ("tess/no-tcs/triangles/equal/pv1-to-32", "tess/seq/triangles/equal/tcs-no-tcs-tcs")
_RUN = """
import sys
from harness.backends.vk.runner import VKBackend
from harness.model.status import Reply, Result
from harness.oracle.verdict import judge
from harness.sources import catalog
backend = VKBackend(patch_path=sys.argv[1], validation=True)
info = backend.info()
for case_id in sys.argv[2:]:
    case = catalog.find(case_id)
    verdict = judge(case, Result(Reply.OK, observation=backend.run(case)), "lavapipe")
    print(info.vk_paths["vk_patch_path"], verdict.status.value, case_id, verdict.message.splitlines()[0] if verdict.message else "")
"""


@pytest.mark.parametrize("path", ["dynamic", "static"])
def test_each_patch_size_path_runs_on_lavapipe(path):
    """Both patch-size paths pass, under the validation layer (which checks that the dynamic path
    records the size before each draw). On the system's Mesa, as test_translate.py's validation
    tests: the distribution's layer does not load into a fetched Mesa of another release."""
    on_the_systems_mesa({"lavapipe": list(PATCH_SIZES)})
    proc = subprocess.run([sys.executable, "-m", "harness", "exec", "lavapipe", "--", sys.executable, "-c", _RUN,
                           path, *PATCH_SIZES], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=SYSTEM_ONLY_ENV)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [line.split()[:3] for line in proc.stdout.splitlines()] == [[path, "pass", c] for c in PATCH_SIZES], \
        proc.stdout + proc.stderr[-2000:]


PATCH_OPTION_CASE = "tess/no-tcs/triangles/equal/pv4/o1_1_1-i1"


@pytest.fixture(scope="module", params=["dynamic", "static"])
def path_options_run(request, tmp_path_factory):
    """One run per path for the two option tests below (bin/selftest's --dist loadscope runs a module on one worker):
    pytest with `--vk-patch-path` and `--vk-vertex-input` both set to it, through the scheduler's
    processes (--jobs 2) to each executor child, on a tess case and an attribute-reading
    draw_params case; the path and each case's record."""
    path, folder = request.param, tmp_path_factory.mktemp(f"paths-{request.param}")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/tess", "tests/draw_params",
                           "-k", f"{PATCH_OPTION_CASE} or {ATTRIBUTES_CASE}", "--target", "lavapipe",
                           f"--vk-patch-path={path}", f"--vk-vertex-input={path}", "--jobs", "2",
                           f"--results-dir={folder}"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    records = json.loads((folder / "results.json").read_text())["results"]
    assert sorted(r["id"] for r in records) == sorted([PATCH_OPTION_CASE, ATTRIBUTES_CASE]), records
    return path, {r["id"]: r for r in records}


def test_the_patch_size_path_option_reaches_the_backend(path_options_run):
    """`--vk-patch-path` on pytest's command line, through the scheduler's processes (--jobs 2) to
    each executor child: the record's platform names the path taken and why. lavapipe (22.3.6 and
    26.2.6) offers extendedDynamicState2PatchControlPoints, so both are taken here; a device
    without it refuses `dynamic` in one line (test_a_named_patch_size_path_is_taken_or_refused_in_one_line)."""
    path, records = path_options_run
    record = records[PATCH_OPTION_CASE]
    assert (record["id"], record["status"]) == (PATCH_OPTION_CASE, "pass"), record
    assert f"patch-size path {path} (--vk-patch-path {path})" in record["platform"], record["platform"]


# The vertex-input path: an attribute-reading draw_params case (a_vertex per vertex, a_instance
# per instance) whose four vertices fetch different values at either rate.
ATTRIBUTES_CASE = "draw_params/DrawArraysInstancedBaseInstance/f0c4i1bi0/glsl450/vs"
_RUN_VERTEX_INPUT = """
import sys
from harness.backends.vk import recording
from harness.backends.vk.runner import VKBackend
from harness.model.status import Reply, Result
from harness.oracle.verdict import judge
from harness.sources import catalog
path, swap = sys.argv[1], sys.argv[2] == "swap"
recorded = []
set_vertex_input = recording.set_vertex_input
def spy(cmd, ext, layout):
    recorded.append(layout)
    if swap:        # each binding recorded at the other rate: what the driver fetches by, if it reads the command
        instance, vertex = recording.vk.VK_VERTEX_INPUT_RATE_INSTANCE, recording.vk.VK_VERTEX_INPUT_RATE_VERTEX
        layout = tuple(v._replace(rate=vertex if v.rate == instance else instance) for v in layout)
    set_vertex_input(cmd, ext, layout)
recording.set_vertex_input = spy
backend = VKBackend(vertex_input=path, validation=True)
case = catalog.find(sys.argv[3])
verdict = judge(case, Result(Reply.OK, observation=backend.run(case)), "lavapipe")
print(backend.info().vk_paths["vk_vertex_input"], verdict.status.value, len(recorded), [tuple(map(tuple, layout)) for layout in recorded[:1]])
print(verdict.message)
"""


@pytest.mark.parametrize("path, swap, expected", [
    ("dynamic", "", ("dynamic", "pass", "1")),
    ("dynamic", "swap", ("dynamic", "fail", "1")),
    ("static", "swap", ("static", "pass", "0")),
])
def test_the_dynamic_vertex_input_path_is_what_lavapipe_fetches_by(path, swap, expected):
    """In the dynamic path the draw records vkCmdSetVertexInputEXT (once, before its one draw) and
    the driver fetches by it: recorded with each binding at the other rate, the case fails on its
    attributes, though the pipeline is the same; the static path never records it, so the same
    change does nothing there. Under the validation layer, which reports a draw whose pipeline
    declares VK_DYNAMIC_STATE_VERTEX_INPUT_EXT without the command recorded. System Mesa only, as
    test_each_patch_size_path_runs_on_lavapipe."""
    on_the_systems_mesa({"lavapipe": [ATTRIBUTES_CASE]})
    proc = subprocess.run([sys.executable, "-m", "harness", "exec", "lavapipe", "--", sys.executable, "-c",
                           _RUN_VERTEX_INPUT, path, swap or "-", ATTRIBUTES_CASE], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=SYSTEM_ONLY_ENV)
    assert proc.returncode == 0, proc.stderr[-2000:]
    first, message = proc.stdout.split("\n", 1)
    assert tuple(first.split()[:3]) == expected, proc.stdout + proc.stderr[-2000:]
    if expected[2] == "1":          # the layout both paths give the driver: binding i, floats, offset 0
        vertex, instance = vulkan.VK_VERTEX_INPUT_RATE_VERTEX, vulkan.VK_VERTEX_INPUT_RATE_INSTANCE
        assert f"[((0, 4, {vertex}, 0, {vulkan.VK_FORMAT_R32_SFLOAT}), " \
               f"(1, 4, {instance}, 1, {vulkan.VK_FORMAT_R32_SFLOAT}))]" in first, first
    if expected[1] == "fail":
        assert "attributes fetched (a_vertex, a_instance)" in message, message


def test_the_vertex_input_path_option_reaches_the_backend(path_options_run):
    """`--vk-vertex-input` on pytest's command line, through the scheduler's processes (--jobs 2)
    to each executor child: an attribute-reading case passes and its record's platform names the
    path taken. lavapipe (22.3.6 and 26.2.6) offers vertexInputDynamicState and
    extendedDynamicState2, so both are taken here."""
    path, records = path_options_run
    record = records[ATTRIBUTES_CASE]
    assert (record["id"], record["status"]) == (ATTRIBUTES_CASE, "pass"), record
    assert f"vertex-input path {path} (--vk-vertex-input {path})" in record["platform"], record["platform"]


def test_the_lavapipe_split_target_takes_the_paths_zink_does_not_take_on_lavapipe():
    """lavapipe-split: multi-draws split and the vertex input static, where `lavapipe` takes zink's
    (native, dynamic on lavapipe). Its draw_params cases read attributes, so the static
    vertex-input path runs in CI on them (its tess cases read none: the same in either path)."""
    split, lavapipe = get("lavapipe-split"), get("lavapipe")
    assert (split.vk_paths.multi_draw, split.vk_paths.vertex_input) == ("split", "static")
    assert (lavapipe.vk_paths.multi_draw, lavapipe.vk_paths.vertex_input) == (None, None)
    collected = {name: [c for c in generated(name) if paths.depends_on_path(c)] for name in ("draw_params", "tess")}
    assert collected["draw_params"] and all(map(paths.depends_on_vertex_input, collected["draw_params"]))
    assert collected["tess"] and not any(map(paths.depends_on_vertex_input, collected["tess"]))
    from harness.base.config import RunSettings
    options = RunSettings(vk_paths=VkPaths(vertex_input=VkVertexInput.DYNAMIC)).child_options(split)
    assert (options.vk_paths.multi_draw, options.vk_paths.vertex_input) == ("split", "static")


M5_LACKS = "VK_KHR_maintenance5 (maintenance5)"


@pytest.mark.parametrize("maintenance5, path, words", [
    (True, "default", "offers maintenance5, as zink leaves an unwritten point size to the driver's 1.0"),
    (False, "written", f"lacks {M5_LACKS}, as zink writes gl_PointSize = 1.0"),
])
def test_auto_takes_zinks_point_size_path_by_the_devices_feature(maintenance5, path, words):
    """zink 25.0.7 with VK_KHR_maintenance5 injects no gl_PointSize store and deletes a constant
    1.0 one the next stage does not read (zink_screen.c:1165-1167, zink_compiler.c:2893-2911)."""
    choice = paths.choose_point_size("auto", maintenance5)
    assert choice.path == path and words in choice.why
    assert choice.describe().startswith(f"point-size path {path} (auto: ")


def test_a_named_point_size_path_is_taken_or_refused_in_one_line():
    for maintenance5 in (True, False):
        assert paths.choose_point_size("written", maintenance5).describe() == \
            "point-size path written (--vk-point-size written)"
    assert paths.choose_point_size("default", True).describe() == "point-size path default (--vk-point-size default)"
    with pytest.raises(paths.PathError) as refused:
        paths.choose_point_size("default", False)
    assert str(refused.value) == (f"--vk-point-size default: the Vulkan device lacks {M5_LACKS}, "
                                  "without which a point's size must be written")
    assert "\n" not in str(refused.value)
    with pytest.raises(paths.PathError, match=r"unknown point-size path 'big' \(known: auto, default, written\)"):
        paths.choose_point_size("big", True)


def test_which_cases_depend_on_the_point_size_path_and_which_rasterize_points():
    """Nearly every case leaves gl_PointSize to the layer (those whose last stage writes it do not
    depend on the path); no case of the families rasterizes points: every draw of point primitives
    captures varyings, with rasterization discarded, so the path shows only in what the driver is
    given (a point topology without a PointSize store), never in a point's size."""
    tess, draw_params, varyings = (generated(name) for name in ("tess", "draw_params", "varyings"))
    writes = [c for c in tess + varyings if "gl_PointSize" in dict(c.shaders).get("vs", "")
              and not {"tes", "gs"} & set(dict(c.shaders))]
    assert writes and not any(map(paths.depends_on_point_size, writes))
    assert all(map(paths.depends_on_point_size, draw_params))
    point_draws = [c for c in tess + draw_params if any(d.mode == "POINTS" for d in c.draws())]
    assert point_draws and all(c.readback.captures for c in point_draws)
    assert not any(map(paths.rasterizes_points, tess + draw_params + varyings))


def test_rasterizes_points_sees_each_way_points_are_made():
    from dataclasses import replace
    from harness.model.case import DrawState
    case = {c.id: c for c in generated("draw_params")}[ATTRIBUTES_CASE]
    assert case.draws()[0].mode == "POINTS" and not paths.rasterizes_points(case)      # captured
    shown = replace(case, readback=replace(case.readback, captures=()))
    assert paths.rasterizes_points(shown)
    [step] = [s for s in shown.steps if s is shown.draws()[0]]
    triangles = replace(shown, steps=tuple(replace(s, mode="TRIANGLES") if s is step else s for s in shown.steps))
    assert not paths.rasterizes_points(triangles)
    as_points = replace(shown, steps=tuple(replace(s, mode="TRIANGLES", state=DrawState(polygon_mode="POINT"))
                                           if s is step else s for s in shown.steps))
    assert paths.rasterizes_points(as_points)
    gs = "layout(triangles) in;\nlayout(points, max_vertices = 3) out;\nvoid main() {}\n"
    assert paths.rasterizes_points(replace(triangles, shaders=tuple(case.shaders) + (("gs", gs),)))
    tes = "layout(triangles, point_mode) in;\nvoid main() {}\n"
    assert paths.rasterizes_points(replace(triangles, shaders=tuple(case.shaders) + (("tes", tes),)))
    assert not paths.rasterizes_points(replace(triangles, shaders=tuple(case.shaders)
                                               + (("tes", tes.replace(", point_mode", "")),)))


# The point-size path in what the driver is given: the translated stages compiled to SPIR-V
# (glslang, as the runner compiles them) and the stores counted through a PointSize builtin.
POINT_SIZE_CASES = {
    "vs": ATTRIBUTES_CASE,                                              # GL_POINTS, the VS last
    "tes": "tess/no-tcs/triangles/equal/points/pv4/o2_3_4-i6",          # point_mode TES, the injected TCS
    "gs": "tess/tcs/triangles/equal/gs/arrays/points",                  # a GS emitting points
    "tcs": "tess/no-tcs/triangles/equal/types/gl_in/pointsize/pv1",     # the VS writes it, the injected TCS passes it
}
WRITES_ITSELF = "varyings/vs-fs/glsl450core/separable/builtins-pointsize/users-3xvec4-loc0+3+8-12c"


def _point_size_stores(stage: str, source: str) -> int:
    """OpStores through a PointSize builtin of an Output variable (gl_PointSize alone, or the
    PointSize member of gl_PerVertex, gl_out[] included) in the stage's SPIR-V."""
    import re
    import shutil
    from harness.backends.vk.spirv import compile_glsl
    if not shutil.which("spirv-dis"):
        pytest.skip("spirv-dis (Debian's spirv-tools) is not installed")
    dis = subprocess.run(["spirv-dis", "--raw-id", "-"], input=compile_glsl(stage, source), capture_output=True,
                         check=True).stdout.decode()
    members = dict(re.findall(r"OpMemberDecorate (%\d+) (\d+) BuiltIn PointSize", dis))
    direct = set(re.findall(r"OpDecorate (%\d+) BuiltIn PointSize", dis))
    pointee = dict(re.findall(r"(%\d+) = OpTypePointer Output (%\d+)", dis))
    element = dict(re.findall(r"(%\d+) = OpType(?:Runtime)?Array (%\d+)", dis))
    constants = dict(re.findall(r"(%\d+) = OpConstant %\d+ (\d+)", dis))
    outputs = {}
    for var, ptr in re.findall(r"(%\d+) = OpVariable (%\d+) Output", dis):
        type_ = pointee[ptr]
        outputs[var] = element.get(type_, type_)
    targets = set(direct & set(outputs))
    for result, base, indices in re.findall(r"(%\d+) = OpAccessChain %\d+ (%\d+)((?: %\d+)+)", dis):
        if base in outputs and outputs[base] in members and \
                constants.get(indices.split()[-1]) == members[outputs[base]]:
            targets.add(result)
    return sum(1 for target in re.findall(r"OpStore (%\d+) ", dis) if target in targets)


def _translated(case_id: str, written: bool) -> dict[str, str]:
    from harness.backends.vk.tcs import passthrough_tcs
    from harness.backends.vk.translate import Program, translate
    from harness.sources import catalog
    case = catalog.find(case_id)
    stages = translate(Program(dict(case.shaders), frozenset(),
                               captures=tuple((c.varying, c.type) for c in case.readback.captures),
                               attributes={a.name: a.location for a in case.attributes if a.name},
                               separable=case.separable, point_size_written=written))
    if "tes" in stages and "tcs" not in stages:
        stages["tcs"] = passthrough_tcs(stages["vs"], 4)
    return stages


@pytest.mark.parametrize("last", sorted(POINT_SIZE_CASES))
def test_the_default_point_size_path_gives_the_driver_no_point_size_store(last):
    """`written`: the last pre-rasterization stage stores PointSize (the VS, a point_mode TES, a
    GS before each EmitVertex); `default`: no stage does, so maintenance5's default applies. The
    other stages are the same text in both paths: the injected TCS passes gl_PointSize on only
    where the VS writes it itself, and does so in both."""
    case_id = POINT_SIZE_CASES[last]
    written, default = _translated(case_id, True), _translated(case_id, False)
    assert written.keys() == default.keys()
    final = [s for s in ("gs", "tes", "vs") if s in written][0]
    assert final == (last if last != "tcs" else "tes")
    assert _point_size_stores(final, written[final]) >= 1, written[final]
    assert _point_size_stores(final, default[final]) == 0, default[final]
    for stage in written.keys() - {final, "fs"}:
        assert written[stage] == default[stage], stage
        assert _point_size_stores(stage, default[stage]) == (1 if (last, stage) in {("tcs", "tcs"), ("tcs", "vs")}
                                                             else 0), (stage, default[stage])


def test_a_shader_writing_gl_point_size_itself_is_the_same_in_both_point_size_paths():
    written, default = _translated(WRITES_ITSELF, True), _translated(WRITES_ITSELF, False)
    assert written == default and _point_size_stores("vs", default["vs"]) == 1


def test_a_gl_per_vertex_redeclared_without_gl_point_size_gets_it_in_the_written_path():
    """Mesa's linker adds a PointSize output of its own whatever the redeclaration
    (gl_nir_add_point_size), so zink without maintenance5 writes it; the layer adds the member.
    (Before, such a point_mode TES wrote none: VUID-...-TessellationEvaluation-07723 under the
    validation layer on three separable tess cases.) A redeclaration with gl_PointSize that the
    code does not write gets the store too: the declaration is no write."""
    from harness.backends.vk.translate import Program, translate
    vs = ("#version 450\nout gl_PerVertex { vec4 gl_Position; };\nlayout(location = 0) in vec4 p;\n"
          "void main() { gl_Position = p; }\n")
    declared = vs.replace("vec4 gl_Position; }", "vec4 gl_Position; float gl_PointSize; }")
    for source in (vs, declared):
        stores = {w: _point_size_stores("vs", translate(Program({"vs": source}, frozenset(), attributes={"p": 0},
                                                                point_size_written=w))["vs"]) for w in (True, False)}
        assert stores == {True: 1, False: 0}, source
    separable = "tess/no-tcs/triangles/fractional_odd/points/separable/pv3/o2.5_1.25_3.75-i3.5"
    assert "out gl_PerVertex { vec4 gl_Position; };" in dict(catalog_find(separable).shaders)["tes"]
    assert [_point_size_stores("tes", _translated(separable, w)["tes"]) for w in (True, False)] == [1, 0]
    from harness.backends.vk import paths
    assert paths.depends_on_point_size(catalog_find(separable))


def catalog_find(case_id: str):
    from harness.sources import catalog
    return catalog.find(case_id)


# lavapipe with VK_KHR_maintenance5 (Mesa 26.2.6 as bin/fetch-mesa fetches it): the pinned 22.3.6
# lacks it, so the default point-size path can only be taken there.
MAINTENANCE5_MESA = ROOT / "mesa" / "26.2.6-1"


@pytest.mark.parametrize("path", ["default", "written"])
def test_the_point_size_path_option_reaches_the_backend(path, tmp_path):
    """`--vk-point-size` on pytest's command line, through the scheduler's processes (--jobs 2)
    to each executor child: a GL_POINTS case (the VS last, no gl_PointSize of its own) passes and
    its record's platform names the path taken. On 26.2.6, which offers maintenance5: both paths."""
    if not (MAINTENANCE5_MESA / ".fetched").exists():
        pytest.skip(f"{MAINTENANCE5_MESA} not fetched (bin/fetch-mesa 26.2.6-1)")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/draw_params",
                           "-k", ATTRIBUTES_CASE, "--target", "lavapipe", f"--mesa={MAINTENANCE5_MESA}",
                           f"--vk-point-size={path}", "--jobs", "2", f"--results-dir={tmp_path}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    [record] = json.loads((tmp_path / "results.json").read_text())["results"]
    assert (record["id"], record["status"]) == (ATTRIBUTES_CASE, "pass"), record
    assert f"point-size path {path} (--vk-point-size {path})" in record["platform"], record["platform"]


def test_an_older_layers_unwritten_point_size_report_counts_only_without_maintenance5():
    """Debian 12's 1.3.239 layer reports VUID-07722 for a GL_POINTS VS without PointSize even where
    maintenance5 makes it 1.0 (blame's layer rows on 26.2.6 were named the harness layer's for it)."""
    from types import SimpleNamespace
    from harness.backends.vk.device import Device
    report = ("Validation Error: [ VUID-VkGraphicsPipelineCreateInfo-Vertex-07722 ] ... the last vertex "
              "processing stage does not write PointSize")
    with_m5 = SimpleNamespace(maintenance5=SimpleNamespace(maintenance5=1))
    assert Device._unwritten_point_size_allowed(with_m5, report)
    assert not Device._unwritten_point_size_allowed(SimpleNamespace(maintenance5=None), report)
    assert not Device._unwritten_point_size_allowed(with_m5, "VUID-VkGraphicsPipelineCreateInfo-Vertex-07722 other")


def test_the_default_point_size_path_passes_the_validation_layer_on_a_maintenance5_lavapipe(tmp_path):
    if not (MAINTENANCE5_MESA / ".fetched").exists():
        pytest.skip(f"{MAINTENANCE5_MESA} not fetched (bin/fetch-mesa 26.2.6-1)")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/draw_params",
                           "-k", ATTRIBUTES_CASE, "--target", "lavapipe", f"--mesa={MAINTENANCE5_MESA}",
                           "--vk-point-size=default", "--vk-validation", f"--results-dir={tmp_path}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def test_the_default_point_size_path_is_refused_on_a_lavapipe_without_maintenance5(tmp_path):
    """The pinned 22.3.6 lacks VK_KHR_maintenance5: `--vk-point-size default` stops the run on one
    line naming it, and `auto` takes `written` there."""
    from conftest import PINNED, pinned_args
    if not PINNED:
        pytest.skip("the pinned Mesa 22.3.6 is not fetched: the system's may offer maintenance5")
    base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/draw_params", "-k", ATTRIBUTES_CASE,
            "--target", "lavapipe", *pinned_args()]
    refused = subprocess.run(base + ["--vk-point-size=default", f"--results-dir={tmp_path / 'default'}"], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
    line = "--vk-point-size default: the Vulkan device lacks VK_KHR_maintenance5 (maintenance5), " \
           "without which a point's size must be written"
    assert line in refused.stdout + refused.stderr, refused.stdout[-3000:] + refused.stderr[-3000:]
    auto = subprocess.run(base + [f"--results-dir={tmp_path / 'auto'}"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert auto.returncode == 0, auto.stdout[-3000:] + auto.stderr[-3000:]
    [record] = json.loads((tmp_path / "auto" / "results.json").read_text())["results"]
    assert "point-size path written (auto: the device lacks VK_KHR_maintenance5 (maintenance5)" in record["platform"]


def test_the_lavapipe_split_target_writes_the_point_size():
    """lavapipe-split takes `written` (zink without maintenance5), so that on 26.2.6, where
    `lavapipe` takes `default`, CI runs both; its cases all leave gl_PointSize to the layer."""
    split = get("lavapipe-split")
    assert split.vk_paths.point_size == "written" and get("lavapipe").vk_paths.point_size is None
    collected = [c for name in ("draw_params", "tess") for c in generated(name) if paths.depends_on_path(c)]
    assert collected and all(map(paths.depends_on_point_size, collected))
    from harness.base.config import RunSettings
    run = RunSettings(vk_paths=VkPaths(point_size=VkPointSize.DEFAULT))
    assert run.child_options(split).vk_paths.point_size == "written"
    assert run.child_options(get("lavapipe")).vk_paths.point_size == "default"


def test_every_path_option_names_a_field_of_the_paths_value():
    """The path options of the table (harness/base/options.py) are the seven fields of VkPaths, in
    order, each with its enum's choices; the resolver makes the run's value of them, a target's
    own choice comes first field by field, and the child's options carry it through JSON."""
    from harness.base import config, options
    from harness.executor.settings import resolve
    tables = [options.OPTIONS[name] for name in options.VK_PATHS]
    kinds = (VkPath, config.VkPatchPath, VkVertexInput, VkPointSize, config.VkListRestart, config.VkRestartIndex,
             config.VkIndexUint8)
    assert [tuple(kind) for kind in kinds] == [o.choices for o in tables]
    assert [f.name for f in dataclasses.fields(VkPaths)] == ["multi_draw", "patch_size", "vertex_input", "point_size",
                                                             "list_restart", "restart_index", "index_uint8"]
    assert (paths.CHOICES, paths.PATCH_CHOICES) == (tuple(VkPath), tuple(config.VkPatchPath))
    chosen = resolve({"vk_path": "native", "vk_point_size": "default"}, mesa=None)
    assert chosen.vk_paths == VkPaths(VkPath.NATIVE, config.VkPatchPath.AUTO, VkVertexInput.AUTO, VkPointSize.DEFAULT)
    child = chosen.child_options(get("lavapipe-split"))
    assert child.vk_paths == get("lavapipe-split").vk_paths
    assert config.ChildOptions.from_arg(child.to_arg()) == child
    lavapipe = chosen.child_options(get("lavapipe"))
    assert config.ChildOptions.from_arg(lavapipe.to_arg()).vk_paths == chosen.vk_paths


@pytest.mark.parametrize("stages, mode, primitive, provokes", [
    ({}, "POINTS", "points", False),
    ({}, "LINES", "lines", True),
    ({}, "LINE_STRIP_ADJACENCY", "lines", True),
    ({}, "TRIANGLE_FAN", "triangles", True),
    ({"tes": "layout(triangles) in;"}, "PATCHES", "triangles", False),              # a TES's primitives
    ({"tes": "layout(isolines) in;"}, "PATCHES", "lines", False),
    ({"tes": "layout(triangles, point_mode) in;"}, "PATCHES", "points", False),
    ({"gs": "layout(points) in;\nlayout(triangle_strip, max_vertices = 4) out;"}, "POINTS", "triangles", True),
    ({"gs": "layout(triangles) in;\nlayout(points, max_vertices = 3) out;"}, "TRIANGLES", "points", False),
    ({"tes": "layout(triangles) in;", "gs": "layout(triangles) in;\nlayout(line_strip, max_vertices = 4) out;"},
     "PATCHES", "lines", True),
])
def test_which_draws_have_a_provoking_vertex(stages, mode, primitive, provokes):
    """The primitive the last pre-rasterization stage emits, and whether GL's provoking-vertex
    convention picks one of its vertices (the layer skips a last-vertex draw that has one on a
    device without VK_EXT_provoking_vertex)."""
    stages = {"vs": "void main() {}", **stages}
    assert paths.primitive_of(stages, mode) == primitive
    assert paths.provokes(stages, mode) is provokes
