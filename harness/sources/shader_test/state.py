"""What the importer holds while it plays a shader_test forward: what [require] asks of the
context, the vertex columns, the state the [test] commands have set for the next draw, the
display list being made, and the checks each Read step must pass."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from harness.model.case import (Attribute, DrawState, Expectation, Probe, QueryValue, Requirements, StorageProbe,
                                Texture, Uniform)

WINDOW = (250, 250)                                  # shader_runner's default window size
DEFAULT_TOLERANCE = (3.0 / 256,) * 4                 # piglit's tolerance for 8 bits a channel
TEXCOORD_ARRAY = "gl_MultiTexCoord0"                 # the column of draw rect's glTexCoordPointer coordinates

Float4 = tuple[float, float, float, float]


@dataclass
class Line:
    """One command of [test]: its line number, its text and its words."""
    number: int
    text: str
    words: list[str]

    @property
    def where(self) -> str:
        """How an unsupported-command message names it."""
        return f"command {self.text!r} (line {self.number})"

    @property
    def label(self) -> str:
        """How the step or check it makes is named."""
        return f"{self.text} (line {self.number})"


@dataclass
class Context:
    """What [require] asks of the context (GL and GLSL versions, extensions, limits), and the window."""
    gl: tuple[int, int] = (1, 0)
    glsl: int = 0
    profile_asked: str = ""                         # "core", "compat" or "" (not said)
    extensions: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    limits: list[tuple[str, str, int]] = field(default_factory=list)
    address_space: int = 0                          # `rlimit N`
    size: tuple[int, int] = WINDOW                  # `SIZE W H`
    separable: bool = False                         # `SSO ENABLED`

    @property
    def profile(self) -> str:
        if self.profile_asked:
            return self.profile_asked
        return "core" if self.gl >= (3, 1) else "compat"

    def requirements(self, unsupported: str) -> Requirements:
        return Requirements(gl_version=self.gl, profile=self.profile, extensions=tuple(self.extensions),
                            limits=tuple(self.limits), absent_extensions=tuple(self.absent),
                            unsupported=unsupported, address_space=self.address_space)


@dataclass
class Column:
    """One vertex attribute's values, row after row (ints for int and uint columns)."""
    location: int
    components: int
    data: list[float] = field(default_factory=list)


@dataclass
class Vertices:
    """The vertex attributes: [vertex data] columns and the rectangles `draw rect` adds."""
    columns: dict[str, Column] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)   # vertex data column -> float, int or uint
    rows: int = 0

    def append_rect(self, name: str, location: int, components: int, values: list[float]) -> None:
        """Add one rectangle's four vertices to an attribute (its missing components from
        (0, 0, 0, 1)); `piglit_vertex` goes to `gl_Vertex` where the file has that column."""
        if "gl_Vertex" in self.columns and name == "piglit_vertex":
            name = "gl_Vertex"
        column = self.columns.setdefault(name, Column(location, components, []))
        have = column.components
        for i in range(4):
            column.data.extend((values[i * components:(i + 1) * components] + [0.0, 0.0, 0.0, 1.0][components:])[:have])

    def attributes(self) -> tuple[Attribute, ...]:
        """The case's attributes, by location, each padded to every row."""
        attributes = []
        for name, column in sorted(self.columns.items(), key=lambda kv: kv[1].location):
            data = list(column.data) + [0.0] * (column.components * self.rows - len(column.data))
            if name == TEXCOORD_ARRAY:
                attributes.append(Attribute(column.location, column.components, tuple(data), array="TEXTURE_COORD"))
                continue
            bound = name if not name.isdigit() and name != "gl_Vertex" and "/" not in name else ""
            attributes.append(Attribute(column.location, column.components, tuple(data), name=bound,
                                        type=self.types.get(name, "float")))
        return tuple(attributes)


@dataclass
class DrawingState:
    """The state the [test] commands have set so far, which the next step carries."""
    clear_color: Float4 = (0.0, 0.0, 0.0, 0.0)
    tolerance: tuple[float, ...] = DEFAULT_TOLERANCE
    patch_vertices: int = 3
    default_outer: tuple[float, ...] = (1.0,) * 4
    default_inner: tuple[float, ...] = (1.0,) * 2
    enabled: list[str] = field(default_factory=list)
    planes: dict[int, tuple[float, ...]] = field(default_factory=dict)
    polygon_mode: str = ""
    polygon_mode_back: str = ""                     # set apart by `polygon mode GL_BACK ...`
    front_face: str = ""
    provoking_vertex: str = ""
    textures: dict[int, Texture] = field(default_factory=dict)   # unit -> the texture a `texture` command made
    active_unit: int = 0
    projection: tuple[float, ...] | None = None
    uniforms: list[Uniform] = field(default_factory=list)       # set since the previous step
    active_stage: str = ""                          # `active shader program GL_<STAGE>_SHADER` (SSO)
    pending_storage: list[tuple[int, int]] = field(default_factory=list)   # `ssbo` commands since the previous step

    def take(self) -> DrawState:
        """The DrawState of the next step; the uniforms and storage buffers it sets are then set."""
        planes: tuple[tuple[float, ...], ...] = ()
        # every plane up to the highest one set or enabled (unset ones are GL's initial 0, 0, 0, 0),
        # where the file sets any: glClipPlane is compatibility-only, and a file that only enables
        # GL_CLIP_DISTANCEi (core) uses the shader's gl_ClipDistance
        used = list(self.planes) + [int(c[-1]) for c in self.enabled if c.startswith(("CLIP_PLANE", "CLIP_DISTANCE"))]
        if self.planes:
            planes = tuple(self.planes.get(i, (0.0,) * 4) for i in range(max(used) + 1))
        # the commands read as many numbers as these hold
        outer, inner = cast(Float4, self.default_outer), cast(tuple[float, float], self.default_inner)
        state = DrawState(patch_vertices=self.patch_vertices, default_outer=outer, default_inner=inner,
                          enable=tuple(self.enabled), clip_planes=cast(tuple[Float4, ...], planes),
                          uniforms=tuple(self.uniforms), polygon_mode=self.polygon_mode,
                          polygon_mode_back=self.polygon_mode_back,
                          front_face=self.front_face, projection=self.projection,
                          provoking_vertex=self.provoking_vertex,
                          textures=tuple(self.textures[u] for u in sorted(self.textures)),
                          storage_buffers=tuple(self.pending_storage))
        self.uniforms, self.pending_storage = [], []
        return state


@dataclass
class DisplayList:
    """shader_runner's one display list: the open one (`mode` set) and what the last one holds."""
    mode: str = ""                                  # inside `newlist`: COMPILE or COMPILE_AND_EXECUTE
    patch: dict[str, Any] = field(default_factory=dict)   # patch parameters compiled into the open list
    first_step: int = 0                             # the number of steps when the open list began
    contents: dict[str, Any] | None = None       # the last list's patch parameters; None: no list


@dataclass
class Checks:
    """What the observation of each step must hold, by step index."""
    probes: dict[int, list[Probe]] = field(default_factory=dict)
    counts: dict[int, list[tuple[str, int]]] = field(default_factory=dict)   # (count name, value)
    queries: dict[int, list[QueryValue]] = field(default_factory=dict)       # answers its queries must give
    storage: dict[int, list[StorageProbe]] = field(default_factory=dict)     # `probe ssbo` checks
    gl_error: bool = False                          # the case checks glGetError after each step

    def any(self) -> bool:
        return bool(self.probes or self.counts or self.queries or self.storage)

    def expectations(self) -> tuple[Expectation, ...]:
        checked = sorted(set(self.probes) | set(self.counts) | set(self.queries) | set(self.storage))
        return tuple(Expectation(i, counts=tuple(self.counts.get(i, ())), probes=tuple(self.probes.get(i, ())),
                                 queries=tuple(self.queries.get(i, ())), storage=tuple(self.storage.get(i, ())))
                     for i in checked)
