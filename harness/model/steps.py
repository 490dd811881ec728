"""What a case does: its steps, run in order (draw calls and, for imported shader_test scripts,
clears, state changes, dispatches, display lists and reads), and the state each sets first.

Each step leaves one observation, which the expectation naming the step's index checks. The
generated families use Draw steps only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from harness.model.glfacts import INDEX_TYPES


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
    target: str = "2D"                                      # "1D", "2D" or "3D"
    depth: int = 1


@dataclass(frozen=True)
class Uniform:
    """One glUniform* call: `name` as glGetUniformLocation takes it ("u", "a[3]", "s.m")."""
    name: str
    type: str                                               # GLSL type: float, ivec3, uint, mat2x3, ...
    values: tuple[float, ...]                               # matrices column by column
    # A stage key ("fs"): set on that stage's separable program of the bound pipeline, made its
    # active program (glActiveShaderProgram); "": on the current program. A name of digits is a
    # location.
    stage: str = ""


@dataclass(frozen=True)
class DrawState:
    """State a draw sets before it is issued; None leaves the current value alone."""
    patch_vertices: int | None = None
    default_outer: tuple[float, float, float, float] | None = None
    default_inner: tuple[float, float] | None = None
    enable: tuple[str, ...] = ()                            # capabilities without "GL_", disabled after the draw
    clip_planes: tuple[tuple[float, float, float, float], ...] = ()   # glClipPlane(GL_CLIP_PLANEi), compat
    uniforms: tuple[Uniform, ...] = ()                      # set before the draw; they stay set (program state)
    polygon_mode: str = ""                                  # "LINE" or "POINT" for this draw; "": FILL
    # Non-empty: back faces take this mode ("FILL", "LINE" or "POINT") and front faces `polygon_mode`
    # (glPolygonMode(GL_FRONT) and (GL_BACK), compatibility profile); "": both take `polygon_mode`.
    polygon_mode_back: str = ""
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
    # True: GL_PRIMITIVE_RESTART_FIXED_INDEX enabled instead (restart_index None): the restart
    # index is 2^N - 1 of the type the draw reads its indices as (GL 4.6, 10.3.6)
    restart_fixed: bool = False
    # The type this draw reads the element array as ("UNSIGNED_BYTE", ...); "": the case's
    # index_type. The array holds Case.indices written as Case.index_type (Case.elements reads
    # it as another type); `first` counts elements of this draw's type.
    index_type: str = ""
    indirect_offset: int = 0                                # bytes into the indirect buffer
    indirect_stride: int = 0                                # bytes between indirect commands; 0 = packed
    draw_count: int | None = None                           # *IndirectCount: the count in the parameter buffer
    # Several programs (see Case.programs):
    program: int = 0                                        # which of the case's programs draws
    delete_programs: tuple[int, ...] = ()                   # glDeleteProgram on these before the draw

    def restart(self, index_type: str) -> int | None:
        """The index that restarts this draw when it reads `index_type` indices, None if none."""
        return INDEX_TYPES[index_type].fixed_restart if self.restart_fixed else self.restart_index


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


def step_draw(step: Step) -> Draw | None:
    """The draw call a step makes: a Draw itself, the draw a NewList compiles; else None."""
    return step.draw if isinstance(step, NewList) else step if isinstance(step, Draw) else None


def step_state(step: Step) -> DrawState:
    """The state a step sets before it acts (DrawState() for steps that set none)."""
    state: DrawState = getattr(step_draw(step) or step, "state", DrawState())
    return state


def step_label(steps: Sequence[Step], index: int) -> str:
    """How messages name step `index`: its label, else its kind and number ("draw 2")."""
    step = steps[index]
    label = step.draw.label if isinstance(step, NewList) else step.label
    return label or (f"draw {index}" if isinstance(step, Draw) else f"step {index} ({type(step).__name__})")

