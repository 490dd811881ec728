"""piglit shader_runner files (`.shader_test`) as harness Cases.

A shader_test is a script: `[require]`, one section per shader stage, optional `[vertex data]`,
and a `[test]` section of commands run in order against one framebuffer (piglit's window:
250x250 RGBA8 unless `SIZE` says otherwise). The importer plays the script's state forward and
writes each drawing command as a harness Draw carrying the state in effect for it (patch
parameters, enables, clip planes, uniforms set since the previous draw, a pending clear), and
each probe as a Probe checked on the image read back after the last draw before it.

What the importer does not support (a command, a section, a requirement it does not know) makes
the case `skip`, naming the first such line: a file never passes on the part the harness
understood while ignoring the rest.

Semantics follow piglit's documented shader_runner behaviour: a shader without `#version` gets
the `GLSL >=` requirement's version; the context is compatibility for GL < 3.1 requirements,
core from 3.1 unless `GL COMPAT` is asked for; `draw rect` draws a triangle strip
(x, y) (x+w, y) (x, y+h) (x+w, y+h) through attribute 0 (`piglit_vertex`, which aliases
`gl_Vertex` in compatibility contexts), and `draw rect tex` its coordinates through attribute 1
(`piglit_texcoord`), or, in a compatibility context whose program has no `piglit_vertex`, through
the texture coordinate array of gl_MultiTexCoord0; `ortho` loads glOrtho(0, w, 0, h, -1, 1) as the
projection; probe tolerance defaults to 3/256 a channel (an 8-bit channel) and a channel
passes when |observed - expected| <= tolerance. `atomic counters N` binds N zeroed counters at
GL_ATOMIC_COUNTER_BUFFER binding 0 and `probe atomic counter I == V` reads counter I at its line.
A file that draws but probes nothing passes in shader_runner when its program links and its
commands run; the harness checks that, and that no step leaves a GL error.
"""
from __future__ import annotations

import dataclasses
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from harness.model.case import (ID_RE, Attribute, CallList, Case, Clear, DeleteList, Dispatch, Draw, DrawEntry, DrawState,
                          Expectation, Link, NewList, Probe, ProgramQuery, QueryValue, Read, Readback, Requirements,
                          SetState, StorageProbe, Texture, Uniform, step_label)
from harness.glsl.model import ParseError, parse
from harness.glsl.preprocess import PreprocessError, preprocess
from harness.model.glfacts import COMPUTE, GL_TYPE_ENUMS, STAGES
from harness.base.errors import CaseOutcome

FAMILY = "shader_test"
WINDOW = (250, 250)                                  # shader_runner's default window size
DEFAULT_TOLERANCE = (3.0 / 256,) * 4                 # piglit's tolerance for 8 bits a channel
STAGE_SECTIONS = {stage.piglit_section: stage.key for stage in STAGES + (COMPUTE,)}
STAGE_BY_SHADER_TYPE = {stage.shader_type: stage.key for stage in STAGES}      # `active shader program`
# GLSL version -> the GL version that brings it (what a context must offer).
GL_FOR_GLSL = {110: (2, 0), 120: (2, 1), 130: (3, 0), 140: (3, 1), 150: (3, 2), 330: (3, 3),
               400: (4, 0), 410: (4, 1), 420: (4, 2), 430: (4, 3), 440: (4, 4), 450: (4, 5), 460: (4, 6)}
MODES = ("POINTS", "LINES", "LINE_STRIP", "LINE_LOOP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN",
         "LINES_ADJACENCY", "LINE_STRIP_ADJACENCY", "TRIANGLES_ADJACENCY", "TRIANGLE_STRIP_ADJACENCY",
         "PATCHES", "QUADS", "QUAD_STRIP", "POLYGON")
UNIFORM_TYPE = re.compile(r"^(?:float|int|uint|bool|double|[iubd]?vec[234]|d?mat[234](?:x[234])?)$")
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
TEXCOORD_ARRAY = "gl_MultiTexCoord0"                 # the column of draw rect's glTexCoordPointer coordinates
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
IDENTITY = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)


class Unsupported(CaseOutcome):
    """A line the importer cannot turn into harness terms; the case is skipped naming it."""


@dataclass
class Script:
    """A shader_test split into its sections (line numbers are 1-based, for messages)."""
    require: list[tuple[int, str]] = field(default_factory=list)
    shaders: list[tuple[str, str, int]] = field(default_factory=list)     # (stage, source, line)
    passthrough_vs: bool = False
    vertex_data: list[tuple[int, str]] = field(default_factory=list)
    test: list[tuple[int, str]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)                 # sections we cannot run


def split(text: str) -> Script:
    script = Script()
    section, body, start = None, [], 0
    in_comment = False

    def close():
        if section in STAGE_SECTIONS:
            script.shaders.append((STAGE_SECTIONS[section], "".join(body), start))

    for number, line in enumerate(text.splitlines(keepends=True), 1):
        head = re.match(r"^\[([^\]]+)\]\s*$", line)
        if head:
            close()
            section, body, start = head[1].strip(), [], number + 1
            if section == "vertex shader passthrough":
                script.passthrough_vs = True
            elif section not in STAGE_SECTIONS and section not in ("require", "vertex data", "test"):
                script.unsupported.append(f"section [{section}] (line {number})")
            continue
        if section in STAGE_SECTIONS:
            body.append(line)
            continue
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        if section == "require" and (content.startswith(("/*", "*")) or in_comment):
            in_comment = "*/" not in content                 # a C comment block: text, not a requirement
            continue
        if section == "require":
            script.require.append((number, content))
        elif section == "vertex data":
            script.vertex_data.append((number, content))
        elif section == "test":
            script.test.append((number, content))
    close()
    return script


# -- ids ----------------------------------------------------------------------------------------

def case_id(path: Path) -> str:
    """`shader_test/` + the path below the nearest enclosing folder named `tests` (piglit's tree
    and this project's both have one), without `.shader_test`; where there is none, the file's
    name alone. The id does not depend on how the file was named on the command line.
    Characters a case id cannot hold become `_`."""
    path = Path(path).resolve()
    parts = path.with_suffix("").parts
    anchor = max((i for i, part in enumerate(parts[:-1]) if part == "tests"), default=None)
    below = parts[anchor + 1:] if anchor is not None else parts[-1:]
    tokens = []
    for part in below:
        token = re.sub(r"[^A-Za-z0-9_.+-]", "_", part)
        tokens.append(token if token[:1].isalnum() else "x" + token)
    text = FAMILY + "/" + "/".join(tokens)
    if not ID_RE.match(text):
        raise ValueError(f"{path}: cannot make a case id from it ({text!r})")
    return text


# -- the case -----------------------------------------------------------------------------------

def load(path: Path, id_: str | None = None) -> Case:
    path = Path(path)
    return to_case(path.read_text(errors="replace"), id_ or case_id(path), source=str(path))


def to_case(text: str, id_: str, source: str = "") -> Case:
    script = split(text)
    builder = _Builder(script)
    try:
        if script.unsupported:
            raise Unsupported(script.unsupported[0])
        builder.requirements()
        builder.program()
        builder.vertex_data()
        for number, line in script.test:
            builder.command(number, line)
        builder.finish()
    except Unsupported as exc:
        builder.unsupported = f"shader_test: unsupported {exc}"
    return builder.case(id_, source)


class _Builder:
    def __init__(self, script: Script):
        self.script = script
        self.unsupported = ""
        self.gl = (1, 0)
        self.glsl = 0
        self.profile_asked = ""                         # "core", "compat" or "" (not said)
        self.extensions: list[str] = []
        self.absent: list[str] = []
        self.limits: list[tuple[str, str, int]] = []
        self.address_space = 0                          # `rlimit N`
        self.size = WINDOW
        self.shaders: list[tuple[str, str]] = []
        # vertex attributes: name -> [location, components, rows]
        self.columns: dict[str, list] = {}
        self.types: dict[str, str] = {}                 # vertex data column -> float, int or uint
        self.rows = 0
        self.steps: list = []                           # the case's steps (harness.model.case.Step)
        # step index -> what its observation must hold
        self.expect: dict[int, list[Probe]] = {}
        self.expect_counts: dict[int, list[tuple[str, int]]] = {}     # (count name, value)
        self.queries: dict[int, list[QueryValue]] = {}                # answers its queries must give
        self.storage: dict[int, list[StorageProbe]] = {}              # `probe ssbo` checks
        self.atomic_counters = 0                        # `atomic counters N`
        self.gl_error = False                           # the case checks glGetError after each step
        # the script's state
        self.clear_color = (0.0, 0.0, 0.0, 0.0)
        self.tolerance = DEFAULT_TOLERANCE
        self.patch_vertices = 3
        self.default_outer, self.default_inner = (1.0,) * 4, (1.0,) * 2
        self.enabled: list[str] = []
        self.planes: dict[int, tuple] = {}
        self.polygon_mode = ""
        self.front_face = ""
        self.provoking_vertex = ""
        self.textures: dict[int, Texture] = {}          # unit -> the texture a `texture` command made
        self.active_unit = 0
        self.projection: tuple | None = None
        self.uniforms: list[Uniform] = []
        self.link = ""                                  # "success" or "error": a `link ...` command
        self.separable = False                          # `SSO ENABLED`
        self.active_stage = ""                          # `active shader program GL_<STAGE>_SHADER` (SSO)
        self.list_mode = ""                             # inside `newlist`: COMPILE or COMPILE_AND_EXECUTE
        self.list_patch: dict = {}                      # patch parameters compiled into the open list
        self.list_steps = 0                             # len(self.steps) when the open list began
        self.list_contents: dict | None = None          # the last list's patch parameters; None: no list
        self.pending_storage: list[tuple[int, int]] = []   # `ssbo` commands since the previous step
        self.rebound = ""                                  # a `probe ssbo` of a binding other than 0

    # -- [require] ---------------------------------------------------------------------------
    def requirements(self) -> None:
        for number, line in self.script.require:
            m = re.match(r"^GL(?:\s+(CORE|COMPAT))?\s*>=\s*(\d+)\.(\d+)$", line)
            if m:
                self.gl = max(self.gl, (int(m[2]), int(m[3])))
                self.profile_asked = {"CORE": "core", "COMPAT": "compat"}.get(m[1] or "", self.profile_asked)
                continue
            m = re.match(r"^GLSL\s*>=\s*(\d+)\.(\d+)$", line)
            if m:
                self.glsl = int(m[1]) * 100 + int(m[2])
                continue
            m = re.match(r"^(!?)(GL_\w+)$", line)
            if m:
                (self.absent if m[1] else self.extensions).append(m[2])
                continue
            m = re.match(r"^(?:INT\s+)?(GL_MAX_\w+)\s*(>=|==)\s*(\d+)$", line)
            if m:
                self.limits.append((m[1], m[2], int(m[3])))
                continue
            if line == "SSO ENABLED":          # each stage its own separable program, in a pipeline
                self.separable = True
                continue
            m = re.match(r"^rlimit\s+(\d+)$", line)
            if m:
                self.address_space = int(m[1])
                continue
            m = re.match(r"^SIZE\s+(\d+)\s+(\d+)$", line)
            if m:
                self.size = (int(m[1]), int(m[2]))
                continue
            raise Unsupported(f"requirement {line!r} (line {number})")
        if not self.glsl:
            raise Unsupported("file: no GLSL requirement (shader_runner needs one)")
        if self.glsl not in GL_FOR_GLSL:
            raise Unsupported(f"requirement GLSL {self.glsl // 100}.{self.glsl % 100:02d} (not desktop GLSL)")
        self.gl = max(self.gl, GL_FOR_GLSL[self.glsl])

    @property
    def profile(self) -> str:
        if self.profile_asked:
            return self.profile_asked
        return "core" if self.gl >= (3, 1) else "compat"

    # -- shaders -----------------------------------------------------------------------------
    def program(self) -> None:
        version = f"#version {self.glsl}\n"
        if self.script.passthrough_vs:
            keyword = "in" if self.glsl >= 130 else "attribute"
            self.shaders.append(("vs", f"{version}{keyword} vec4 piglit_vertex;\n"
                                       "void main() { gl_Position = piglit_vertex; }\n"))
        for stage, source, _ in self.script.shaders:     # several sections of a stage: all attached
            self.shaders.append((stage, source if "#version " in source else version + source))
        if not self.shaders:
            raise Unsupported("file: no shader (fixed-function tests)")

    def _vs_reads(self, name: str) -> bool:
        return any(re.search(rf"\b{name}\b", source) for stage, source in self.shaders if stage == "vs")

    # -- [vertex data] -----------------------------------------------------------------------
    def vertex_data(self) -> None:
        lines = self.script.vertex_data
        if not lines:
            return
        number, header = lines[0]
        layout = []
        for column in header.split():
            # name/type/size, or name/type/size/K: piglit_vbo's matrix column K, at the name's location + K
            m = re.match(r"^(\w+)/(\w+)/(?:[iu]?vec)?([1-4])(?:/([0-3]))?$", column) or \
                re.match(r"^(\w+)/(float|int|uint)/(float|int|uint)()$", column)
            if not m or m[2] not in ("float", "int", "uint"):
                raise Unsupported(f"vertex data column {column!r} (line {number}); float, int and uint columns only")
            key = f"{m[1]}/{m[4]}" if m[4] else m[1]
            layout.append((key, 1 if not m[3].isdigit() else int(m[3])))
            self.types[key] = m[2]
        # piglit_vbo finds a name's location with glGetAttribLocation after linking, so an explicit
        # layout(location) wins over the location the harness binds
        explicit = self._explicit_locations({n.split("/")[0] for n, _ in layout})
        taken = {0} if self._rect_position_needed(layout) else set()
        for name, _ in layout:                   # explicit locations (and their columns) first
            base, _, column = name.partition("/")
            if base in explicit:
                taken.add(explicit[base] + int(column or 0))
        for name, components in layout:
            if "/" in name:
                continue
            if name in ("piglit_vertex", "gl_Vertex"):
                location = 0
            elif name.isdigit():
                location = int(name)
            elif name in explicit:
                location = explicit[name]
            else:
                location = min(set(range(len(layout) + 2)) - taken)
            taken.add(location)
            self.columns[name] = [location, components, []]
        for name, components in layout:
            if "/" in name:
                base, column = name.split("/")
                base_location = explicit.get(base, self.columns.get(base, [None])[0])
                if base_location is None:
                    raise Unsupported(f"vertex data column {name!r} (line {number}): no location for {base!r} "
                                      f"(neither an explicit one nor a column of its own)")
                self.columns[name] = [base_location + int(column), components, []]
        width = sum(c for _, c in layout)
        for number, row in lines[1:]:
            values = row.split()
            if len(values) != width:
                raise Unsupported(f"vertex data row {row!r} (line {number}): {len(values)} values, "
                                  f"the header names {width}")
            at = 0
            for name, components in layout:
                read = _float if self.types[name] == "float" else _integer
                self.columns[name][2].extend(read(v) for v in values[at:at + components])
                at += components
            self.rows += 1

    def _explicit_locations(self, names: set[str]) -> dict[str, int]:
        """The VS inputs among `names` that have a layout(location = N)."""
        found = {}
        for stage, source in self.shaders:
            if stage != "vs" or "location" not in source:
                continue
            try:
                shader = parse(preprocess(stage, source))
            except (ParseError, PreprocessError):
                continue                  # the driver's compiler will say; the bound locations stand
            for d in shader.variables("in"):
                if d.location is not None:
                    found.update({x.name: d.location for x in d.declarators if x.name in names})
        return found

    def _rect_position_needed(self, layout) -> bool:
        names = {n for n, _ in layout}
        return "piglit_vertex" in names or "gl_Vertex" in names or self._vs_reads("gl_Vertex") or \
            self._vs_reads("piglit_vertex") or any(re.match(r"^draw (instanced )?rect", line)
                                                   for _, line in self.script.test)

    # -- [test] ------------------------------------------------------------------------------
    def command(self, number: int, line: str) -> None:
        words = line.split()
        where = f"(line {number})"
        try:
            if self.list_mode or words[0] in ("newlist", "endlist", "calllist", "deletelist"):
                self._display_list(words, number, line)
            elif line.startswith("active shader program"):
                self._active_shader_program(words, number, line)
            elif line.startswith("clear color"):
                self.clear_color = _floats(words[2:], 4)
            elif line == "clear":
                self.steps.append(Clear(self.clear_color, f"clear (line {number})"))
            elif (patch := _patch_parameter(line, words)) is not None:
                setattr(self, *patch)
            elif line.startswith("draw arrays"):
                self._draw_arrays(words[2:], number, line)
            elif re.match(r"^draw (instanced )?rect\b", line):
                self._draw_rect(words, number, line)
            elif line.startswith("atomic counters "):
                self._atomic_counters(words, number, line)
            elif line.startswith("probe atomic counter "):
                self._probe_counter(words, number, line)
            elif line.startswith("probe ssbo "):
                self._probe_storage(words, number, line)
            elif re.match(r"^ssbo \d+ \d+$", line):
                self.pending_storage.append((int(words[1]), int(words[2])))
            elif re.match(r"^compute \d+ \d+ \d+$", line):
                self._check_rebound(f"{line} (line {number})")
                self.steps.append(Dispatch(tuple(int(w) for w in words[1:]), self._state(), f"{line} (line {number})"))
            elif line.startswith(("active uniform ", "verify program_interface_query ")):
                self._program_query(words, number, line)
            elif "probe" in words and not line.startswith("probe ssbo") and "atomic" not in words:
                self._probe(line, number)
            elif words[0] == "tolerance" and len(words) == 5:
                self.tolerance = _floats(words[1:], 4)
            elif words[0] == "uniform":
                self._uniform(words, number)
            elif words[0] == "ortho":
                self._ortho(words[1:], number)
            elif words[0] in ("enable", "disable"):
                self._enable(words, number)
            elif line.startswith("clip plane"):
                self.planes[int(words[2])] = _floats(words[3:], 4)
            elif line.startswith("polygon mode"):
                if words[2:4] != ["GL_FRONT_AND_BACK"] + words[3:4] or words[3] not in ("GL_LINE", "GL_POINT", "GL_FILL"):
                    raise Unsupported(f"command {line!r} {where}: GL_FRONT_AND_BACK only")
                self.polygon_mode = "" if words[3] == "GL_FILL" else words[3][3:]
            elif line.startswith("texture "):
                self._texture(line, number)
            elif words[0] == "texparameter" and words[1] == "2D" and words[2] in ("min", "mag") and \
                    words[3] in ("nearest", "linear") and self.textures:
                unit = self.active_unit
                field_name = f"{words[2]}_filter"
                self.textures[unit] = dataclasses.replace(self.textures[unit], **{field_name: words[3].upper()})
            elif line in ("provoking vertex first", "provoking vertex last"):
                self.provoking_vertex = "FIRST" if words[2] == "first" else ""
            elif words[0] == "frontface" and words[1:] in (["GL_CW"], ["GL_CCW"]):
                self.front_face = "CW" if words[1] == "GL_CW" else ""
            elif line in ("link success", "link error"):
                self.link = line.split()[1]
            else:
                raise Unsupported(f"command {line!r} {where}")
        except (IndexError, ValueError) as exc:
            raise Unsupported(f"command {line!r} {where}: cannot read it ({exc})") from None

    def _state(self) -> DrawState:
        planes = ()
        # every plane up to the highest one set or enabled (unset ones are GL's initial 0, 0, 0, 0),
        # where the file sets any: glClipPlane is compatibility-only, and a file that only enables
        # GL_CLIP_DISTANCEi (core) uses the shader's gl_ClipDistance
        used = list(self.planes) + [int(c[-1]) for c in self.enabled if c.startswith(("CLIP_PLANE", "CLIP_DISTANCE"))]
        if self.planes:
            planes = tuple(self.planes.get(i, (0.0,) * 4) for i in range(max(used) + 1))
        state = DrawState(patch_vertices=self.patch_vertices, default_outer=self.default_outer,
                          default_inner=self.default_inner,
                          enable=tuple(self.enabled), clip_planes=planes, uniforms=tuple(self.uniforms),
                          polygon_mode=self.polygon_mode,
                          front_face=self.front_face, projection=self.projection,
                          provoking_vertex=self.provoking_vertex,
                          textures=tuple(self.textures[u] for u in sorted(self.textures)),
                          storage_buffers=tuple(self.pending_storage))
        self.uniforms, self.pending_storage = [], []
        return state

    def _step(self, command: str, mode: str, entries: tuple, label: str) -> None:
        """A Draw step for one drawing command."""
        self._check_rebound(label)
        self.steps.append(Draw(command, mode, entries, state=self._state(), label=label))

    def _check_rebound(self, label: str) -> None:
        if self.rebound:
            raise Unsupported(f"command {label!r}: after {self.rebound}, which leaves that buffer bound at "
                              f"storage binding 0 in shader_runner")

    def _read(self, number: int, **what) -> int:
        """The index of the Read step that reads `what` (Read's fields) at this line: the last
        step, if it is a Read, gets `what` added; otherwise a new one. `ssbo` commands since the
        last step are made first."""
        if self.pending_storage:
            self.steps.append(SetState(self._state(), f"storage buffers (before line {number})"))
        last = self.steps[-1] if self.steps else None
        if not isinstance(last, Read):
            acted = [s for s in self.steps if not isinstance(s, (SetState, Read))]
            last = Read(f"read back after {step_label(acted, len(acted) - 1) if acted else 'the start'}")
            self.steps.append(last)
        added = {"image": last.image or what.get("image", False),
                 "counters": last.counters or what.get("counters", False),
                 "storage": tuple(sorted(set(last.storage) | set(what.get("storage", ())))),
                 "queries": last.queries + tuple(what.get("queries", ()))}
        self.steps[-1] = dataclasses.replace(last, **added)
        return len(self.steps) - 1

    def _draw_arrays(self, words: list[str], number: int, line: str) -> None:
        instanced = words[:1] == ["instanced"]
        if instanced:
            words = words[1:]
        mode = words[0].removeprefix("GL_")
        if mode not in MODES:
            raise Unsupported(f"command {line!r} (line {number}): primitive mode {words[0]}")
        first, count = int(words[1]), int(words[2])
        instances = int(words[3]) if instanced else 1
        if self.columns and first + count > self.rows:
            raise Unsupported(f"command {line!r} (line {number}): draws vertices the [vertex data] does not have")
        command = "DrawArraysInstanced" if instanced else "DrawArrays"
        self._step(command, mode, (DrawEntry(count, instances, first),), f"{line} (line {number})")

    def _draw_rect(self, words: list[str], number: int, line: str) -> None:
        instanced = words[1] == "instanced"
        words = words[3:] if instanced else words[2:]
        flags = set()
        while words and words[0] in ("ortho", "patch", "tex"):
            flags.add(words.pop(0))
        instances = int(words.pop(0)) if instanced else 1
        x, y, w, h = _floats(words[:4], 4)
        if "tex" in flags:
            if len(words) != 8:
                raise Unsupported(f"command {line!r} (line {number}): expected 8 numbers")
            # piglit_draw_rect_from_arrays: a compatibility context whose program has no
            # `piglit_vertex` attribute gets the coordinates through glTexCoordPointer
            fixed = self.profile == "compat" and not self._vs_reads("piglit_vertex")
            if self._vs_reads("gl_MultiTexCoord0") and not fixed:
                raise Unsupported(f"command {line!r} (line {number}): texture coordinates through "
                                  f"gl_MultiTexCoord0 (fixed-function arrays)")
            tx, ty, tw, th = _floats(words[4:], 4)
            self._append(TEXCOORD_ARRAY if fixed else "piglit_texcoord", -1 if fixed else 1, 2,
                         [tx, ty, tx + tw, ty, tx, ty + th, tx + tw, ty + th])
        elif len(words) != 4:
            raise Unsupported(f"command {line!r} (line {number}): expected 4 numbers")
        if "ortho" in flags:
            width, height = self.size
            x, y, w, h = x * 2 / width - 1, y * 2 / height - 1, w * 2 / width, h * 2 / height
        first = self.rows
        self._append("piglit_vertex", 0, 4, [x, y, 0, 1, x + w, y, 0, 1, x, y + h, 0, 1, x + w, y + h, 0, 1])
        self.rows += 4
        command = "DrawArraysInstanced" if instanced else "DrawArrays"
        mode = "PATCHES" if "patch" in flags else "TRIANGLE_STRIP"
        if "patch" in flags:
            self.patch_vertices = 4                # one patch of the four corners (and it stays 4)
        self._step(command, mode, (DrawEntry(4, instances, first),), f"{line} (line {number})")

    def _append(self, name: str, location: int, components: int, values: list[float]) -> None:
        """Add one rectangle's values to an attribute, padding every attribute to self.rows first."""
        if "gl_Vertex" in self.columns and name == "piglit_vertex":
            name = "gl_Vertex"
        column = self.columns.setdefault(name, [location, components, []])
        have = column[1]
        for i in range(4):
            column[2].extend((values[i * components:(i + 1) * components] + [0.0, 0.0, 0.0, 1.0][components:])[:have])

    def _probe(self, line: str, number: int) -> None:
        m = (re.match(r"^(relative )?probe (rect )?(rgba?)\s*\((.*?)\)\s*\((.*?)\)$", line)
             or re.match(rf"^(relative )?probe ()(rgba?)\s+({NUMBER}\s+{NUMBER})\s+(.*)$", line)
             or re.match(r"^probe (all) ()(rgba?)()\s+(.*)$", line))
        if not m:
            raise Unsupported(f"command {line!r} (line {number})")
        channels = len(m[3])
        expected = _floats(re.split(r"[\s,]+", m[5].strip()), channels, extra_ok=True)
        width, height = self.size
        if m[1] == "all":
            rect = (0, 0, width, height)
        else:
            where = _floats(re.split(r"[\s,]+", m[4].strip()), 4 if m[2] else 2)
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
            raise Unsupported(f"command {line!r} (line {number}): probes outside the {width}x{height} window")
        self.expect.setdefault(self._read(number, image=True), []).append(
            Probe(f"{line} (line {number})", x, y, w, h, expected, self.tolerance))

    def _atomic_counters(self, words: list[str], number: int, line: str) -> None:
        """shader_runner's `atomic counters N`: N GLuint counters, all 0, bound at
        GL_ATOMIC_COUNTER_BUFFER binding 0 from here on (the harness binds it before the draws)."""
        if len(words) != 3 or self.steps or self.atomic_counters or int(words[2], 10) < 1:
            raise Unsupported(f"command {line!r} (line {number}): once, before any draw, only")
        self.atomic_counters = int(words[2], 10)

    def _probe_counter(self, words: list[str], number: int, line: str) -> None:
        """`probe atomic counter I == V`: counter I, read back at this line."""
        if len(words) != 6 or words[4] != "==":
            raise Unsupported(f"command {line!r} (line {number}): `probe atomic counter I == V` only")
        index, value = int(words[3], 10), int(words[5], 10)
        if not 0 <= index < self.atomic_counters:
            raise Unsupported(f"command {line!r} (line {number}): counter {index}, the file makes "
                              f"{self.atomic_counters}")
        self.expect_counts.setdefault(self._read(number, counters=True), []).append((f"atomic counter {index}", value))

    def _program_query(self, words: list[str], number: int, line: str) -> None:
        """`active uniform NAME PNAME VALUE` and `verify program_interface_query INTERFACE NAME
        PNAME VALUE`, made at this line; VALUE an integer or a GL type enum."""
        if words[0] == "active":
            interface, (name, pname, value) = "", words[2:5]
            known = UNIFORM_PNAMES
        else:
            interface, name, pname, value = words[2:6]
            known = RESOURCE_PROPS
            if interface not in INTERFACES:
                raise Unsupported(f"command {line!r} (line {number}): program interface {interface}")
        if pname not in known:
            raise Unsupported(f"command {line!r} (line {number}): property {pname}")
        enum = value in GL_TYPE_ENUMS
        expected = GL_TYPE_ENUMS[value] if enum else _integer(value)
        label = f"{line} (line {number})"
        index = self._read(number, queries=(ProgramQuery(label, interface, name, pname),))
        self.queries.setdefault(index, []).append(QueryValue(label, expected, enum))

    def _probe_storage(self, words: list[str], number: int, line: str) -> None:
        """`probe ssbo int|uint|float N OFFSET OP VALUE`: the value at byte OFFSET of the storage
        buffer at binding N, read at this line."""
        if len(words) != 7 or words[2] not in ("int", "uint", "float") or words[5] not in COMPARISONS:
            raise Unsupported(f"command {line!r} (line {number}): int, uint and float probes with "
                              f"{', '.join(COMPARISONS)} only")
        type_, binding, offset, op = words[2], int(words[3]), int(words[4]), words[5]
        if type_ == "float":                     # shader_runner reads it as a C float
            value = struct.unpack("<f", struct.pack("<f", float(words[6])))[0]
        else:
            value = _integer(words[6]) & 0xFFFFFFFF if type_ == "uint" else _integer(words[6])
        index = self._read(number, storage=(binding,))
        if binding != 0:
            self.rebound = f"`probe ssbo` of binding {binding} (line {number})"
        self.storage.setdefault(index, []).append(
            StorageProbe(f"{line} (line {number})", binding, offset, type_, op, value))

    def _texture(self, line: str, number: int) -> None:
        """shader_runner's `texture rgbw UNIT (W, H)`, `texture rgbw 1D UNIT`, `texture rgbw 3D UNIT`
        and `texture checkerboard UNIT LEVEL (W, H) (colour) (colour)` on a unit; it becomes the
        unit texparameter acts on."""
        numbers = [_float(n) for n in re.findall(NUMBER, line)]
        fixed_size = re.match(r"^texture rgbw\s+([13])D\s+(\d+)$", line)
        if fixed_size:                        # piglit_rgbw_texture_1d / _3d: 4 texels, 2x2x2 texels
            unit = int(fixed_size[2])
            texture = Texture(unit, "rgbw", 4, 1, target="1D") if fixed_size[1] == "1" else \
                Texture(unit, "rgbw", 2, 2, target="3D", depth=2)
        elif re.match(r"^texture rgbw\s+\d+\s*\(", line) and len(numbers) == 3:
            unit, width, height = (int(n) for n in numbers)
            texture = Texture(unit, "rgbw", width, height)
        elif re.match(r"^texture checkerboard\s+\d+\s+\d+\s*\(", line) and len(numbers) == 12:
            unit, level, width, height = (int(n) for n in numbers[:4])
            texture = Texture(unit, "checkerboard", width, height, level=level, colors=tuple(numbers[4:]))
        else:
            raise Unsupported(f"command {line!r} (line {number}): 1D, 2D and 3D rgbw and 2D checkerboard "
                              f"textures only")
        self.textures[unit] = texture
        self.active_unit = unit

    def _uniform(self, words: list[str], number: int) -> None:
        type_, name, values = words[1], words[2], words[3:]
        if not UNIFORM_TYPE.match(type_):
            raise Unsupported(f"command 'uniform {type_} {name}' (line {number}): uniform type {type_}")
        m = re.match(r"^d?mat(\d)(?:x(\d))?$", type_)
        count = (int(m[1]) * int(m[2] or m[1])) if m else int(type_[-1]) if type_[-1].isdigit() else 1
        integer = type_.startswith(("int", "uint", "bool", "ivec", "uvec", "bvec"))
        parsed = tuple(_integer(v) if integer else _float(v) for v in values[:count])
        if len(parsed) != count:
            raise Unsupported(f"command 'uniform {type_} {name}' (line {number}): {len(parsed)} values, "
                              f"{type_} has {count}")
        if self.separable and not (self.active_stage and name[:1].isdigit()):
            # shader_runner looks a name up in the current program, and SSO files have none
            raise Unsupported(f"command 'uniform {type_} {name}' (line {number}): with SSO ENABLED, uniforms "
                              f"by location number after `active shader program` only")
        self.uniforms = [u for u in self.uniforms if (u.name, u.stage) != (name, self.active_stage)] + \
            [Uniform(name, type_, parsed, stage=self.active_stage)]

    def _active_shader_program(self, words: list[str], number: int, line: str) -> None:
        """glActiveShaderProgram(pipeline, that stage's program): later `uniform` commands set
        that program's uniforms (shader_runner's pipeline exists with SSO ENABLED only)."""
        stage = STAGE_BY_SHADER_TYPE.get(words[3]) if len(words) == 4 else None
        if not self.separable or stage is None or stage not in {s for s, _ in self.shaders}:
            raise Unsupported(f"command {line!r} (line {number}): SSO ENABLED files and a stage they have only")
        self.active_stage = stage

    def _display_list(self, words: list[str], number: int, line: str) -> None:
        """shader_runner's display list commands on one list name: `newlist MODE` makes a list
        (glGenLists) and opens it, `endlist` closes it, `calllist` and `deletelist` act on the
        last one made. Inside a list: patch parameters, then one `draw arrays`; the list holds
        just those, so a GL_COMPILE list changes no state until it is called."""
        where = f"command {line!r} (line {number})"
        if self.profile != "compat":
            raise Unsupported(f"{where}: display lists need a compatibility profile context")
        if words[0] == "newlist" and not self.list_mode and words[1:] in (["GL_COMPILE"], ["GL_COMPILE_AND_EXECUTE"]):
            self.list_mode, self.list_patch, self.list_steps = words[1][3:], {}, len(self.steps)
        elif self.list_mode and (patch := _patch_parameter(line, words)) is not None and \
                len(self.steps) == self.list_steps:
            self.list_patch[patch[0]] = patch[1]
        elif self.list_mode and line.startswith("draw arrays") and len(self.steps) == self.list_steps:
            self._draw_arrays(words[2:], number, line)
            draw = self.steps[-1]
            unset = {"patch_vertices": None, "default_outer": None, "default_inner": None}
            state = dataclasses.replace(draw.state, **{**unset, **self.list_patch})
            self.steps[-1] = NewList(self.list_mode, dataclasses.replace(draw, state=state))
        elif words == ["endlist"] and self.list_mode and len(self.steps) == self.list_steps + 1:
            if self.list_mode == "COMPILE_AND_EXECUTE":
                self._run_list(self.list_patch)
            self.list_mode, self.list_contents = "", self.list_patch
        elif words in (["calllist"], ["deletelist"]) and not self.list_mode and self.list_contents is not None:
            call = words[0] == "calllist"
            label = f"{line} (line {number})"
            self.steps.append(CallList(self._state(), label) if call else DeleteList(label))
            if call:
                self._run_list(self.list_contents)
            else:
                self.list_contents = None
        else:
            raise Unsupported(f"{where}: display lists holding patch parameters and then one `draw arrays` only, "
                              f"one list at a time")

    def _run_list(self, patch: dict) -> None:
        """The script's state after the list's commands ran."""
        for name, value in patch.items():
            setattr(self, name, value)

    def _ortho(self, args: list[str], number: int) -> None:
        if self.profile == "core":
            raise Unsupported(f"command 'ortho' (line {number}) in a core profile context (no matrix stack)")
        left, right, bottom, top = (0.0, float(self.size[0]), 0.0, float(self.size[1])) if not args \
            else _floats(args, 4)
        self.projection = (2 / (right - left), 0.0, 0.0, 0.0, 0.0, 2 / (top - bottom), 0.0, 0.0,
                           0.0, 0.0, -1.0, 0.0,
                           -(right + left) / (right - left), -(top + bottom) / (top - bottom), 0.0, 1.0)

    def _enable(self, words: list[str], number: int) -> None:
        cap = words[1].removeprefix("GL_")
        if not re.match(r"^(CLIP_PLANE\d|CLIP_DISTANCE\d|VERTEX_PROGRAM_TWO_SIDE|PROGRAM_POINT_SIZE|"
                        r"VERTEX_PROGRAM_POINT_SIZE|CULL_FACE)$", cap):
            raise Unsupported(f"command {' '.join(words)!r} (line {number}): capability {words[1]}")
        if words[0] == "enable" and cap not in self.enabled:
            self.enabled.append(cap)
        elif words[0] == "disable" and cap in self.enabled:
            self.enabled.remove(cap)

    # -- the result ----------------------------------------------------------------------------
    def finish(self) -> None:
        if self.link == "error" or not self.steps:
            # shader_runner's check is then the link alone: `link error` passes when the program
            # does not link, a file without steps when it does
            if self.steps:
                raise Unsupported("file: `link error` with draws or probes after it")
            self.steps = [Link(f"link {self.link or 'success'} (shader_runner links the program first)")]
            self.expect_counts = {0: [("link_failed", int(self.link == "error"))]}
            return
        if self.list_mode:
            raise Unsupported("file: `newlist` without `endlist`")
        if self.separable and len({s for s, _ in self.shaders}) < len(self.shaders):
            raise Unsupported("file: SSO ENABLED with several shaders a stage")
        if self.separable and (self.queries or any(isinstance(s, Dispatch) for s in self.steps)):
            raise Unsupported("file: SSO ENABLED with program queries or compute")
        if not self.expect and not self.expect_counts and not self.queries and not self.storage:
            # shader_runner then passes when the program links and the commands run; the harness
            # also asks that no draw leaves a GL error
            self.gl_error = True
            for index in range(len(self.steps)):
                self.expect_counts[index] = [("gl_error", 0)]

    def requirements_record(self) -> Requirements:
        return Requirements(gl_version=self.gl, profile=self.profile, extensions=tuple(self.extensions),
                            limits=tuple(self.limits), absent_extensions=tuple(self.absent),
                            unsupported=self.unsupported, address_space=self.address_space)

    def case(self, id_: str, source: str) -> Case:
        attributes = []
        for name, (location, components, data) in sorted(self.columns.items(), key=lambda kv: kv[1][0]):
            data = list(data) + [0.0] * (components * self.rows - len(data))      # padded to every row
            if name == TEXCOORD_ARRAY:
                attributes.append(Attribute(location, components, tuple(data), array="TEXTURE_COORD"))
                continue
            attributes.append(Attribute(location, components, tuple(data), name=name if not name.isdigit()
                                        and name != "gl_Vertex" and "/" not in name else "",
                                        type=self.types.get(name, "float")))
        expect, params = (), (("source", source),) if source else ()
        if not self.unsupported:
            checked = sorted(set(self.expect) | set(self.expect_counts) | set(self.queries) | set(self.storage))
            expect = tuple(Expectation(i, counts=tuple(self.expect_counts.get(i, ())),
                                       probes=tuple(self.expect.get(i, ())),
                                       queries=tuple(self.queries.get(i, ())),
                                       storage=tuple(self.storage.get(i, ()))) for i in checked)
        return Case(id=id_, family=FAMILY, shaders=tuple(self.shaders), requires=self.requirements_record(),
                    vertices=self.rows, attributes=tuple(attributes), steps=tuple(self.steps),
                    readback=Readback(image=self.size, clear=0.0, image_format="RGBA8", keep_image=True,
                                      atomic_counters=self.atomic_counters, gl_error=self.gl_error),
                    expect=expect, description=f"piglit shader_test {source}" if source else "piglit shader_test",
                    params=params, separable=self.separable)


def _patch_parameter(line: str, words: list[str]) -> tuple[str, object] | None:
    """A `patch parameter ...` command as the DrawState field it sets and the value; None: not one."""
    if line.startswith("patch parameter vertices"):
        return "patch_vertices", int(words[3])
    if line.startswith("patch parameter default level outer"):
        return "default_outer", _floats(words[5:], 4)
    if line.startswith("patch parameter default level inner"):
        return "default_inner", _floats(words[5:], 2)
    return None


def _float(text: str) -> float:
    """A number as shader_runner reads it: decimal, or 0x... as the bits of a float."""
    text = text.rstrip(";,")                       # shader_runner reads a number up to what follows it
    if text.lower().startswith("0x"):
        return struct.unpack("<f", struct.pack("<I", int(text, 16)))[0]
    return float(text)


def _integer(text: str) -> int:
    return int(text.rstrip(";,"), 0)


def _floats(words: list[str], count: int, extra_ok: bool = False) -> tuple[float, ...]:
    words = [w for w in words if w]
    if len(words) < count or (len(words) > count and not extra_ok):
        raise ValueError(f"expected {count} numbers, got {len(words)}")
    return tuple(_float(w) for w in words[:count])
