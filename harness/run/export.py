"""Standalone reproducers of a case: plain GLSL + the case JSON, a piglit shader_runner file,
or a VkRunner script with the Vulkan layer's translated shaders.

The shader_test and VkRunner files reproduce the program, the vertex data, and the draws with
the state each sets. A case read back as an image is probed the same way in the shader_test (an
RGBA32F target, cleared before each draw, every expected texel probed after it), so
shader_runner reaches the harness's verdict; transform-feedback records shader_runner cannot
probe, so for those cases the expected values are written beside the draws as comments.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from harness.run import export_c
from harness.model.case import (CallList, Case, Clear, DeleteList, Dispatch, Draw, DrawState, Link, NewList, Read,
                          step_label, step_state)
from harness.model import ids
from harness.model.glfacts import STAGE, STAGE_KEYS
FORMATS = ("glsl", "shader_test", "vkrunner", "c")
TOLERANCE = 1e-4


def file_stem(case_id: str, target: str = "") -> str:
    """A case id, on `target` where given, as a file name: ids.file_name's (an id too long for one
    keeps its head and a digest of the whole: the reproducer's case JSON still holds the id)."""
    return ids.file_name(case_id) + (f"[{target}]" if target else "")


def export(case: Case, fmt: str, out_dir: Path, without: frozenset[str] = frozenset()) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = file_stem(case.id)
    if fmt == "glsl":
        written = [out_dir / f"{stem}.json"]
        written[0].write_text(case.to_json() + "\n")
        for stage, source in case.shaders:
            path = out_dir / f"{stem}.{STAGE[stage].glslang}"
            path.write_text(source)
            written.append(path)
        return written
    if fmt == "shader_test":
        path = out_dir / f"{stem}.shader_test"
        path.write_text(shader_test(case))
        return [path]
    if fmt == "vkrunner":
        path = out_dir / f"{stem}.vk_shader_test"
        path.write_text(vkrunner(case, without))
        return [path]
    if fmt == "c":
        path = out_dir / f"{stem}.c"
        path.write_text(export_c.program(case))
        return [path]
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def _require(case: Case) -> list[str]:
    req = case.requires
    profile = "CORE" if req.profile == "core" else "COMPAT"
    versions = [int(m[1]) for _, src in case.shaders for m in [re.search(r"#version\s+(\d+)", src)] if m]
    lines = ["[require]", f"GL {profile} >= {req.gl_version[0]}.{req.gl_version[1]}"]
    if case.readback.image:
        lines.append(f"SIZE {case.readback.image[0]} {case.readback.image[1]}")
    if versions:
        lines.append(f"GLSL >= {max(versions) // 100}.{max(versions) % 100:02d}")
    lines += list(req.extensions)
    # shader_runner knows few limits by name: the case's are written down for the reader.
    lines += [f"# needs {name} {op} {value}" for name, op, value in req.limits]
    return lines


def _vertex_data(case: Case) -> list[str]:
    if not case.attributes:
        return []
    heads, columns = [], []
    for attr in case.attributes:
        if attr.divisor or attr.array:
            continue                           # no instanced vertex data section; `draw rect tex` makes the array
        name = attr.name or str(attr.location)            # shader_runner: a number is a location
        heads.append(f"{name}/float/vec{attr.components}" if attr.components > 1 else f"{name}/float/float")
        columns.append(np.asarray(attr.data, dtype=np.float64).reshape(-1, attr.components))
    if not heads:
        return []
    rows = ["  ".join(" ".join(f"{v:g}" for v in col[i]) for col in columns) for i in range(case.vertices)]
    return ["[vertex data]", "  ".join(heads)] + rows


def _step_lines(case: Case, probes: bool = False) -> list[str]:
    """The case's steps as shader_runner commands; with `probes`, the image is cleared before
    each draw and every expected texel probed after it."""
    lines: list[str] = []
    tolerance: list[tuple[float, float, float, float] | None] = [None]     # the probe tolerance last written
    for index, step in enumerate(case.steps):
        state = step_state(step)
        if not isinstance(step, NewList):
            lines += _patch_lines(state)
        lines += _uniform_lines(state)
        lines += [f"enable GL_{_piglit_cap(cap)}" for cap in state.enable]
        lines += [f"clip plane {i} " + _numbers(plane) for i, plane in enumerate(state.clip_planes)]
        lines += [f"ssbo {binding} {size}" for binding, size in state.storage_buffers]
        lines += _raster_lines(state)
        if isinstance(step, Draw):
            if probes:
                lines.append("clear")                           # the harness clears before each draw
            lines += _draw_call(step)
            if probes:
                lines += _probes(case, index)
        elif isinstance(step, NewList):
            lines += [f"newlist GL_{step.mode}"] + _patch_lines(state) + _draw_call(step.draw) + ["endlist"]
        elif isinstance(step, Clear):
            lines += [f"clear color {_numbers(step.color)}", "clear"]
        elif isinstance(step, Dispatch):
            lines.append("compute " + " ".join(str(n) for n in step.work_groups))
        elif isinstance(step, (CallList, DeleteList)):
            lines.append("calllist" if isinstance(step, CallList) else "deletelist")
        elif isinstance(step, (Read, Link)):
            lines += _checks(case, index, tolerance)
        lines += [f"disable GL_{_piglit_cap(cap)}" for cap in state.enable]
    return lines


def _numbers(values: Iterable[float]) -> str:
    """Shortest exact decimals (0.01171875, not 0.0117188): the file reproduces the case's values."""
    return " ".join(f"{v:g}" if float(f"{v:g}") == v else repr(float(v)) for v in values)


def _patch_lines(state: DrawState) -> list[str]:
    lines = []
    if state.patch_vertices is not None:
        lines.append(f"patch parameter vertices {state.patch_vertices}")
    if state.default_outer is not None:
        lines.append("patch parameter default level outer " + _numbers(state.default_outer))
    if state.default_inner is not None:
        lines.append("patch parameter default level inner " + _numbers(state.default_inner))
    return lines


def _raster_lines(state: DrawState) -> list[str]:
    """shader_runner's `provoking vertex` and `polygon mode` commands for the step's state."""
    lines = ["provoking vertex first"] if state.provoking_vertex == "FIRST" else []
    if state.polygon_mode_back:
        lines += [f"polygon mode GL_FRONT GL_{state.polygon_mode or 'FILL'}",
                  f"polygon mode GL_BACK GL_{state.polygon_mode_back}"]
    elif state.polygon_mode:
        lines.append(f"polygon mode GL_FRONT_AND_BACK GL_{state.polygon_mode}")
    return lines


def _uniform_lines(state: DrawState) -> list[str]:
    """shader_runner's `uniform` commands (integers as integers, floats as shader_runner reads them)."""
    return [f"uniform {u.type} {u.name} " + " ".join(str(v) if isinstance(v, int) else repr(v) for v in u.values)
            for u in state.uniforms]


def _draw_call(draw: Draw) -> list[str]:
    lines = []
    for entry in draw.entries:
        if draw.command in ("DrawArrays", "DrawArraysInstanced"):
            if entry.instance_count > 1:        # shader_runner: mode, first, count, then instances
                lines.append(f"draw arrays instanced GL_{draw.mode} {entry.first} {entry.count} "
                             f"{entry.instance_count}")
            else:
                lines.append(f"draw arrays GL_{draw.mode} {entry.first} {entry.count}")
        else:          # a multi-draw split into single draws would change gl_DrawID
            lines.append(f"# gl{draw.command} GL_{draw.mode} {entry} (shader_runner has no command for it)")
    return lines


def _checks(case: Case, index: int, tolerance: list[tuple[float, float, float, float] | None]) -> list[str]:
    """The shader_runner commands of a Read or Link step's checks: each check's label is the
    line it was imported from ("probe rgba 1 1 0 1 0 1 (line 12)"); a `tolerance` line where
    the probe's differs from the one written last (tolerance[0])."""
    lines = []
    for exp in case.expect:
        if exp.step != index:
            continue
        for probe in exp.probes:
            if probe.tolerance != tolerance[0]:
                lines.append(f"tolerance {_numbers(probe.tolerance)}")
                tolerance[0] = probe.tolerance
            lines.append(_imported(probe.label))
        lines += [_imported(check.label) for check in exp.storage + exp.queries]
        for name, value in exp.counts:
            if name.startswith("atomic counter "):
                lines.append(f"probe {name} == {value}")
            elif name == "link_failed":
                lines.append("link error" if value else "link success")
    return lines


def _imported(label: str) -> str:
    return re.sub(r" \(line \d+\)$", "", label)


def _piglit_cap(cap: str) -> str:
    """shader_runner knows GL_CLIP_DISTANCEi by its older name (the same enum)."""
    return cap.replace("CLIP_DISTANCE", "CLIP_PLANE")


def _probes(case: Case, step: int) -> list[str]:
    """shader_runner probes for a draw's expected image texels (those with all four channels)."""
    image = case.readback.image
    assert image is not None                # probes are written only for a case read back as an image
    width = image[0]
    lines = []
    for exp in case.expect:
        if exp.step != step:
            continue
        texels: dict[int, dict[int, float]] = {}
        for pixel in exp.pixels:
            texels.setdefault(pixel.index // 4, {})[pixel.index % 4] = pixel.value
        for texel, channels in sorted(texels.items()):
            if len(channels) == 4:
                values = " ".join(f"{channels[c]!r}" for c in range(4))
                lines.append(f"probe rgba {texel % width} {texel // width} {values}")
    return lines


def _expected(case: Case) -> list[str]:
    """What the harness expects, as comments (shader_runner cannot probe these quantities)."""
    lines = []
    for exp in case.expect:
        label = step_label(case.steps, exp.step)
        lines += [f"# expected, {label}: {name} = {value}" for name, value in exp.counts]
        for group in exp.groups:
            lines += [f"# expected, {label}, {group.label}: {q} = {v}" for q, v in group.values]
        lines += [f"# expected, {label}, {r.label}: " + ", ".join(f"{q} = {v}" for q, v in r.values)
                  for r in exp.sequence]
        lines += [f"# expected, {label}: {p.quantity} = {p.value:g}" for p in exp.pixels]
    return lines


# What shader_runner draws and probes; anything else is written as a comment (see shader_test).
RUNNER_DRAWS = ("DrawArrays", "DrawArraysInstanced")
RUNNER_COUNTS = ("link_failed",)


def shader_test_unsupported(case: Case) -> str:
    """Why the case's shader_test would not be a test that can fail (a draw written as a
    comment, expected values shader_runner cannot probe), or ''."""
    if case.requires.unsupported or case.requires.link_failure_allowed:
        return "the case is skipped or may fail to link"
    draws = [s.draw if isinstance(s, NewList) else s for s in case.steps if isinstance(s, (Draw, NewList))]
    command = next((d.command for d in draws if d.command not in RUNNER_DRAWS), None)
    if command:
        return f"shader_runner has no command for gl{command}"
    if any(a.divisor for a in case.attributes):
        return "shader_runner has no instanced vertex data"
    image = case.readback.image and not case.readback.keep_image
    for e in case.expect:
        if e.groups or e.sequence or e.value_sets or e.tess_coord or e.primitives:
            return "shader_runner cannot probe transform-feedback records"
        if e.bounds:
            return "shader_runner cannot probe a count within bounds"
        count = next((n for n, _ in e.counts if n not in RUNNER_COUNTS and not n.startswith("atomic counter ")),
                     None)
        if count:
            return f"shader_runner cannot probe the count {count}"
        if e.pixels and not image:
            return "expected pixels outside a probed image"
        texels: dict[int, int] = {}
        for pixel in e.pixels:
            texels[pixel.index // 4] = texels.get(pixel.index // 4, 0) + 1
        if any(n != 4 for n in texels.values()):
            return "shader_runner probes whole texels, and a texel's expected channels are not all four"
    return ""


def shader_test(case: Case) -> str:
    """The case as a piglit .shader_test. Where shader_runner cannot check it
    (shader_test_unsupported), the file says so at its top and lists the expected values as
    comments at its end: it runs the case's shaders and draws, and passes whatever they give."""
    lines = [f"# {case.id}", f"# {case.description}", "# exported by gl-layer-harness"]
    unchecked = shader_test_unsupported(case)
    if unchecked:
        lines += [f"# NOT A TEST THAT CAN FAIL: {unchecked}. The harness's expected values are the comments",
                  "# at the end; `harness export --format piglit` writes a C test on piglit's framework that checks them."]
    lines += _require(case) + [""]
    for stage, source in case.shaders:
        lines += [f"[{STAGE[stage].piglit_section}]", source.rstrip(), ""]
    if case.attributes:
        lines += _vertex_data(case) + [""]
    lines.append("[test]")
    image = case.readback.image
    if case.readback.keep_image:       # shader_runner's own model: the steps say when to clear and probe
        if case.readback.atomic_counters:
            lines.append(f"atomic counters {case.readback.atomic_counters}")
        lines += _step_lines(case)
    elif image:                        # the same RGBA32F target as the harness, probed per draw
        c = f"{case.readback.clear:g}"
        lines += [f"texture rgbw 0 ({image[0]}, {image[1]}) GL_RGBA32F", "fb tex 2d 0",
                  f"tolerance {TOLERANCE} {TOLERANCE} {TOLERANCE} {TOLERANCE}", f"clear color {c} {c} {c} {c}"]
        lines += _step_lines(case, probes=True) + (_expected(case) if unchecked else [])
    else:
        lines += _step_lines(case) + _expected(case)
    return "\n".join(lines) + "\n"


def vkrunner(case: Case, without: frozenset[str] = frozenset()) -> str:
    """The Vulkan layer's translation of the program, as VkRunner sections."""
    from harness.backends.vk.tcs import passthrough_tcs
    from harness.backends.vk.translate import Program, translate
    program = Program(dict(case.shaders), frozenset(without),
                      captures=tuple((c.varying, c.type) for c in case.readback.captures),
                      attributes={a.name: a.location for a in case.attributes if a.name}, separable=case.separable)
    stages = translate(program)
    if "tes" in stages and "tcs" not in stages:
        draws = case.draws()
        stages["tcs"] = passthrough_tcs(stages["vs"], (draws[0].state.patch_vertices if draws else None) or 3,
                                        faithful="passthrough-tcs" not in without)
    lines = [f"# {case.id}: the harness's Vulkan translation"
             + (f" without {', '.join(sorted(without))}" if without else ""), "[require]", "fbsize 32 32", ""]
    for stage in STAGE_KEYS:
        if stage in stages:
            lines += [f"[{STAGE[stage].piglit_section}]", stages[stage].rstrip(), ""]
    lines += ["[test]", "# push constants of the layer block: outer[4] inner[2] indexed draw_id two_side clip_enabled"]
    lines += [re.sub(r"^draw arrays (instanced )?GL_(\w+)", lambda m: f"draw arrays {m[1] or ''}{m[2]}", line)
              for line in _step_lines(case)] + _expected(case)
    return "\n".join(lines) + "\n"
