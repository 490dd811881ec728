"""The [test] commands that check: colour probes of the image (tolerance defaults to 3/256 a
channel, and a channel passes when |observed - expected| <= tolerance), atomic counters
(`atomic counters N` binds N zeroed counters at GL_ATOMIC_COUNTER_BUFFER binding 0 and `probe
atomic counter I == V` reads counter I at its line), storage buffer values and program queries.
Each adds its check to the Read step at its line."""
from __future__ import annotations

import re
from typing import cast

from harness.model.case import Probe, ProgramQuery, QueryValue, StorageProbe
from harness.model.glfacts import GL_TYPE_ENUMS
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.state import Float4, Line
from harness.sources.shader_test.values import NUMBER, as_float32, integer, numbers

# What shader_runner's `active uniform` and `verify program_interface_query` accept, less the
# name lengths: it compares one value with the length both without the terminating null
# (glGetActiveUniform, glGetProgramResourceName) and with it (the queried property).
UNIFORM_PNAMES = {"GL_UNIFORM_" + n for n in ("TYPE SIZE BLOCK_INDEX OFFSET ARRAY_STRIDE MATRIX_STRIDE "
                                              "IS_ROW_MAJOR ATOMIC_COUNTER_BUFFER_INDEX").split()}
RESOURCE_PROPS = {"GL_" + n for n in (
    "TYPE ARRAY_SIZE BLOCK_INDEX OFFSET ARRAY_STRIDE MATRIX_STRIDE IS_ROW_MAJOR "
    "ATOMIC_COUNTER_BUFFER_INDEX BUFFER_BINDING BUFFER_DATA_SIZE NUM_ACTIVE_VARIABLES "
    "REFERENCED_BY_VERTEX_SHADER REFERENCED_BY_TESS_CONTROL_SHADER REFERENCED_BY_TESS_EVALUATION_SHADER "
    "REFERENCED_BY_GEOMETRY_SHADER REFERENCED_BY_FRAGMENT_SHADER REFERENCED_BY_COMPUTE_SHADER "
    "TOP_LEVEL_ARRAY_SIZE TOP_LEVEL_ARRAY_STRIDE LOCATION LOCATION_INDEX LOCATION_COMPONENT IS_PER_PATCH "
    "NUM_COMPATIBLE_SUBROUTINES COMPATIBLE_SUBROUTINES").split()}
INTERFACES = {"GL_" + n for n in (
    "UNIFORM UNIFORM_BLOCK PROGRAM_INPUT PROGRAM_OUTPUT BUFFER_VARIABLE SHADER_STORAGE_BLOCK "
    "ATOMIC_COUNTER_BUFFER TRANSFORM_FEEDBACK_VARYING").split()} | {
    f"GL_{stage}_SUBROUTINE{uniform}" for stage in ("VERTEX", "TESS_CONTROL", "TESS_EVALUATION", "GEOMETRY",
                                                     "FRAGMENT", "COMPUTE") for uniform in ("", "_UNIFORM")}
COMPARISONS = ("==", "!=", "<", ">=", ">", "<=")
# `[relative] probe [rect] rgb[a] (X, Y[, W, H]) (R, G, B[, A])`, the same without parentheses
# for one pixel, and `probe all rgb[a] R G B [A]`
PROBE_FORMS = (re.compile(r"^(relative )?probe (rect )?(rgba?)\s*\((.*?)\)\s*\((.*?)\)$"),
               re.compile(rf"^(relative )?probe ()(rgba?)\s+({NUMBER}\s+{NUMBER})\s+(.*)$"),
               re.compile(r"^probe (all) ()(rgba?)()\s+(.*)$"))


def is_probe(line: Line) -> bool:
    """A colour probe: the word `probe`, but not of a storage buffer or an atomic counter."""
    return "probe" in line.words and not line.text.startswith("probe ssbo") and "atomic" not in line.words


def probe(b: Builder, line: Line) -> None:
    m = next((m for m in (form.match(line.text) for form in PROBE_FORMS) if m), None)
    if not m:
        raise Unsupported(line.where)
    channels = len(m[3])
    expected = numbers(re.split(r"[\s,]+", m[5].strip()), channels, extra_ok=True)
    width, height = b.context.size
    if m[1] == "all":
        rect: tuple[int, ...] = (0, 0, width, height)
    else:
        where = numbers(re.split(r"[\s,]+", m[4].strip()), 4 if m[2] else 2)
        if m[1]:                                                   # relative: fractions of the window
            if m[2]:
                rect = (int(where[0] * width), int(where[1] * height),
                        int(where[2] * width), int(where[3] * height))
            else:
                rect = (min(int(where[0] * width), width - 1), min(int(where[1] * height), height - 1), 1, 1)
        else:
            rect = tuple(int(v) for v in where) + ((1, 1) if not m[2] else ())
    x, y, w, h = rect
    if x < 0 or y < 0 or w < 1 or h < 1 or x + w > width or y + h > height:
        raise Unsupported(f"{line.where}: probes outside the {width}x{height} window")
    b.checks.probes.setdefault(b.read(line.number, image=True), []).append(
        Probe(line.label, x, y, w, h, expected, cast(Float4, b.state.tolerance)))


def atomic_counters(b: Builder, line: Line) -> None:
    """shader_runner's `atomic counters N`: N GLuint counters, all 0, bound at
    GL_ATOMIC_COUNTER_BUFFER binding 0 from here on (the harness binds it before the draws)."""
    words = line.words
    if len(words) != 3 or b.steps or b.atomic_counters or int(words[2], 10) < 1:
        raise Unsupported(f"{line.where}: once, before any draw, only")
    b.atomic_counters = int(words[2], 10)


def probe_counter(b: Builder, line: Line) -> None:
    """`probe atomic counter I == V`: counter I, read back at this line."""
    words = line.words
    if len(words) != 6 or words[4] != "==":
        raise Unsupported(f"{line.where}: `probe atomic counter I == V` only")
    index, value = int(words[3], 10), int(words[5], 10)
    if not 0 <= index < b.atomic_counters:
        raise Unsupported(f"{line.where}: counter {index}, the file makes {b.atomic_counters}")
    b.checks.counts.setdefault(b.read(line.number, counters=True), []).append((f"atomic counter {index}", value))


def program_query(b: Builder, line: Line) -> None:
    """`active uniform NAME PNAME VALUE` and `verify program_interface_query INTERFACE NAME
    PNAME VALUE`, made at this line; VALUE an integer or a GL type enum."""
    words = line.words
    if words[0] == "active":
        interface, (name, pname, value) = "", words[2:5]
        known = UNIFORM_PNAMES
    else:
        interface, name, pname, value = words[2:6]
        known = RESOURCE_PROPS
        if interface not in INTERFACES:
            raise Unsupported(f"{line.where}: program interface {interface}")
    if pname not in known:
        raise Unsupported(f"{line.where}: property {pname}")
    enum = value in GL_TYPE_ENUMS
    expected = GL_TYPE_ENUMS[value] if enum else integer(value)
    index = b.read(line.number, queries=(ProgramQuery(line.label, interface, name, pname),))
    b.checks.queries.setdefault(index, []).append(QueryValue(line.label, expected, enum))


def probe_storage(b: Builder, line: Line) -> None:
    """`probe ssbo int|uint|float N OFFSET OP VALUE`: the value at byte OFFSET of the storage
    buffer at binding N, read at this line."""
    words = line.words
    if len(words) != 7 or words[2] not in ("int", "uint", "float") or words[5] not in COMPARISONS:
        raise Unsupported(f"{line.where}: int, uint and float probes with {', '.join(COMPARISONS)} only")
    type_, binding, offset, op = words[2], int(words[3]), int(words[4]), words[5]
    value: float
    if type_ == "float":                     # shader_runner reads it as a C float
        value = as_float32(float(words[6]))
    else:
        value = integer(words[6]) & 0xFFFFFFFF if type_ == "uint" else integer(words[6])
    index = b.read(line.number, storage=(binding,))
    if binding != 0:
        b.rebound = f"`probe ssbo` of binding {binding} (line {line.number})"
    b.checks.storage.setdefault(index, []).append(StorageProbe(line.label, binding, offset, type_, op, value))
