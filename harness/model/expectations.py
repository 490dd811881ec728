"""What a case reads back (transform feedback captures, the image, atomic counters) and what the
spec says must come back: the expectation of each step, which the oracle checks against the
observation."""
from __future__ import annotations

from dataclasses import dataclass

# GLSL types that transform feedback may capture: type -> (numpy base type, components).
CAPTURE_TYPES = {
    "float": ("f4", 1), "vec2": ("f4", 2), "vec3": ("f4", 3), "vec4": ("f4", 4),
    "int": ("i4", 1), "ivec2": ("i4", 2), "ivec3": ("i4", 3), "ivec4": ("i4", 4),
    "uint": ("u4", 1), "uvec2": ("u4", 2), "uvec3": ("u4", 3), "uvec4": ("u4", 4),
}
# Pipeline statistics queries a case may read (GL 4.6: submission 10.10, geometry shader 11.3.5,
# clipping 13.7.3), by their names in the counts.
STATISTICS = ("vertices_submitted", "primitives_submitted", "geometry_shader_invocations",
              "geometry_shader_primitives_emitted", "clipping_input_primitives", "clipping_output_primitives")
# A bound's highest where the spec sets none ("one or more", additional invocations allowed).
UNBOUNDED = 2 ** 63 - 1


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
    # Pipeline statistics queries (ARB_pipeline_statistics_query; STATISTICS) active around each
    # draw, each read into the counts under its name: "vertices_submitted", "primitives_submitted", ...
    statistics: tuple[str, ...] = ()


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
    """The distinct values of one captured quantity over some records must be exactly `values`
    (e.g. the exact gl_TessCoord set of a patch, the primitive ids a geometry shader sees); a
    backend only captures, the verdict checks."""
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
    capture) has that vertex order in (u, v) space, or no area."""
    quantity: str                                           # the capture holding gl_TessCoord
    domain: str                                             # triangles, quads or isolines
    winding: str = ""
    tolerance: float = 1e-5
    key: str = ""                                           # a quantity that names a bad record's patch


@dataclass(frozen=True)
class CapturedPrimitive:
    """One primitive transform feedback must record, in capture order (GL 4.6, 13.3.2: "The
    attributes of the first vertex received after BeginTransformFeedback are written at the
    starting offsets ..., and subsequent vertex attributes are appended")."""
    label: str                                              # e.g. "run 1, primitive 2"
    vertices: tuple[int, ...]                               # captured ids, in the assembly order of 10.1
    # Index into `vertices` of the provoking vertex, which must be written first under the first
    # vertex convention and last under the last (-1: not checked).
    provoking: int = -1
    # > 0: a quad or polygon, recorded as this many triangles in an order and split the spec
    # leaves open ("the order of tessellation within a primitive is undefined").
    triangles: int = 0


@dataclass(frozen=True)
class PrimitiveCapture:
    """The captured records, taken `size` at a time, are these primitives in this order."""
    quantity: str                                           # the captured quantity holding a vertex's id
    size: int                                               # vertices per recorded primitive: 1, 2 or 3
    convention: str                                         # "first" or "last": where provoking vertices go
    primitives: tuple[CapturedPrimitive, ...]


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
    value_sets: tuple[ValueSet, ...] = ()                   # exact sets of captured values
    tess_coord: TessCoordCheck | None = None                # per-record rules of gl_TessCoord
    probes: tuple[Probe, ...] = ()                          # colour rectangles of the image the Read step read
    queries: tuple[QueryValue, ...] = ()                    # answers of the Read step's ProgramQuery list
    storage: tuple[StorageProbe, ...] = ()                  # storage buffer values the Read step read
    # (count, lowest, highest): a count the spec bounds but does not fix (e.g. "incomplete
    # primitives may or may not be counted")
    bounds: tuple[tuple[str, int, int], ...] = ()
    primitives: PrimitiveCapture | None = None              # captured records as whole primitives

