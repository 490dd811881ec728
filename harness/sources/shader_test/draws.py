"""The [test] commands that draw: `draw arrays`, `draw rect` (a triangle strip (x, y) (x+w, y)
(x, y+h) (x+w, y+h) through attribute 0, `piglit_vertex`, which aliases `gl_Vertex` in
compatibility contexts; `tex` puts its coordinates through attribute 1, `piglit_texcoord`, or, in
a compatibility context whose program has no `piglit_vertex`, through the texture coordinate
array of gl_MultiTexCoord0), `compute`, and display lists around a draw."""
from __future__ import annotations

import dataclasses
from typing import Any

from harness.model.case import CallList, DeleteList, Dispatch, Draw, DrawEntry, NewList
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.state import TEXCOORD_ARRAY, Line
from harness.sources.shader_test.values import numbers

MODES = ("POINTS", "LINES", "LINE_STRIP", "LINE_LOOP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN",
         "LINES_ADJACENCY", "LINE_STRIP_ADJACENCY", "TRIANGLES_ADJACENCY", "TRIANGLE_STRIP_ADJACENCY",
         "PATCHES", "QUADS", "QUAD_STRIP", "POLYGON")


def patch_parameter(line: Line) -> tuple[str, Any] | None:
    """A `patch parameter ...` command as the DrawState field it sets and the value; None: not one."""
    text, words = line.text, line.words
    if text.startswith("patch parameter vertices"):
        return "patch_vertices", int(words[3])
    if text.startswith("patch parameter default level outer"):
        return "default_outer", numbers(words[5:], 4)
    if text.startswith("patch parameter default level inner"):
        return "default_inner", numbers(words[5:], 2)
    return None


def is_patch_parameter(line: Line) -> bool:
    return line.text.startswith(("patch parameter vertices", "patch parameter default level outer",
                                 "patch parameter default level inner"))


def draw_arrays(b: Builder, line: Line) -> None:
    """`draw arrays [instanced] MODE FIRST COUNT [INSTANCES]`."""
    words = line.words[2:]
    instanced = words[:1] == ["instanced"]
    if instanced:
        words = words[1:]
    mode = words[0].removeprefix("GL_")
    if mode not in MODES:
        raise Unsupported(f"{line.where}: primitive mode {words[0]}")
    first, count = int(words[1]), int(words[2])
    instances = int(words[3]) if instanced else 1
    if b.vertices.columns and first + count > b.vertices.rows:
        raise Unsupported(f"{line.where}: draws vertices the [vertex data] does not have")
    command = "DrawArraysInstanced" if instanced else "DrawArrays"
    b.draw(command, mode, (DrawEntry(count, instances, first),), line.label)


def draw_rect(b: Builder, line: Line) -> None:
    """`draw [instanced] rect [ortho] [patch] [tex] [INSTANCES] X Y W H [TX TY TW TH]`."""
    instanced = line.words[1] == "instanced"
    words = line.words[3:] if instanced else line.words[2:]
    flags = set()
    while words and words[0] in ("ortho", "patch", "tex"):
        flags.add(words.pop(0))
    instances = int(words.pop(0)) if instanced else 1
    x, y, w, h = numbers(words[:4], 4)
    if "tex" in flags:
        if len(words) != 8:
            raise Unsupported(f"{line.where}: expected 8 numbers")
        _rect_texcoords(b, line, words[4:])
    elif len(words) != 4:
        raise Unsupported(f"{line.where}: expected 4 numbers")
    if "ortho" in flags:
        width, height = b.context.size
        x, y, w, h = x * 2 / width - 1, y * 2 / height - 1, w * 2 / width, h * 2 / height
    first = b.vertices.rows
    b.vertices.append_rect("piglit_vertex", 0, 4, [x, y, 0, 1, x + w, y, 0, 1, x, y + h, 0, 1, x + w, y + h, 0, 1])
    b.vertices.rows += 4
    command = "DrawArraysInstanced" if instanced else "DrawArrays"
    mode = "PATCHES" if "patch" in flags else "TRIANGLE_STRIP"
    if "patch" in flags:
        b.state.patch_vertices = 4                # one patch of the four corners (and it stays 4)
    b.draw(command, mode, (DrawEntry(4, instances, first),), line.label)


def _rect_texcoords(b: Builder, line: Line, rect: list[str]) -> None:
    # piglit_draw_rect_from_arrays: a compatibility context whose program has no
    # `piglit_vertex` attribute gets the coordinates through glTexCoordPointer
    fixed = b.context.profile == "compat" and not b.vs_reads("piglit_vertex")
    if b.vs_reads("gl_MultiTexCoord0") and not fixed:
        raise Unsupported(f"{line.where}: texture coordinates through gl_MultiTexCoord0 (fixed-function arrays)")
    tx, ty, tw, th = numbers(rect, 4)
    b.vertices.append_rect(TEXCOORD_ARRAY if fixed else "piglit_texcoord", -1 if fixed else 1, 2,
                           [tx, ty, tx + tw, ty, tx, ty + th, tx + tw, ty + th])


def compute(b: Builder, line: Line) -> None:
    """`compute X Y Z`: glDispatchCompute between memory barriers."""
    b.check_rebound(line.label)
    x, y, z = (int(w) for w in line.words[1:])
    b.steps.append(Dispatch((x, y, z), b.take_state(), line.label))


def display_list(b: Builder, line: Line) -> None:
    """shader_runner's display list commands on one list name: `newlist MODE` makes a list
    (glGenLists) and opens it, `endlist` closes it, `calllist` and `deletelist` act on the
    last one made. Inside a list: patch parameters, then one `draw arrays`; the list holds
    just those, so a GL_COMPILE list changes no state until it is called."""
    words, dl = line.words, b.display_list
    if b.context.profile != "compat":
        raise Unsupported(f"{line.where}: display lists need a compatibility profile context")
    if words[0] == "newlist" and not dl.mode and words[1:] in (["GL_COMPILE"], ["GL_COMPILE_AND_EXECUTE"]):
        dl.mode, dl.patch, dl.first_step = words[1][3:], {}, len(b.steps)
    elif dl.mode and (patch := patch_parameter(line)) is not None and len(b.steps) == dl.first_step:
        dl.patch[patch[0]] = patch[1]
    elif dl.mode and line.text.startswith("draw arrays") and len(b.steps) == dl.first_step:
        draw_arrays(b, line)
        draw = b.steps[-1]
        assert isinstance(draw, Draw)
        compiled: dict[str, Any] = {"patch_vertices": None, "default_outer": None, "default_inner": None, **dl.patch}
        state = dataclasses.replace(draw.state, **compiled)
        b.steps[-1] = NewList(dl.mode, dataclasses.replace(draw, state=state))
    elif words == ["endlist"] and dl.mode and len(b.steps) == dl.first_step + 1:
        if dl.mode == "COMPILE_AND_EXECUTE":
            _run_list(b, dl.patch)
        dl.mode, dl.contents = "", dl.patch
    elif words in (["calllist"], ["deletelist"]) and not dl.mode and dl.contents is not None:
        call = words[0] == "calllist"
        b.steps.append(CallList(b.take_state(), line.label) if call else DeleteList(line.label))
        if call:
            _run_list(b, dl.contents)
        else:
            dl.contents = None
    else:
        raise Unsupported(f"{line.where}: display lists holding patch parameters and then one `draw arrays` only, "
                          f"one list at a time")


def _run_list(b: Builder, patch: dict[str, Any]) -> None:
    """The script's state after the list's commands ran."""
    for name, value in patch.items():
        setattr(b.state, name, value)
