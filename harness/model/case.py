"""The case model: plain, frozen, JSON-serialisable descriptions of one conformance case.

A Case knows nothing about backends or pytest. It says what to build (GLSL per stage, vertex
data), what to do (draw commands and the state each sets), what to read back (transform
feedback captures, queries) and what the spec says must come back (expected named quantities).
The steps are in harness/model/steps.py, what is read back and expected in
harness/model/expectations.py, the JSON form in harness/model/codec.py; every name is
importable from here.
"""
from __future__ import annotations

import re
import typing
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from harness.model import codec
from harness.model.codec import SCHEMA, CaseError
from harness.model.expectations import (CAPTURE_TYPES, Capture, CapturedPrimitive, ExpectedPixel, ExpectedRecord,
                                        Expectation, PrimitiveCapture, Probe, QueryValue, Readback, RecordGroup,
                                        STATISTICS, StorageProbe, TessCoordCheck, ValueSet)
from harness.model.glfacts import INDEX_TYPES, STAGE_KEYS
from harness.model.steps import (LIST_MODES, CallList, Clear, DeleteList, Dispatch, Draw, DrawEntry, DrawState, Link,
                                 NewList, ProgramQuery, Read, SetState, Step, Texture, Uniform, step_draw, step_label,
                                 step_state)

# The names the rest of the harness imports from here: the case and every part of it.
__all__ = ["CAPTURE_TYPES", "ID_RE", "LIST_MODES", "SCHEMA", "Attribute", "CallList", "Capture", "CapturedPrimitive",
           "Case", "CaseError", "Clear", "DeleteList", "Dispatch", "Draw", "DrawEntry", "DrawState", "ExpectedPixel",
           "ExpectedRecord", "Expectation", "Link", "NewList", "PrimitiveCapture", "Probe", "ProgramQuery", "QueryValue",
           "Read", "Readback", "RecordGroup", "Requirements", "SetState", "StorageProbe", "Step", "TessCoordCheck", "Texture", "Uniform", "ValueSet",
           "step_draw", "step_label", "step_state"]

# A case id is a '/'-separated path of tokens, the first the family. It is the one name of a case in
# pytest node ids, JUnit, results, baselines and -k; keep it stable across releases. The
# characters are those pytest's -k accepts in a name (no commas, no spaces).
ID_RE = re.compile(r"^[a-z][a-z0-9_]*(/[A-Za-z0-9][A-Za-z0-9_.+-]*)+$")


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
    type: str = "float"                                     # "int" or "uint": glVertexAttribIPointer, 32-bit
    # "TEXTURE_COORD": not a generic attribute (`location` unused) but the compatibility texture
    # coordinate array of unit 0 (glTexCoordPointer, gl_MultiTexCoord0), where shader_runner's
    # `draw rect tex` puts coordinates for a program without a `piglit_vertex` attribute.
    # "EDGE_FLAG": the compatibility edge flag array (glEdgeFlagPointer), one 0 or 1 per vertex.
    array: str = ""


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

    def __post_init__(self) -> None:
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
        if self.index_type not in INDEX_TYPES or any(d.index_type and d.index_type not in INDEX_TYPES
                                                       for d in self.draws()):
            raise CaseError(f"case {self.id}: unknown index type {self.index_type!r}")
        if any(d.restart_fixed and d.restart_index is not None for d in self.draws()):
            raise CaseError(f"case {self.id}: a draw with restart_fixed names no restart_index")
        quantities = [cap.quantity for cap in self.readback.captures]
        if len(set(quantities)) != len(quantities):
            raise CaseError(f"case {self.id}: two captures name the same quantity")
        unknown = set(self.readback.statistics) - set(STATISTICS)
        if unknown:
            raise CaseError(f"case {self.id}: unknown statistics {sorted(unknown)}; known: {', '.join(STATISTICS)}")

    def shader(self, stage: str) -> str | None:
        return dict(self.shaders).get(stage)

    def elements(self, index_type: str = "") -> tuple[int, ...]:
        """The element array (`indices` written as `index_type`) read as `index_type` ("": as
        written): the index values a draw that reads it as that type sees."""
        if not index_type or index_type == self.index_type:
            return self.indices
        data = np.asarray(self.indices, dtype=INDEX_TYPES[self.index_type].dtype).tobytes()
        dtype = np.dtype(INDEX_TYPES[index_type].dtype)
        return tuple(int(v) for v in np.frombuffer(data[:len(data) - len(data) % dtype.itemsize], dtype=dtype))

    def index_type_of(self, draw: Draw) -> str:
        """The type `draw` reads the element array as."""
        return draw.index_type or self.index_type

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
        return codec.dumps(self)

    @classmethod
    def from_json(cls, text: str) -> Case:
        return codec.loads(cls, text)


