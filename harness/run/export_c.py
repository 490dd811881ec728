"""A case as a standalone C program (`harness export --format c`), for the cases piglit's
shader_runner cannot express (multi-draws, indirect draws, draw sequences): EGL surfaceless and a
GL core context through eglGetProcAddress, nothing else (`cc repro.c -lEGL -o repro`).

It draws the case as the GL backend does (harness/backends/gl/runner.py, draws.py): the programs
with the captures as interleaved transform-feedback varyings, the vertex arrays and element
array, per draw its state, the primitives-generated and primitives-written queries and transform
feedback with rasterization discarded. After each draw it compares the counts and the captured
records (in capture order, or grouped by an integer key in any order, as tessellation's are)
with the expected values the harness computed, embedded as data (the oracle stays in the
harness), and prints `PASS` or the first mismatch, as the harness's verdict words it; exit 0 or
1 (2 when the context or the program cannot be made).

The C program is a Jinja2 template, templates/repro.c.j2 (package data, as the HTML report's
templates are); this module decides whether a case can be written and computes what the template
writes: the programs, vertex data, expected values and each draw's arguments.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import TypedDict

import jinja2

from harness.backends import indirect_commands
from harness.model.case import CAPTURE_TYPES, Attribute, Case, Draw, DrawState
from harness.model.expectations import Expectation
from harness.base.errors import UsageError
from harness.model.observation import XFB_VERTICES

# What a context's observations are named in expectations, and where the program keeps them.
COUNTS = {"primitives_generated": 0, "xfb_primitives_written": 1, "xfb_vertices": 2}
GL_STAGES = {"vs": "GL_VERTEX_SHADER", "tcs": "GL_TESS_CONTROL_SHADER", "tes": "GL_TESS_EVALUATION_SHADER",
             "gs": "GL_GEOMETRY_SHADER", "fs": "GL_FRAGMENT_SHADER"}
TEMPLATE = "repro.c.j2"
# The parameter buffer's first word, which no count-draw reads (its count is the second word):
# the harness's GL backend writes this marker there, so the standalone program does too.
HARNESS_PARAMETER_WORD = "0xDEADBEEF"
INDEX_C = {"UNSIGNED_BYTE": "GLubyte", "UNSIGNED_SHORT": "GLushort", "UNSIGNED_INT": "GLuint"}
INDEX_SIZE = {"UNSIGNED_BYTE": 1, "UNSIGNED_SHORT": 2, "UNSIGNED_INT": 4}


class NotExportable(UsageError, ValueError):
    """The case uses something the C program does not write; one line for the user."""


# What the template reads: values() and the rows in it.
class AttributeValues(TypedDict):
    ctype: str
    data: list[int] | list[float]
    location: int
    components: int
    divisor: int
    integer: str


class CountCheck(TypedDict):
    step: int
    which: int
    name: str
    value: int


class LengthCheck(TypedDict):
    step: int
    records: int


class RecordCheck(TypedDict):
    step: int
    record: int
    word: int
    kind: str
    components: list[float]
    label: str
    quantity: str
    tolerance: float


class Group(TypedDict):
    step: int
    key_word: int
    key_value: int
    key: str
    label: str


class GroupCheck(TypedDict):
    step: int
    group: int
    word: int
    kind: str
    components: list[float]
    quantity: str
    tolerance: float


class Checks(TypedDict):
    count_checks: list[CountCheck]
    length_checks: list[LengthCheck]
    record_checks: list[RecordCheck]
    groups: list[Group]
    group_checks: list[GroupCheck]


class DrawCall(TypedDict):
    """What every draw call writes; the three kinds below add their arguments."""
    command: str
    mode: str
    itype: str
    n: int


class MultiDrawCall(DrawCall):
    counts: list[int]
    firsts: list[int]
    offsets: list[int]
    bases: list[int]


class IndirectDrawCall(DrawCall):
    commands: list[int]
    offset: int
    stride: int
    draw_count: int | None


class SingleDrawCall(DrawCall):
    first: int
    count: int
    instance_count: int
    base_vertex: int
    base_instance: int
    offset: int
    start: int
    end: int


class StepValues(TypedDict):
    comment: str
    label: str
    delete_programs: list[int]
    use_program: int | None
    patch_vertices: int | None
    default_outer: list[float] | None
    default_inner: list[float] | None
    enable: list[str]
    restart_index: int | None
    restart_fixed: bool
    draw: MultiDrawCall | IndirectDrawCall | SingleDrawCall


class Values(Checks):
    case_id: str
    description: str
    gl_major: int
    gl_minor: int
    programs: list[list[tuple[str, str]]]
    varyings: list[str]
    bindings: list[tuple[int, str]]
    record_bytes: int
    max_records: int
    xfb_primitive: str
    xfb_vertices: int
    attributes: list[AttributeValues]
    index_ctype: str
    indices: list[int]
    steps: list[StepValues]


def _c(text: str) -> str:
    """A C string literal (JSON's escapes are C's for these characters)."""
    return json.dumps(text)


def unsupported(case: Case) -> str:
    """Why the case cannot be written as a C program, or ''."""
    rb = case.readback
    if case.separable or case.requires.profile != "core" or case.requires.link_failure_allowed:
        return "separable programs, the compatibility profile and link failures are not written"
    if rb.image or rb.atomic_counters or rb.gl_error or not rb.captures:
        return "only transform-feedback readback is written (no image, counters or GL errors)"
    draws = [step for step in case.steps if isinstance(step, Draw)]
    if len(draws) != len(case.steps):
        return "only Draw steps are written"
    bare = DrawState()
    for step in draws:
        s = step.state
        if (s.uniforms, s.textures, s.storage_buffers, s.clip_planes, s.polygon_mode, s.front_face,
                s.projection, s.provoking_vertex) != (bare.uniforms, bare.textures, bare.storage_buffers,
                                                       bare.clip_planes, bare.polygon_mode, bare.front_face,
                                                       bare.projection, bare.provoking_vertex):
            return f"{step.label or step.command}: only patch parameters and enables are written"
    if any(a.array for a in case.attributes):
        return "compatibility arrays are not written"
    for e in case.expect:
        if e.value_sets or e.tess_coord or e.pixels or e.probes or e.queries or e.storage or e.bounds \
                or e.primitives:
            return "only counts, records in capture order (sequence) and records grouped by a key are checked"
        why = _groups_unsupported(case, e)
        if why:
            return why
        if any(name not in COUNTS for name, _ in e.counts):
            return f"count {next(n for n, _ in e.counts if n not in COUNTS)!r} is not read"
    return ""


def _groups_unsupported(case: Case, e: Expectation) -> str:
    types = {c.quantity: c.type for c in case.readback.captures}
    for group in e.groups:
        if types.get(group.key) not in ("int", "uint"):
            return f"{group.label}: only groups keyed by a captured int are checked"
        if not all(math.isfinite(v) for _, value in group.values for v in _components(value)):
            return f"{group.label}: non-finite expected values are not written"
    return ""


def _components(value: float | tuple[float, ...]) -> list[float]:
    return [float(v) for v in value] if isinstance(value, (list, tuple)) else [float(value)]


def program(case: Case) -> str:
    why = unsupported(case)
    if why:
        raise NotExportable(f"--format c: case {case.id}: {why}")
    return render(case, TEMPLATE, piglit=False, parameter_word=HARNESS_PARAMETER_WORD)


def render(case: Case, template: str, **extra: object) -> str:
    """A template of the case's values (standalone or piglit's C), with `extra`: `piglit`, which
    the shared partials test, and `parameter_word`, the GL_PARAMETER_BUFFER's first word."""
    return _environment().get_template(template).render(**values(case), **extra)


@lru_cache(maxsize=None)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("harness.run", "templates"),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["c_string"] = _c
    return env


def values(case: Case) -> Values:
    """What the template (templates/repro.c.j2) writes: the case's programs, vertex data, draws
    and expected values, as numbers, names and strings; the C is the template's."""
    rb = case.readback
    major, minor = case.requires.gl_version
    return {
        "case_id": case.id, "description": case.description, "gl_major": major, "gl_minor": minor,
        "programs": [[(GL_STAGES[stage], source) for stage, source in shaders]
                     for shaders in (case.shaders,) + case.programs],
        "varyings": [c.varying for c in rb.captures],
        "bindings": [(a.location, a.name) for a in case.attributes if a.name],
        "record_bytes": sum(4 * CAPTURE_TYPES[c.type][1] for c in rb.captures),
        "max_records": rb.max_records, "xfb_primitive": rb.xfb_primitive,
        "xfb_vertices": XFB_VERTICES[rb.xfb_primitive],
        "attributes": [_attribute(a) for a in case.attributes],
        "index_ctype": INDEX_C[case.index_type], "indices": list(case.indices),
        **_checks(case),
        "steps": _steps(case),
    }


def _attribute(a: Attribute) -> AttributeValues:
    ctype = {"int": "GLint", "uint": "GLuint"}.get(a.type, "GLfloat")
    return {"ctype": ctype, "data": [int(v) if ctype != "GLfloat" else float(v) for v in a.data],
            "location": a.location, "components": a.components, "divisor": a.divisor,
            "integer": {"int": "GL_INT", "uint": "GL_UNSIGNED_INT"}.get(a.type, "")}


def _checks(case: Case) -> Checks:
    """The expected counts and record values, one row per compared component group."""
    offsets: dict[str, tuple[int, str]] = {}
    at = 0
    for cap in case.readback.captures:
        offsets[cap.quantity] = (at, cap.type)
        at += CAPTURE_TYPES[cap.type][1]
    counts: list[CountCheck] = []
    records: list[RecordCheck] = []
    lengths: list[LengthCheck] = []
    for e in case.expect:
        counts += [{"step": e.step, "which": COUNTS[name], "name": name, "value": int(value)}
                   for name, value in e.counts]
        if e.sequence:
            lengths.append({"step": e.step, "records": len(e.sequence)})
        for r, record in enumerate(e.sequence):
            for quantity, value in record.values:
                if quantity not in offsets:
                    continue                       # not captured: the verdict leaves it out too
                word, ctype = offsets[quantity]
                components = list(value) if isinstance(value, (list, tuple)) else [value]
                records.append({"step": e.step, "record": r, "word": word,
                                "kind": CAPTURE_TYPES[ctype][0][0],          # i, u or f
                                "components": [float(v) for v in components], "label": record.label,
                                "quantity": quantity, "tolerance": e.tolerance})
    groups, group_checks = _group_checks(case, offsets)
    return {"count_checks": counts, "length_checks": lengths, "record_checks": records,
            "groups": groups, "group_checks": group_checks}


def _group_checks(case: Case, offsets: dict[str, tuple[int, str]]) -> tuple[list[Group], list[GroupCheck]]:
    """The record groups of every step (records whose integer key holds a value, in any order)
    and one row per group and compared quantity."""
    groups: list[Group] = []
    checks: list[GroupCheck] = []
    for e in case.expect:
        for group in e.groups:
            index = len(groups)
            groups.append({"step": e.step, "key_word": offsets[group.key][0], "key_value": int(group.key_value),
                           "key": group.key, "label": group.label})
            for quantity, value in group.values:
                if quantity not in offsets:
                    continue                       # not captured: the verdict leaves it out too
                word, ctype = offsets[quantity]
                checks.append({"step": e.step, "group": index, "word": word, "kind": CAPTURE_TYPES[ctype][0][0],
                               "components": _components(value), "quantity": quantity, "tolerance": e.tolerance})
    return groups, checks


def _steps(case: Case) -> list[StepValues]:
    steps: list[StepValues] = []
    current = 0
    for i, draw in enumerate(case.steps):
        assert isinstance(draw, Draw), draw         # unsupported() refuses any other step
        s = draw.state
        steps.append({
            "comment": draw.label, "label": draw.label or f"draw {i}",
            "delete_programs": list(draw.delete_programs),
            "use_program": draw.program if draw.program != current else None,
            "patch_vertices": s.patch_vertices,
            "default_outer": None if s.default_outer is None else [float(v) for v in s.default_outer],
            "default_inner": None if s.default_inner is None else [float(v) for v in s.default_inner],
            "enable": list(s.enable), "restart_index": draw.restart_index, "restart_fixed": draw.restart_fixed,
            "draw": _draw(case, draw)})
        current = draw.program
    return steps


def _draw(case: Case, draw: Draw) -> MultiDrawCall | IndirectDrawCall | SingleDrawCall:
    """The draw call's arguments, as harness/backends/gl/draws.py passes them."""
    index_type = case.index_type_of(draw)
    size, entries = INDEX_SIZE[index_type], draw.entries
    d: DrawCall = {"command": draw.command, "mode": f"GL_{draw.mode}", "itype": f"GL_{index_type}", "n": len(entries)}
    if draw.command.startswith("Multi") and "Indirect" not in draw.command:
        return {**d, "counts": [int(e.count) for e in entries] or [0], "firsts": [int(e.first) for e in entries] or [0],
                "offsets": [e.first * size for e in entries], "bases": [int(e.base_vertex) for e in entries] or [0]}
    if "Indirect" in draw.command:
        if draw.command not in INDIRECT:
            raise NotExportable(f"--format c: unknown draw command gl{draw.command}")
        data, _ = indirect_commands(draw)
        return {**d, "commands": list(data), "offset": draw.indirect_offset, "stride": draw.indirect_stride,
                "draw_count": draw.draw_count}
    if draw.command not in SINGLE:
        raise NotExportable(f"--format c: unknown draw command gl{draw.command}")
    (e,) = entries
    used = case.elements(index_type)[e.first:e.first + e.count] or (0,)
    return {**d, "first": e.first, "count": e.count, "instance_count": e.instance_count,
            "base_vertex": e.base_vertex, "base_instance": e.base_instance, "offset": e.first * size,
            "start": min(used), "end": max(used)}


# The draw commands the template writes.
INDIRECT = ("DrawArraysIndirect", "DrawElementsIndirect", "MultiDrawArraysIndirect", "MultiDrawElementsIndirect",
            "MultiDrawArraysIndirectCount", "MultiDrawElementsIndirectCount")
SINGLE = ("DrawArrays", "DrawArraysInstanced", "DrawArraysInstancedBaseInstance", "DrawElements", "DrawRangeElements",
          "DrawElementsBaseVertex", "DrawRangeElementsBaseVertex", "DrawElementsInstanced",
          "DrawElementsInstancedBaseVertex", "DrawElementsInstancedBaseInstance",
          "DrawElementsInstancedBaseVertexBaseInstance")
