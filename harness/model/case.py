"""The case model: plain, frozen, JSON-serialisable descriptions of one conformance case.

A Case knows nothing about backends or pytest. It says what to build (GLSL per stage, vertex
data), what to do (draw commands and the state each sets), what to read back (transform
feedback captures, queries) and what the spec says must come back (expected named quantities).
"""
from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import typing
from dataclasses import dataclass, field
from typing import Any

from harness.model.glfacts import INDEX_TYPES, STAGE_KEYS
from harness.base.errors import UsageError

# A case id is a '/'-separated path of tokens, the first the family. It is the one name of a case in
# pytest node ids, JUnit, results, baselines and -k; keep it stable across releases. The
# characters are those pytest's -k accepts in a name (no commas, no spaces).
ID_RE = re.compile(r"^[a-z][a-z0-9_]*(/[A-Za-z0-9][A-Za-z0-9_.+-]*)+$")

# GLSL types that transform feedback may capture: type -> (numpy base type, components).
CAPTURE_TYPES = {
    "float": ("f4", 1), "vec2": ("f4", 2), "vec3": ("f4", 3), "vec4": ("f4", 4),
    "int": ("i4", 1), "ivec2": ("i4", 2), "ivec3": ("i4", 3), "ivec4": ("i4", 4),
    "uint": ("u4", 1), "uvec2": ("u4", 2), "uvec3": ("u4", 3), "uvec4": ("u4", 4),
}

class CaseError(UsageError, ValueError):
    """A case description that cannot be used (malformed JSON, unknown field, bad id)."""


@dataclass(frozen=True)
class Requirements:
    gl_version: tuple[int, int] = (3, 3)
    profile: str = "core"                                  # "core" or "compat"
    extensions: tuple[str, ...] = ()
    # (GL enum name, op, value), op is ">=" or "==", e.g. ("GL_MAX_PATCH_VERTICES", ">=", 32)
    limits: tuple[tuple[str, str, int], ...] = ()
    # Non-empty: the spec lets this program fail to link (e.g. one component over a limit);
    # a link failure is then `skip` with this reason, never `pass`.
    link_failure_allowed: str = ""
    # Added for imported shader_test files.
    absent_extensions: tuple[str, ...] = ()                # extensions the context must NOT have
    # Non-empty: the case cannot run as written (e.g. a shader_test command the importer does
    # not support); every backend reports it as `skip` with this reason, never `pass`.
    unsupported: str = ""
    # > 0: the bytes of address space the case may map beyond what its child had mapped when
    # the case began (shader_runner's `rlimit`, which caps a whole fresh process; the child
    # here also holds Python and a long-lived context, so the budget is what the case adds).
    address_space: int = 0
    # > 0: the seconds of CPU the child may spend on this case before it counts as hung, for
    # cases whose cold compile is long (the run's budget, --case-cpu, otherwise).
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class Attribute:
    location: int
    components: int                                         # floats per element, 1..4
    data: tuple[float, ...]                                 # len == elements * components
    divisor: int = 0                                        # 0: per vertex; n: per n instances
    name: str = ""                                          # bound to `location` before linking, if set
    # Added for imported shader_test files.
    type: str = "float"                                     # "int" or "uint": glVertexAttribIPointer, 32-bit
    # "TEXTURE_COORD": not a generic attribute (`location` unused) but the compatibility texture
    # coordinate array of unit 0 (glTexCoordPointer, gl_MultiTexCoord0), where shader_runner's
    # `draw rect tex` puts coordinates for a program without a `piglit_vertex` attribute.
    array: str = ""


@dataclass(frozen=True)
class Texture:
    """A 2D RGBA8 texture bound to a unit for a draw, made as piglit's shader_runner makes them:
    `rgbw` (red, green, blue and white quadrants, red at the origin) or `checkerboard` (squares
    of half the size, `colors[:4]` at the origin, `colors[4:]` beside it, clamped to a red
    border); filters NEAREST unless `min_filter`/`mag_filter` say otherwise; rgbw clamped to the edge.
    With `target` "1D", rgbw is red, green, blue and white quarters along x; with "3D", the
    2D rgbw quadrants in the slices z < depth/2, and yellow, magenta, cyan and black in the rest."""
    unit: int
    kind: str                                               # "rgbw" or "checkerboard"
    width: int
    height: int
    level: int = 0
    colors: tuple[float, ...] = ()                          # checkerboard: the two colours, 8 floats
    min_filter: str = "NEAREST"
    mag_filter: str = "NEAREST"
    # Added for 1D and 3D textures.
    target: str = "2D"                                      # "1D", "2D" or "3D"
    depth: int = 1


@dataclass(frozen=True)
class Uniform:
    """One glUniform* call: `name` as glGetUniformLocation takes it ("u", "a[3]", "s.m")."""
    name: str
    type: str                                               # GLSL type: float, ivec3, uint, mat2x3, ...
    values: tuple[float, ...]                               # matrices column by column
    # Added for SSO shader_test files. A stage key ("fs"):
    # set on that stage's separable program of the bound pipeline, made its active program
    # (glActiveShaderProgram); "": on the current program. A name of digits is a location.
    stage: str = ""


@dataclass(frozen=True)
class DrawState:
    """State a draw sets before it is issued; None leaves the current value alone."""
    patch_vertices: int | None = None
    default_outer: tuple[float, float, float, float] | None = None
    default_inner: tuple[float, float] | None = None
    enable: tuple[str, ...] = ()                            # capabilities without "GL_", disabled after the draw
    clip_planes: tuple[tuple[float, float, float, float], ...] = ()   # glClipPlane(GL_CLIP_PLANEi), compat
    # Added for imported shader_test files.
    uniforms: tuple[Uniform, ...] = ()                      # set before the draw; they stay set (program state)
    polygon_mode: str = ""                                  # "LINE" or "POINT" for this draw; "": FILL
    front_face: str = ""                                    # "CW" for this draw; "": CCW
    projection: tuple[float, ...] | None = None             # compat projection matrix (16, column-major) for this draw
    provoking_vertex: str = ""                              # "FIRST" for this draw; "": GL's initial LAST
    textures: tuple[Texture, ...] = ()                      # made and bound for this draw
    # (binding, size): a zeroed GL_SHADER_STORAGE_BUFFER of `size` bytes made and bound at
    # `binding` before the draw; it stays bound (shader_runner's `ssbo N SIZE`)
    storage_buffers: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ProgramQuery:
    """A program introspection query of shader_runner, made after its draw on the program in
    use: `active uniform` (interface "": glGetActiveUniformsiv of the active uniform `name`) or
    `verify program_interface_query` (glGetProgramResourceiv of the active resource `name` of
    `interface`, e.g. "GL_PROGRAM_INPUT"). `name` as GL lists it ("a[0]"); `pname` a GL enum name."""
    label: str                                              # how messages name it, e.g. the shader_test line
    interface: str
    name: str
    pname: str


@dataclass(frozen=True)
class DrawEntry:
    """One sub-draw's arguments. A command passes only those it takes (see the draw-parameters
    oracle); `first` is the first vertex, or for element draws the first index."""
    count: int
    instance_count: int = 1
    first: int = 0
    base_vertex: int = 0
    base_instance: int = 0


@dataclass(frozen=True)
class Draw:
    """A draw call, after the state it sets."""
    command: str                                            # GL entry point without "gl", e.g. "DrawArrays"
    mode: str                                               # primitive mode without "GL_", e.g. "PATCHES"
    entries: tuple[DrawEntry, ...]                          # one for single draws; any number for multi-draws
    state: DrawState = DrawState()
    label: str = ""                                         # how failure messages name the draw
    restart_index: int | None = None                        # primitive restart enabled for this draw
    indirect_offset: int = 0                                # bytes into the indirect buffer
    indirect_stride: int = 0                                # bytes between indirect commands; 0 = packed
    draw_count: int | None = None                           # *IndirectCount: the count in the parameter buffer
    # Added for cases with several programs (see Case.programs).
    program: int = 0                                        # which of the case's programs draws
    delete_programs: tuple[int, ...] = ()                   # glDeleteProgram on these before the draw


# The steps below were added for imported shader_test files, whose [test] section is a script.
# A case's steps run in order; each leaves one observation, which the expectation naming the
# step's index checks. The families use Draw steps only.

@dataclass(frozen=True)
class Clear:
    """glClear of the kept image (Readback.keep_image) to `color`."""
    color: tuple[float, float, float, float]
    label: str = ""


@dataclass(frozen=True)
class SetState:
    """The state of `state` set with no draw after it (uniforms and storage buffers that a read
    or a later list call sees); its per-draw parts (enables, polygon mode...) are undone at once."""
    state: DrawState
    label: str = ""


@dataclass(frozen=True)
class Dispatch:
    """glDispatchCompute(*work_groups) after `state`, between full memory barriers
    (shader_runner's `compute X Y Z`)."""
    work_groups: tuple[int, int, int]
    state: DrawState = DrawState()
    label: str = ""


@dataclass(frozen=True)
class NewList:
    """A display list (compatibility profile): glGenLists(1), then glNewList(list, GL_<mode>)
    around `draw`'s patch parameters and its draw call only; the rest of its state is set, and
    its counts are queried, outside the list. `mode` is "COMPILE" or "COMPILE_AND_EXECUTE"."""
    mode: str
    draw: Draw


@dataclass(frozen=True)
class CallList:
    """glCallList of the list made last, after `state`."""
    state: DrawState = DrawState()
    label: str = ""


@dataclass(frozen=True)
class DeleteList:
    """glDeleteLists of the list made last."""
    label: str = ""


@dataclass(frozen=True)
class Read:
    """Read back, at this point of the script, what the expectations of this step check: the
    image, the atomic counters ("atomic counter i" counts), the storage buffers at these
    bindings, the answers of program queries on the program in use."""
    label: str = ""
    image: bool = False
    counters: bool = False
    storage: tuple[int, ...] = ()
    queries: tuple[ProgramQuery, ...] = ()


@dataclass(frozen=True)
class Link:
    """The program's link status alone, as counts "link_failed" (1: it did not link): the whole
    of a case that checks only that (shader_runner's `link error`, `link success`, or a file
    without draws or probes)."""
    label: str = ""


Step = Draw | Clear | SetState | Dispatch | NewList | CallList | DeleteList | Read | Link
LIST_MODES = ("COMPILE", "COMPILE_AND_EXECUTE")


def step_draw(step) -> Draw | None:
    """The draw call a step makes: a Draw itself, the draw a NewList compiles; else None."""
    return step.draw if isinstance(step, NewList) else step if isinstance(step, Draw) else None


def step_state(step) -> DrawState:
    """The state a step sets before it acts (DrawState() for steps that set none)."""
    return getattr(step_draw(step) or step, "state", DrawState())


def step_label(steps, index: int) -> str:
    """How messages name step `index`: its label, else its kind and number ("draw 2")."""
    step = steps[index]
    label = (step_draw(step) or step).label
    return label or (f"draw {index}" if isinstance(step, Draw) else f"step {index} ({type(step).__name__})")


@dataclass(frozen=True)
class Capture:
    """One transform-feedback varying of the last vertex stage."""
    varying: str                                            # GLSL name
    type: str                                               # a key of CAPTURE_TYPES
    quantity: str                                           # what it carries, as messages name it


@dataclass(frozen=True)
class Readback:
    captures: tuple[Capture, ...] = ()
    xfb_primitive: str = "POINTS"                           # POINTS, LINES or TRIANGLES
    max_records: int = 4096                                 # transform-feedback buffer capacity, per draw
    # (width, height) of an RGBA32F colour target the fragment shader writes, cleared to
    # `clear` before each draw and read back after it; None: no fragment readback.
    image: tuple[int, int] | None = None
    clear: float = -7777.0
    # Added for imported shader_test files.
    image_format: str = "RGBA32F"                           # or "RGBA8" (UNORM, what piglit's window has)
    # True: the image starts cleared to 0 and keeps what draws leave in it; only Clear steps
    # clear it, and only Read steps read it (shader_runner's model). False: cleared to `clear`
    # before each draw and read back after it.
    keep_image: bool = False
    # > 0: a buffer of this many GLuint atomic counters, all 0, bound at GL_ATOMIC_COUNTER_BUFFER
    # binding 0 before the first step and kept across steps; Read(counters=True) reads them
    # (shader_runner's `atomic counters N`).
    atomic_counters: int = 0
    # True: the counts of each step but Read hold "gl_error", glGetError() after it (0: GL_NO_ERROR).
    gl_error: bool = False


@dataclass(frozen=True)
class RecordGroup:
    """Expectations for every captured record whose `key` quantity equals `key_value`."""
    key: str                                                # quantity that selects the records
    key_value: int
    label: str                                              # e.g. "patch 1"
    # quantity -> expected value; a tuple compares the first len(value) components
    values: tuple[tuple[str, float | tuple[float, ...]], ...]


@dataclass(frozen=True)
class ExpectedRecord:
    """One captured record, in capture order."""
    label: str                                              # e.g. "entry 1, vertex 3, instance 0"
    values: tuple[tuple[str, float | tuple[float, ...]], ...]


@dataclass(frozen=True)
class ExpectedPixel:
    """One channel of the read-back image: index = (y * width + x) * 4 + channel."""
    index: int
    quantity: str                                           # e.g. "FS input u7.y"
    value: float
    source: str = ""                                        # what carries this value, e.g. "u7.y"


@dataclass(frozen=True)
class ValueSet:
    """The distinct values of one captured quantity over some records must be exactly `values`.

    Added for the tessellation family (the exact gl_TessCoord set of a patch, the primitive ids
    a geometry shader sees); a backend only captures, the verdict checks.
    """
    quantity: str
    values: tuple[tuple[float, ...], ...]                   # each compares the first len(value) components
    label: str                                              # e.g. "patch 1, TES"
    key: str = ""                                           # records whose `key` equals `key_value`; "": all
    key_value: int = 0
    each: int = 0                                           # > 0: every value appears exactly this often
    tolerance: float = 0.0
    # Where the spec allows more than one result: the check passes if this set or any of these
    # matches.
    alternatives: tuple["ValueSet", ...] = ()


@dataclass(frozen=True)
class TessCoordCheck:
    """Rules every captured gl_TessCoord obeys (OpenGL 4.6, 11.2.2): all components in [0, 1];
    z == 1 - x - y for triangles (within `tolerance`), z == 0 for quads and isolines. With
    `winding` ("cw" or "ccw") each captured triangle (three consecutive records, TRIANGLES
    capture) has that vertex order in (u, v) space, or no area. Added for the tessellation family."""
    quantity: str                                           # the capture holding gl_TessCoord
    domain: str                                             # triangles, quads or isolines
    winding: str = ""
    tolerance: float = 1e-5
    key: str = ""                                           # a quantity that names a bad record's patch


@dataclass(frozen=True)
class Probe:
    """A rectangle of the read-back image whose every pixel must have the expected colour
    within `tolerance` per channel (piglit's rule: |observed - expected| <= tolerance)."""
    label: str                                              # how messages name it, e.g. the shader_test line
    x: int
    y: int                                                  # window coordinates, origin lower left
    width: int
    height: int
    expected: tuple[float, ...]                             # 3 (rgb) or 4 (rgba) channels
    tolerance: tuple[float, float, float, float]


@dataclass(frozen=True)
class QueryValue:
    """What the ProgramQuery with this label must answer, from every call that answers it."""
    label: str
    value: int
    enum: bool = False                                      # written as a GL type enum: messages name values


@dataclass(frozen=True)
class StorageProbe:
    """One value of a shader storage buffer after the draw (shader_runner's `probe ssbo`):
    an int, uint or float at byte `offset` of the buffer at `binding`, compared as `op` says
    (observed OP value); floats must be equal as 32-bit floats for ==."""
    label: str
    binding: int
    offset: int
    type: str                                               # "int", "uint" or "float"
    op: str                                                 # ==, !=, <, >=, > or <=
    value: float


@dataclass(frozen=True)
class Expectation:
    """What the observation of one step must hold."""
    step: int                                               # index into Case.steps
    counts: tuple[tuple[str, int], ...] = ()                # e.g. ("primitives_generated", 12)
    groups: tuple[RecordGroup, ...] = ()                    # records matched by a key, in any order
    sequence: tuple[ExpectedRecord, ...] = ()               # records in the order captured
    pixels: tuple[ExpectedPixel, ...] = ()                  # channels of the read-back image
    # (value, what carries it) for values written that must NOT arrive (e.g. the front colour
    # when the back one is selected): a failure that shows one of them names it
    written: tuple[tuple[float, str], ...] = ()
    tolerance: float = 0.0
    # Added for the tessellation family.
    value_sets: tuple[ValueSet, ...] = ()                   # exact sets of captured values
    tess_coord: TessCoordCheck | None = None                # per-record rules of gl_TessCoord
    # Added for imported shader_test files.
    probes: tuple[Probe, ...] = ()                          # colour rectangles of the image the Read step read
    queries: tuple[QueryValue, ...] = ()                    # answers of the Read step's ProgramQuery list
    storage: tuple[StorageProbe, ...] = ()                  # storage buffer values the Read step read


@dataclass(frozen=True)
class Case:
    id: str
    family: str
    shaders: tuple[tuple[str, str], ...]                    # (stage, GLSL source)
    requires: Requirements
    vertices: int
    attributes: tuple[Attribute, ...]
    steps: tuple[Step, ...]                                 # what the case does, in order
    readback: Readback
    expect: tuple[Expectation, ...]
    indices: tuple[int, ...] = ()                           # the element array, for indexed draws
    index_type: str = "UNSIGNED_INT"                        # UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT
    description: str = ""
    params: tuple[tuple[str, Any], ...] = field(default=())  # generator parameters, for triage
    separable: bool = False                                 # one program per stage, in a pipeline
    # Further programs, for draw sequences that switch programs: program 0 is `shaders`, program
    # i + 1 is programs[i], each a tuple of (stage, GLSL source). A backend builds every program
    # before the first draw and compiles each distinct (stage, source) once: programs that list
    # the same source share that shader object (e.g. one TES linked with and without a TCS).
    # Draw.program picks the program; Draw.delete_programs deletes programs before a draw.
    # Not with `separable`.
    programs: tuple[tuple[tuple[str, str], ...], ...] = ()

    def __post_init__(self):
        if not ID_RE.match(self.id):
            raise CaseError(f"bad case id {self.id!r}: must match {ID_RE.pattern}")
        if not self.id.startswith(self.family + "/"):
            raise CaseError(f"case id {self.id!r} does not start with its family {self.family!r}")
        for program in (self.shaders,) + self.programs:
            for stage, _ in program:
                if stage not in STAGE_KEYS:
                    raise CaseError(f"case {self.id}: unknown shader stage {stage!r}")
        if self.programs and self.separable:
            raise CaseError(f"case {self.id}: several programs and separable are not supported together")
        for step in self.steps:
            if not isinstance(step, typing.get_args(Step)):
                raise CaseError(f"case {self.id}: {type(step).__name__} is not a step")
            if isinstance(step, NewList) and step.mode not in LIST_MODES:
                raise CaseError(f"case {self.id}: unknown display list mode {step.mode!r}")
            if isinstance(step, Link) and len(self.steps) > 1:
                raise CaseError(f"case {self.id}: a Link step is the whole of a case")
        for draw in self.draws():
            for index in (draw.program,) + draw.delete_programs:
                if not 0 <= index <= len(self.programs):
                    raise CaseError(f"case {self.id}: draw names program {index}, the case has "
                                    f"{len(self.programs) + 1}")
        for expectation in self.expect:
            if not 0 <= expectation.step < len(self.steps):
                raise CaseError(f"case {self.id}: an expectation names step {expectation.step}, the case has "
                                f"{len(self.steps)}")
        for cap in self.readback.captures:
            if cap.type not in CAPTURE_TYPES:
                raise CaseError(f"case {self.id}: cannot capture GLSL type {cap.type!r}")
        if self.index_type not in INDEX_TYPES:
            raise CaseError(f"case {self.id}: unknown index type {self.index_type!r}")
        quantities = [cap.quantity for cap in self.readback.captures]
        if len(set(quantities)) != len(quantities):
            raise CaseError(f"case {self.id}: two captures name the same quantity")

    def shader(self, stage: str) -> str | None:
        return dict(self.shaders).get(stage)

    def draws(self) -> list[Draw]:
        """Every draw call of the case, those compiled into display lists included."""
        return [draw for draw in map(step_draw, self.steps) if draw is not None]

    def last_in_child(self) -> bool:
        """Whether the child that runs this case runs nothing after it. A case that deletes a
        program between its draws exercises the driver's object lifetimes: a use after free
        corrupts the driver's heap, which outlives the case's context and can crash whatever
        case that process runs next (zink on Mesa 25.0.7 does). So the executor retires the
        child after such a case, and the next case's verdict is its own."""
        return any(draw.delete_programs for draw in self.draws())

    def to_json(self) -> str:
        return json.dumps(_plain(self) | {"schema": SCHEMA}, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Case":
        try:
            # NaN (a tessellation level may be one) comes back as the one math.nan object, so a
            # case that holds math.nan compares equal to its round trip.
            return _load(json.loads(text, parse_constant=_constant))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:   # CaseError included
            raise CaseError(f"malformed case description: {exc}") from None


def _constant(name: str) -> float:
    return math.nan if name == "NaN" else float(name)


# The case JSON's schema. 1: no "schema" key, every field written. 2: a field that holds its
# default is left out (so a field added with a default changes no older case's JSON), and the
# nested dataclasses are found from the type annotations. 3: "steps", each an object with its
# class's name under "kind", replace "draws" and "draw"; "expect" names a step. A reader takes
# any schema up to its own.
SCHEMA = 3


def _plain(value, tagged: bool = False):
    """dataclasses.asdict, less every field that holds its default; `tagged`: with the class's
    name under "kind" (a member of a union, such as a step)."""
    if dataclasses.is_dataclass(value):
        out = {"kind": type(value).__name__} if tagged else {}
        unions = _unions(type(value))
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item == _default(f):
                continue
            if f.name in unions:
                out[f.name] = [_plain(v, tagged=True) for v in item]
            else:
                out[f.name] = _plain(item)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _default(f: dataclasses.Field):
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING                  # a required field is always written


def _load(data: dict) -> "Case":
    if not isinstance(data, dict):
        raise CaseError(f"Case: expected an object, got {type(data).__name__}")
    schema = data.pop("schema", 1)
    if not isinstance(schema, int) or not 1 <= schema <= SCHEMA:
        raise CaseError(f"case JSON schema {schema!r}: this harness reads 1 to {SCHEMA}")
    if schema < 3:
        data = _steps_from_draws(data)
    return _build(Case, data)


# Draw fields of schema 2 that schema 3 writes as steps of their own.
_SCRIPT_FIELDS = ("read_image", "list", "work_groups", "queries", "read_storage")


def _steps_from_draws(data: dict) -> dict:
    """A schema 1 or 2 case as schema 3: each draw a Draw step. Only imported shader_test cases
    used draws that were not draw calls; those are made again by importing the file."""
    draws = data.pop("draws", [])
    for draw in draws if isinstance(draws, list) else ():
        if isinstance(draw, dict) and (draw.get("command") == "None" or set(_SCRIPT_FIELDS) & set(draw)
                                       or "clear_color" in (draw.get("state") or {})):
            raise CaseError("a schema 1 or 2 imported case with script steps: import its shader_test file again")
    data["steps"] = [{"kind": "Draw", **d} if isinstance(d, dict) else d for d in draws]
    data["expect"] = [{"step": e.pop("draw"), **e} if isinstance(e, dict) and "draw" in e else e
                      for e in data.get("expect", [])]
    return data


def _build(cls, data):
    """Rebuild a dataclass tree from json.loads output, turning lists back into tuples."""
    if not isinstance(data, dict):
        raise CaseError(f"{cls.__name__}: expected an object, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields)
    if unknown:
        raise CaseError(f"{cls.__name__}: unknown field(s) {sorted(unknown)}")
    nested, unions = _nested(cls), _unions(cls)
    kwargs = {}
    for name, value in data.items():
        sub = nested.get(name)
        if name in unions:
            if not isinstance(value, list):
                raise CaseError(f"{cls.__name__}.{name}: expected a list, got {type(value).__name__}")
            kwargs[name] = tuple(_build_member(unions[name], v) for v in value)
        elif sub is not None and isinstance(value, list):
            kwargs[name] = tuple(_build(sub, v) for v in value)
        elif sub is not None and value is not None:
            kwargs[name] = _build(sub, value)
        else:
            kwargs[name] = _tuplify(value)
    return cls(**kwargs)


def _build_member(members: dict[str, type], data):
    if not isinstance(data, dict) or data.get("kind") not in members:
        kind = data.get("kind") if isinstance(data, dict) else type(data).__name__
        raise CaseError(f"{kind!r} is not one of {', '.join(members)}")
    return _build(members[data["kind"]], {k: v for k, v in data.items() if k != "kind"})


@functools.cache
def _unions(cls) -> dict[str, dict[str, type]]:
    """Field name -> {class name: class} for fields holding a tuple of a union of dataclasses."""
    out = {}
    for name, hint in typing.get_type_hints(cls).items():
        for arg in typing.get_args(hint):                   # tuple[A | B, ...]
            members = typing.get_args(arg)
            if len(members) > 1 and all(dataclasses.is_dataclass(m) for m in members):
                out[name] = {m.__name__: m for m in members}
    return out


@functools.cache
def _nested(cls) -> dict[str, type]:
    """Field name -> the dataclass it holds (alone, optional, or as the items of a tuple),
    read from the class's annotations."""
    out = {}
    for name, hint in typing.get_type_hints(cls).items():
        for arg in (hint, *typing.get_args(hint)):          # X, X | None, tuple[X, ...]
            if dataclasses.is_dataclass(arg):
                out[name] = arg
                break
    return out


def _tuplify(value):
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value
