"""The case model: plain, frozen, JSON-serialisable descriptions of one conformance case.

A Case knows nothing about backends or pytest. It says what to build (GLSL per stage, vertex
data), what to do (draw commands and the state each sets), what to read back (transform
feedback captures, queries) and what the spec says must come back (expected named quantities).
"""
from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from harness.glfacts import INDEX_TYPES, STAGE_KEYS

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

class CaseError(ValueError):
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
    # Added for imported shader_test files; omitted from JSON at the default.
    absent_extensions: tuple[str, ...] = ()                # extensions the context must NOT have
    # Non-empty: the case cannot run as written (e.g. a shader_test command the importer does
    # not support); every backend reports it as `skip` with this reason, never `pass`.
    unsupported: str = ""


@dataclass(frozen=True)
class Attribute:
    location: int
    components: int                                         # floats per element, 1..4
    data: tuple[float, ...]                                 # len == elements * components
    divisor: int = 0                                        # 0: per vertex; n: per n instances
    name: str = ""                                          # bound to `location` before linking, if set
    # Added for imported shader_test files; omitted from JSON at the default.
    type: str = "float"                                     # "int" or "uint": glVertexAttribIPointer, 32-bit


@dataclass(frozen=True)
class Texture:
    """A 2D RGBA8 texture bound to a unit for a draw, made as piglit's shader_runner makes them:
    `rgbw` (red, green, blue and white quadrants, red at the origin) or `checkerboard` (squares
    of half the size, `colors[:4]` at the origin, `colors[4:]` beside it, clamped to a red
    border); filters NEAREST unless `min_filter`/`mag_filter` say otherwise; rgbw clamped to the edge."""
    unit: int
    kind: str                                               # "rgbw" or "checkerboard"
    width: int
    height: int
    level: int = 0
    colors: tuple[float, ...] = ()                          # checkerboard: the two colours, 8 floats
    min_filter: str = "NEAREST"
    mag_filter: str = "NEAREST"


@dataclass(frozen=True)
class Uniform:
    """One glUniform* call: `name` as glGetUniformLocation takes it ("u", "a[3]", "s.m")."""
    name: str
    type: str                                               # GLSL type: float, ivec3, uint, mat2x3, ...
    values: tuple[float, ...]                               # matrices column by column


@dataclass(frozen=True)
class DrawState:
    """State a draw sets before it is issued; None leaves the current value alone."""
    patch_vertices: int | None = None
    default_outer: tuple[float, float, float, float] | None = None
    default_inner: tuple[float, float] | None = None
    enable: tuple[str, ...] = ()                            # capabilities without "GL_", disabled after the draw
    clip_planes: tuple[tuple[float, float, float, float], ...] = ()   # glClipPlane(GL_CLIP_PLANEi), compat
    # Added for imported shader_test files; omitted from JSON at the default.
    uniforms: tuple[Uniform, ...] = ()                      # set before the draw; they stay set (program state)
    clear_color: tuple[float, float, float, float] | None = None   # glClear to this first (Readback.keep_image)
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
    command: str                                            # GL entry point without "gl", e.g. "DrawArrays";
                                                            # "None": no draw call (a clear and/or readback only)
    mode: str                                               # primitive mode without "GL_", e.g. "PATCHES"
    entries: tuple[DrawEntry, ...]                          # one for single draws; any number for multi-draws
    state: DrawState = DrawState()
    label: str = ""                                         # how failure messages name the draw
    restart_index: int | None = None                        # primitive restart enabled for this draw
    indirect_offset: int = 0                                # bytes into the indirect buffer
    indirect_stride: int = 0                                # bytes between indirect commands; 0 = packed
    draw_count: int | None = None                           # *IndirectCount: the count in the parameter buffer
    # Added for cases with several programs (see Case.programs); omitted from JSON at the default.
    program: int = 0                                        # which of the case's programs draws
    delete_programs: tuple[int, ...] = ()                   # glDeleteProgram on these before the draw
    # Added for imported shader_test files; omitted from JSON at the default.
    read_image: bool = True                                 # False: no image read back after this draw
    work_groups: tuple[int, ...] = ()                       # command "DispatchCompute": its (x, y, z)
    queries: tuple[ProgramQuery, ...] = ()                  # made after the draw
    read_storage: tuple[int, ...] = ()                      # bindings whose storage buffers are read after it


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
    # Added for imported shader_test files; omitted from JSON at the default.
    image_format: str = "RGBA32F"                           # or "RGBA8" (UNORM, what piglit's window has)
    # True: the image starts cleared to 0 and keeps what draws leave in it; only a draw's
    # DrawState.clear_color clears it (shader_runner's model). False: cleared to `clear` before each draw.
    keep_image: bool = False


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
    # matches. Omitted from JSON when empty.
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
class DrawExpectation:
    draw: int
    counts: tuple[tuple[str, int], ...] = ()                # e.g. ("primitives_generated", 12)
    groups: tuple[RecordGroup, ...] = ()                    # records matched by a key, in any order
    sequence: tuple[ExpectedRecord, ...] = ()               # records in the order captured
    pixels: tuple[ExpectedPixel, ...] = ()                  # channels of the read-back image
    # (value, what carries it) for values written that must NOT arrive (e.g. the front colour
    # when the back one is selected): a failure that shows one of them names it
    written: tuple[tuple[float, str], ...] = ()
    tolerance: float = 0.0
    # Added for the tessellation family; omitted from JSON at the default.
    value_sets: tuple[ValueSet, ...] = ()                   # exact sets of captured values
    tess_coord: TessCoordCheck | None = None                # per-record rules of gl_TessCoord
    # Added for imported shader_test files; omitted from JSON at the default.
    probes: tuple[Probe, ...] = ()                          # colour rectangles of the image after the draw
    queries: tuple[QueryValue, ...] = ()                    # answers of the draw's ProgramQuery list
    storage: tuple[StorageProbe, ...] = ()                  # storage buffer values after the draw


@dataclass(frozen=True)
class Case:
    id: str
    family: str
    shaders: tuple[tuple[str, str], ...]                    # (stage, GLSL source)
    requires: Requirements
    vertices: int
    attributes: tuple[Attribute, ...]
    draws: tuple[Draw, ...]
    readback: Readback
    expect: tuple[DrawExpectation, ...]
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
    # Not with `separable`. Omitted from JSON when empty.
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
        for draw in self.draws:
            for index in (draw.program,) + draw.delete_programs:
                if not 0 <= index <= len(self.programs):
                    raise CaseError(f"case {self.id}: draw names program {index}, the case has "
                                    f"{len(self.programs) + 1}")
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

    def to_json(self) -> str:
        return json.dumps(_plain(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Case":
        try:
            # NaN (a tessellation level may be one) comes back as the one math.nan object, so a
            # case that holds math.nan compares equal to its round trip.
            return _build(cls, json.loads(text, parse_constant=_constant))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:   # CaseError included
            raise CaseError(f"malformed case description: {exc}") from None


def _constant(name: str) -> float:
    return math.nan if name == "NaN" else float(name)


# Fields added after cases were first published: left out of the JSON while they hold their
# default, so every older case keeps its JSON byte for byte (and readers that predate them
# still read it). from_json fills in a missing field's default.
_OMITTED_AT_DEFAULT = {
    "Case": ("programs",),
    "Requirements": ("absent_extensions", "unsupported"),
    "Draw": ("program", "delete_programs", "read_image", "work_groups", "queries", "read_storage"),
    "Attribute": ("type",),
    "DrawState": ("uniforms", "clear_color", "polygon_mode", "front_face", "projection", "provoking_vertex",
                  "textures", "storage_buffers"),
    "Readback": ("image_format", "keep_image"),
    "DrawExpectation": ("value_sets", "tess_coord", "probes", "queries", "storage"),
    "ValueSet": ("alternatives",),
}


def _plain(value):
    """dataclasses.asdict, less the _OMITTED_AT_DEFAULT fields that hold their default."""
    if dataclasses.is_dataclass(value):
        omit = _OMITTED_AT_DEFAULT.get(type(value).__name__, ())
        out = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name in omit and item == f.default:
                continue
            out[f.name] = _plain(item)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _build(cls, data):
    """Rebuild a dataclass tree from json.loads output, turning lists back into tuples."""
    if not isinstance(data, dict):
        raise CaseError(f"{cls.__name__}: expected an object, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields)
    if unknown:
        raise CaseError(f"{cls.__name__}: unknown field(s) {sorted(unknown)}")
    hints = _FIELD_CLASSES.get(cls, {})
    kwargs = {}
    for name, value in data.items():
        sub = hints.get(name)
        if sub is not None and isinstance(value, list):
            kwargs[name] = tuple(_build(sub, v) for v in value)
        elif sub is not None and value is not None:
            kwargs[name] = _build(sub, value)
        else:
            kwargs[name] = _tuplify(value)
    return cls(**kwargs)


def _tuplify(value):
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value


# Which fields hold nested dataclasses (a list field holds a tuple of them).
_FIELD_CLASSES = {
    Case: {"requires": Requirements, "attributes": Attribute, "draws": Draw,
           "readback": Readback, "expect": DrawExpectation},
    Draw: {"state": DrawState, "entries": DrawEntry, "queries": ProgramQuery},
    DrawState: {"uniforms": Uniform, "textures": Texture},
    Readback: {"captures": Capture},
    ValueSet: {"alternatives": ValueSet},
    DrawExpectation: {"groups": RecordGroup, "sequence": ExpectedRecord, "pixels": ExpectedPixel,
                      "value_sets": ValueSet, "tess_coord": TessCoordCheck, "probes": Probe,
                      "queries": QueryValue, "storage": StorageProbe},
}
