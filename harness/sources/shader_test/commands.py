"""The [test] section as a command table: each shader_runner command the importer knows is a
pattern and a handler that plays it forward on the Builder. The first entry whose pattern
matches a line handles it (the order matters where patterns overlap, as `probe` does); a line no
entry matches, or one its handler cannot read, makes the case `skip`."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Callable

from harness.model.case import Clear, Texture, Uniform
from harness.model.glfacts import STAGES
from harness.sources.shader_test.draws import compute, display_list, draw_arrays, draw_rect, is_patch_parameter
from harness.sources.shader_test.draws import patch_parameter as read_patch_parameter
from harness.sources.shader_test.probes import (atomic_counters, is_probe, probe, probe_counter, probe_storage,
                                               program_query)
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.state import Line
from harness.sources.shader_test.values import NUMBER, integer, number, numbers

STAGE_BY_SHADER_TYPE = {stage.shader_type: stage.key for stage in STAGES}      # `active shader program`
UNIFORM_TYPE = re.compile(r"^(?:float|int|uint|bool|double|[iubd]?vec[234]|d?mat[234](?:x[234])?)$")
CAPABILITIES = re.compile(r"^(CLIP_PLANE\d|CLIP_DISTANCE\d|VERTEX_PROGRAM_TWO_SIDE|PROGRAM_POINT_SIZE|"
                          r"VERTEX_PROGRAM_POINT_SIZE|CULL_FACE)$")
LIST_COMMANDS = ("newlist", "endlist", "calllist", "deletelist")

Matches = Callable[[Line], bool]
Handler = Callable[[Builder, Line], None]


@dataclass(frozen=True)
class Command:
    matches: Matches
    handle: Handler


def prefix(*texts: str) -> Matches:
    return lambda line: line.text.startswith(texts)


def regex(pattern: str) -> Matches:
    compiled = re.compile(pattern)
    return lambda line: compiled.match(line.text) is not None


def exact(*texts: str) -> Matches:
    return lambda line: line.text in texts


def first_word(*names: str) -> Matches:
    return lambda line: line.words[0] in names


def run(b: Builder, number_: int, text: str) -> None:
    """Play one [test] line forward; inside a display list every line belongs to the list."""
    line = Line(number_, text, text.split())
    try:
        if b.display_list.mode:
            display_list(b, line)
            return
        for command in COMMANDS:
            if command.matches(line):
                command.handle(b, line)
                return
        raise Unsupported(f"command {text!r} (line {number_})")
    except (IndexError, ValueError) as exc:
        raise Unsupported(f"command {text!r} (line {number_}): cannot read it ({exc})") from None


# -- the script's state -------------------------------------------------------------------------

def active_shader_program(b: Builder, line: Line) -> None:
    """glActiveShaderProgram(pipeline, that stage's program): later `uniform` commands set
    that program's uniforms (shader_runner's pipeline exists with SSO ENABLED only)."""
    words = line.words
    stage = STAGE_BY_SHADER_TYPE.get(words[3]) if len(words) == 4 else None
    if not b.context.separable or stage is None or stage not in {s for s, _ in b.shaders}:
        raise Unsupported(f"{line.where}: SSO ENABLED files and a stage they have only")
    b.state.active_stage = stage


def clear_color(b: Builder, line: Line) -> None:
    r, g, bl, a = numbers(line.words[2:], 4)
    b.state.clear_color = (r, g, bl, a)


def clear(b: Builder, line: Line) -> None:
    b.steps.append(Clear(b.state.clear_color, f"clear (line {line.number})"))


def patch_parameter(b: Builder, line: Line) -> None:
    found = read_patch_parameter(line)
    if found is not None:
        setattr(b.state, *found)


def storage_buffer(b: Builder, line: Line) -> None:
    """`ssbo N SIZE`: made and bound before the next step."""
    b.state.pending_storage.append((int(line.words[1]), int(line.words[2])))


def tolerance(b: Builder, line: Line) -> None:
    b.state.tolerance = numbers(line.words[1:], 4)


def uniform(b: Builder, line: Line) -> None:
    """`uniform TYPE NAME VALUES...`, set before the next step (on the active stage's program with SSO)."""
    type_, name, values = line.words[1], line.words[2], line.words[3:]
    where = f"command 'uniform {type_} {name}' (line {line.number})"
    if not UNIFORM_TYPE.match(type_):
        raise Unsupported(f"{where}: uniform type {type_}")
    m = re.match(r"^d?mat(\d)(?:x(\d))?$", type_)
    count = (int(m[1]) * int(m[2] or m[1])) if m else int(type_[-1]) if type_[-1].isdigit() else 1
    is_integer = type_.startswith(("int", "uint", "bool", "ivec", "uvec", "bvec"))
    parsed = tuple(integer(v) if is_integer else number(v) for v in values[:count])
    if len(parsed) != count:
        raise Unsupported(f"{where}: {len(parsed)} values, {type_} has {count}")
    stage = b.state.active_stage
    if b.context.separable and not (stage and name[:1].isdigit()):
        # shader_runner looks a name up in the current program, and SSO files have none
        raise Unsupported(f"{where}: with SSO ENABLED, uniforms by location number after `active shader program` only")
    b.state.uniforms = [u for u in b.state.uniforms if (u.name, u.stage) != (name, stage)] + \
        [Uniform(name, type_, parsed, stage=stage)]


def ortho(b: Builder, line: Line) -> None:
    """`ortho [L R B T]`: glOrtho(L, R, B, T, -1, 1) as the projection (0, w, 0, h by default)."""
    if b.context.profile == "core":
        raise Unsupported(f"command 'ortho' (line {line.number}) in a core profile context (no matrix stack)")
    args = line.words[1:]
    width, height = b.context.size
    left, right, bottom, top = (0.0, float(width), 0.0, float(height)) if not args else numbers(args, 4)
    b.state.projection = (2 / (right - left), 0.0, 0.0, 0.0, 0.0, 2 / (top - bottom), 0.0, 0.0,
                          0.0, 0.0, -1.0, 0.0,
                          -(right + left) / (right - left), -(top + bottom) / (top - bottom), 0.0, 1.0)


def enable(b: Builder, line: Line) -> None:
    words = line.words
    cap = words[1].removeprefix("GL_")
    if not CAPABILITIES.match(cap):
        raise Unsupported(f"command {' '.join(words)!r} (line {line.number}): capability {words[1]}")
    if words[0] == "enable" and cap not in b.state.enabled:
        b.state.enabled.append(cap)
    elif words[0] == "disable" and cap in b.state.enabled:
        b.state.enabled.remove(cap)


def clip_plane(b: Builder, line: Line) -> None:
    b.state.planes[int(line.words[2])] = numbers(line.words[3:], 4)


def polygon_mode(b: Builder, line: Line) -> None:
    """`polygon mode FACE MODE`: the front's mode is polygon_mode; the back's, where it differs,
    polygon_mode_back (GL_FRONT and GL_BACK apart are the compatibility profile's)."""
    words = line.words
    if len(words) != 4 or words[2] not in ("GL_FRONT_AND_BACK", "GL_FRONT", "GL_BACK") \
            or words[3] not in ("GL_LINE", "GL_POINT", "GL_FILL"):
        raise Unsupported(f"{line.where}: polygon mode FACE GL_LINE|GL_POINT|GL_FILL only")
    mode, state = words[3][3:], b.state
    front = state.polygon_mode or "FILL"
    back = state.polygon_mode_back or front
    if words[2] != "GL_BACK":
        front = mode
    if words[2] != "GL_FRONT":
        back = mode
    state.polygon_mode = "" if front == "FILL" else front
    state.polygon_mode_back = "" if back == front else back


# `texture rgbw UNIT (W, H) FORMAT`: the internal formats whose texels are the rgbw pattern's 0s and
# 1s exactly, as the image a `fb tex 2d` of it is read as (shader_runner's default: GL_RGBA)
RGBW_FORMATS = {"GL_RGBA": "RGBA8", "GL_RGBA8": "RGBA8", "GL_RGBA32F": "RGBA32F"}


def texture(b: Builder, line: Line) -> None:
    """shader_runner's `texture rgbw UNIT (W, H) [FORMAT]`, `texture rgbw 1D UNIT`, `texture rgbw
    3D UNIT` and `texture checkerboard UNIT LEVEL (W, H) (colour) (colour)` on a unit; it becomes
    the unit texparameter acts on."""
    text = line.text
    values = [number(n) for n in re.findall(NUMBER, text)]
    fixed_size = re.match(r"^texture rgbw\s+([13])D\s+(\d+)$", text)
    rgbw_2d = re.match(r"^texture rgbw\s+(\d+)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)(?:\s+(GL_\w+))?$", text)
    if fixed_size:                        # piglit_rgbw_texture_1d / _3d: 4 texels, 2x2x2 texels
        unit = int(fixed_size[2])
        made = Texture(unit, "rgbw", 4, 1, target="1D") if fixed_size[1] == "1" else \
            Texture(unit, "rgbw", 2, 2, target="3D", depth=2)
    elif rgbw_2d:
        if rgbw_2d[4] and rgbw_2d[4] not in RGBW_FORMATS:
            raise Unsupported(f"{line.where}: rgbw texture formats {', '.join(RGBW_FORMATS)} only")
        unit, width, height = (int(n) for n in rgbw_2d.groups()[:3])
        made = Texture(unit, "rgbw", width, height)
        b.formats[unit] = RGBW_FORMATS[rgbw_2d[4] or "GL_RGBA"]
    elif re.match(r"^texture checkerboard\s+\d+\s+\d+\s*\(", text) and len(values) == 12:
        unit, level, width, height = (int(n) for n in values[:4])
        made = Texture(unit, "checkerboard", width, height, level=level, colors=tuple(values[4:]))
    else:
        raise Unsupported(f"{line.where}: 1D, 2D and 3D rgbw and 2D checkerboard textures only")
    b.state.textures[unit] = made
    b.state.active_unit = unit


def framebuffer(b: Builder, line: Line) -> None:
    """`fb tex 2d UNIT`: shader_runner draws into the 2D texture on UNIT from then on, its viewport
    the texture's size, and probes read it; the case's image is that texture, RGBA32F where its
    format is a float one (harness export writes image cases so, to probe values above 1). Its
    rgbw texels are never read here: the fb comes before any step, and a `clear` first (finish)."""
    unit = int(line.words[3])
    made = b.state.textures.get(unit)
    if b.steps or made is None or made.kind != "rgbw" or made.target != "2D" or unit not in b.formats:
        raise Unsupported(f"{line.where}: fb tex 2d of a 2D rgbw texture, before any draw, clear or probe, only")
    del b.state.textures[unit]            # the render target, not a texture the draws sample
    b.context.size = (made.width, made.height)
    b.framebuffer = b.formats[unit]


def is_texparameter(line: Line) -> bool:
    """`texparameter 2D min|mag nearest|linear`: the handler needs a texture to act on."""
    words = line.words
    return words[0] == "texparameter" and words[1] == "2D" and words[2] in ("min", "mag") and \
        words[3] in ("nearest", "linear")


def texparameter(b: Builder, line: Line) -> None:
    if not b.state.textures:
        raise Unsupported(line.where)
    unit, words = b.state.active_unit, line.words
    made, filter_ = b.state.textures[unit], words[3].upper()
    b.state.textures[unit] = dataclasses.replace(made, min_filter=filter_) if words[2] == "min" else \
        dataclasses.replace(made, mag_filter=filter_)


def provoking_vertex(b: Builder, line: Line) -> None:
    b.state.provoking_vertex = "FIRST" if line.words[2] == "first" else ""


def front_face(b: Builder, line: Line) -> None:
    b.state.front_face = "CW" if line.words[1] == "GL_CW" else ""


def link(b: Builder, line: Line) -> None:
    b.link = line.words[1]


# The table, in the order shader_runner's commands are tried.
COMMANDS = (
    Command(first_word(*LIST_COMMANDS), display_list),
    Command(prefix("active shader program"), active_shader_program),
    Command(prefix("clear color"), clear_color),
    Command(exact("clear"), clear),
    Command(is_patch_parameter, patch_parameter),
    Command(prefix("draw arrays"), draw_arrays),
    Command(regex(r"^draw (instanced )?rect\b"), draw_rect),
    Command(prefix("atomic counters "), atomic_counters),
    Command(prefix("probe atomic counter "), probe_counter),
    Command(prefix("probe ssbo "), probe_storage),
    Command(regex(r"^ssbo \d+ \d+$"), storage_buffer),
    Command(regex(r"^compute \d+ \d+ \d+$"), compute),
    Command(prefix("active uniform ", "verify program_interface_query "), program_query),
    Command(is_probe, probe),
    Command(lambda line: line.words[0] == "tolerance" and len(line.words) == 5, tolerance),
    Command(first_word("uniform"), uniform),
    Command(first_word("ortho"), ortho),
    Command(first_word("enable", "disable"), enable),
    Command(prefix("clip plane"), clip_plane),
    Command(prefix("polygon mode"), polygon_mode),
    Command(prefix("texture "), texture),
    Command(regex(r"^fb tex 2d \d+$"), framebuffer),
    Command(is_texparameter, texparameter),
    Command(exact("provoking vertex first", "provoking vertex last"), provoking_vertex),
    Command(lambda line: line.words[0] == "frontface" and line.words[1:] in (["GL_CW"], ["GL_CCW"]), front_face),
    Command(exact("link success", "link error"), link),
)
