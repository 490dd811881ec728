"""Runs a Case in a GL context of its own and returns the raw observation.

Every case runs in a context made for it and destroyed after it (context.py), so whatever
state an earlier case set, listed or not, cannot reach it. That context shares objects with
a long-lived one, which keeps linked programs across cases (only programs without uniforms,
whose state no case changes). The buffers, queries and programs a case makes are shared
objects, so the case deletes them before its context goes.
"""
from __future__ import annotations

import ctypes
import functools
import re

import numpy as np

from harness.backends import BackendError, Skip, check_requirements, readback_bytes
from harness.backends.gl.context import open_contexts, select_platform
from harness.backends.gl.draws import issue
from harness.backends.gl.objects import Objects, quietly
from harness.backends.gl.uniforms import active_program, block_property, set_uniform
from harness.glsl.model import ParseError, parse
from harness.glsl.preprocess import PreprocessError, preprocess
from harness.model.case import CallList, Case, Clear, DeleteList, Dispatch, Draw, Link, NewList, Read, step_draw, step_state
from harness.model.glfacts import INDEX_TYPES, STAGE, last_vertex_stage
from harness.model.observation import encode_records, record_dtype
from harness.base.profiling import section

LIMITS = (
    "GL_MAX_VARYING_COMPONENTS", "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
    "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS", "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS",
    "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS",
    "GL_MAX_GEOMETRY_INPUT_COMPONENTS", "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS",
    "GL_MAX_FRAGMENT_INPUT_COMPONENTS", "GL_MAX_PATCH_VERTICES", "GL_MAX_TESS_GEN_LEVEL",
    "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", "GL_MAX_CLIP_DISTANCES",
    "GL_MAX_VERTEX_ATTRIBS",
)
COMPAT_LIMITS = ("GL_MAX_TEXTURE_COORDS",)
XFB_VERTICES = {"POINTS": 1, "LINES": 2, "TRIANGLES": 3}
FB_SIZE = 32
# shader_runner's rgbw colours: red, green, blue, white (the 2D quadrants, the 1D quarters),
# then yellow, magenta, cyan, black (a 3D texture's back half)
RGBW = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1],
                 [1, 1, 0, 1], [1, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1]], dtype="<f4")
PROGRAM_CACHE_SIZE = 16     # cases that share a program come close together: 16 keep 1456 of the 1468 hits 256 did


class GLBackend:
    def __init__(self, platform: str = "egl", program_cache: bool = True, egl_device_only: bool = False):
        """`program_cache`: keep linked programs across cases (see _cacheable); `egl_device_only`:
        skip the surfaceless EGL platform (a self-test of the fallback)."""
        select_platform(platform)
        from OpenGL import GL
        self.gl = GL
        self.program_cache = program_cache
        self._contexts = open_contexts(platform, egl_device_only)
        self._facts = {}                      # profile -> version, extensions, limits
        self._programs: dict[str, dict] = {}  # profile -> linked programs, least recently used first

    @classmethod
    def from_options(cls, options) -> "GLBackend":
        return cls(options.gl_platform, options.program_cache, options.egl_platform == "device")

    # -- context facts -------------------------------------------------------------------
    def _use(self, profile: str) -> dict:
        self._contexts.make_current(profile)
        if profile not in self._facts:
            self._facts[profile] = self._query_facts(profile)
        return self._facts[profile]

    def _framebuffer(self, made: "Objects") -> None:
        """Surfaceless contexts have no default framebuffer, and draws need a complete one."""
        GL = self.gl
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, made.framebuffer(GL.glGenFramebuffers(1)))
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, made.renderbuffer(GL.glGenRenderbuffers(1)))
        GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, FB_SIZE, FB_SIZE)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, made.last())
        status = GL.glCheckFramebufferStatus(GL.GL_FRAMEBUFFER)
        if status != GL.GL_FRAMEBUFFER_COMPLETE:
            raise BackendError(f"cannot make a {FB_SIZE}x{FB_SIZE} RGBA8 framebuffer: status {hex(status)}")
        GL.glViewport(0, 0, FB_SIZE, FB_SIZE)     # a context without a surface starts with a 0x0 viewport

    def _query_facts(self, profile: str) -> dict:
        GL = self.gl
        version = GL.glGetString(GL.GL_VERSION).decode()
        match = re.match(r"(\d+)\.(\d+)", version)
        names = LIMITS + (COMPAT_LIMITS if profile == "compat" else ())
        count = GL.glGetIntegerv(GL.GL_NUM_EXTENSIONS)
        return {
            "renderer": GL.glGetString(GL.GL_RENDERER).decode(),
            "vendor": GL.glGetString(GL.GL_VENDOR).decode(),
            "version": version,
            "version_number": [int(match[1]), int(match[2])],
            "glsl_version": GL.glGetString(GL.GL_SHADING_LANGUAGE_VERSION).decode(),
            "limits": {n: int(GL.glGetIntegerv(getattr(GL, n))) for n in names},
            "extensions": sorted(GL.glGetStringi(GL.GL_EXTENSIONS, i).decode() for i in range(count)),
        }

    def info(self) -> dict:
        profiles = {p: {k: v for k, v in self._use(p).items() if k != "extensions"}
                    for p in ("core", "compat")}
        core = profiles["core"]
        return {"renderer": core["renderer"], "vendor": core["vendor"], "version": core["version"],
                "platform": self._contexts.platform, "profiles": profiles}

    # -- running a case ------------------------------------------------------------------
    batches = True                          # runs batched cases (harness/executor/batch.py): `batch`

    def run(self, case: Case, inside=None, batch: str | None = None) -> dict:
        """`inside(GL)`, if given, is called in the case's context after its draws (for a backend
        that wraps this one: the self-tests' leaves state behind with it). `batch` ("new", "keep"): run in the context of
        a batch (context.py), restoring what the case changed there afterwards."""
        facts = self._use(case.requires.profile)
        check_requirements(case, facts, lambda name: int(self.gl.glGetIntegerv(getattr(self.gl, name))))
        GL = self.gl
        with section("case context"):
            self._contexts.begin_case(case.requires.profile, batch)
        made = Objects(GL)
        try:
            with section("framebuffer"):
                self._framebuffer(made)
            if case.steps and isinstance(case.steps[0], Link):     # the whole case (see Case)
                return {"steps": [{"counts": {"link_failed": self._link_fails(case, made)}}]}
            with section("compile+link"):
                programs = self._cached_program(case) if self.program_cache and _cacheable(case) \
                    else self._program(case, made)
            with section("vertex data"):
                self._vertex_data(case, made)
            if case.readback.atomic_counters:
                self._atomic_counter_buffer(case.readback.atomic_counters, made)
            if case.readback.image:
                self._image_target(case.readback, made)
            current, observed = 0, []
            for i, step in enumerate(case.steps):
                draw = step_draw(step)
                if draw is not None:
                    for index in draw.delete_programs:         # the name stays in use while current
                        GL.glDeleteProgram(programs[index])
                        made.forget("program", programs[index])
                    if draw.program != current:
                        GL.glUseProgram(programs[draw.program])
                        current = draw.program
                observed.append(self._step(case, i, made))
            if inside is not None:
                inside(GL)
            return {"steps": observed}
        except GL.GLError as exc:
            raise BackendError(f"GL error {_error_name(GL, exc.err)} from {exc.baseOperation.__name__}"
                               f"{_args(exc)}") from None
        finally:
            made.delete()                   # shared objects outlive the context: delete them first
            if batch:
                self._restore(case)
            with section("case context"):
                self._contexts.end_case()

    def _restore(self, case: Case) -> None:
        """Back to GL's initial values, in a batch's context, what the runner sets for a case and
        leaves set (a context per case drops it): bindings, the program, rasterizer discard,
        patch parameters, clip plane equations. What a case's own state leaves otherwise, the
        batch's audit and confirmations catch (harness/executor/batch.py)."""
        GL = self.gl
        quietly(GL.glUseProgram, 0)
        quietly(GL.glBindProgramPipeline, 0)
        quietly(GL.glBindVertexArray, 0)
        quietly(GL.glBindFramebuffer, GL.GL_FRAMEBUFFER, 0)
        quietly(GL.glDisable, GL.GL_RASTERIZER_DISCARD)
        quietly(GL.glDisable, GL.GL_PRIMITIVE_RESTART)
        quietly(GL.glActiveTexture, GL.GL_TEXTURE0)
        states = [step_state(step) for step in case.steps if step_state(step) is not None]
        if any(s.patch_vertices is not None or s.default_outer is not None or s.default_inner is not None
               for s in states):
            quietly(GL.glPatchParameteri, GL.GL_PATCH_VERTICES, 3)
            quietly(GL.glPatchParameterfv, GL.GL_PATCH_DEFAULT_OUTER_LEVEL, (ctypes.c_float * 4)(1, 1, 1, 1))
            quietly(GL.glPatchParameterfv, GL.GL_PATCH_DEFAULT_INNER_LEVEL, (ctypes.c_float * 2)(1, 1))
        for i in range(max((len(s.clip_planes) for s in states), default=0)):
            quietly(GL.glClipPlane, GL.GL_CLIP_PLANE0 + i, (ctypes.c_double * 4)(0, 0, 0, 0))

    def _cached_program(self, case: Case) -> list[int]:
        """Linked programs are kept across cases, keyed by everything that goes into linking:
        a program holds no state a case changes (these cases set no uniforms)."""
        key = (case.shaders, tuple((c.varying, c.type) for c in case.readback.captures),
               tuple((a.name, a.location) for a in case.attributes if a.name),
               case.requires.link_failure_allowed)
        cache = self._programs.setdefault(case.requires.profile, {})     # programs belong to a context
        if key in cache:
            cache[key] = cache.pop(key)                   # most recently used last
        else:
            shaders = Objects(self.gl)
            program = int(self.gl.glCreateProgram())
            try:
                self._link(case, program, case.shaders, shaders, {})
            except BaseException:
                self.gl.glDeleteProgram(program)
                raise
            finally:
                shaders.delete()                          # the linked program no longer needs them
            cache[key] = program
            if len(cache) > PROGRAM_CACHE_SIZE:
                self.gl.glDeleteProgram(cache.pop(next(iter(cache))))
        self.gl.glUseProgram(cache[key])
        return [cache[key]]

    def _program(self, case: Case, made: "Objects") -> list[int]:
        """Compile and link the case's programs (or one separable program per stage), bind the
        first and return them all. A (stage, source) that several programs list is compiled
        once, and that one shader object is attached to each of them."""
        GL = self.gl
        if case.separable:
            pipeline = made.pipeline(GL.glGenProgramPipelines(1))
            last = last_vertex_stage(stage for stage, _ in case.shaders)
            for stage, source in case.shaders:
                program = made.program(GL.glCreateProgram())
                GL.glProgramParameteri(program, GL.GL_PROGRAM_SEPARABLE, GL.GL_TRUE)
                self._link(case, program, [(stage, source)], made, {}, capture=stage == last)
                GL.glUseProgramStages(pipeline, getattr(GL, STAGE[stage].pipeline_bit), program)
            GL.glBindProgramPipeline(pipeline)
            return []
        compiled, programs = {}, []
        for index, shaders in enumerate((case.shaders,) + case.programs):
            program = made.program(GL.glCreateProgram())
            self._link(case, program, shaders, made, compiled,
                       f"program {index}: " if case.programs else "")
            self._uniform_buffers(program, shaders, made)
            programs.append(program)
        GL.glUseProgram(programs[0])
        return programs

    def _link_fails(self, case: Case, made: "Objects") -> int:
        """1 if the case's program (each of its separable programs) fails to link, else 0; a
        shader that does not compile fails the case, as in shader_runner."""
        GL = self.gl
        groups = [[shader] for shader in case.shaders] if case.separable else [case.shaders]
        last = last_vertex_stage(stage for stage, _ in case.shaders)
        for shaders in groups:
            program = made.program(GL.glCreateProgram())
            if case.separable:
                GL.glProgramParameteri(program, GL.GL_PROGRAM_SEPARABLE, GL.GL_TRUE)
            try:
                self._link(case, program, shaders, made, {},
                           capture=not case.separable or any(stage == last for stage, _ in shaders))
            except _LinkFailed:
                return 1
        return 0

    def _link(self, case: Case, program: int, shaders, made: "Objects", compiled: dict,
              which: str = "", capture: bool = True) -> None:
        """`capture`: the program holds the last vertex-processing stage, whose outputs transform
        feedback records (a separable pipeline's other programs name no varyings)."""
        GL = self.gl
        for stage, source in shaders:
            shader = compiled.get((stage, source))
            if shader is None:
                shader = made.shader(GL.glCreateShader(getattr(GL, STAGE[stage].shader_type)))
                GL.glShaderSource(shader, source)
                GL.glCompileShader(shader)
                if not GL.glGetShaderiv(shader, GL.GL_COMPILE_STATUS):
                    log = _text(GL.glGetShaderInfoLog(shader))
                    raise BackendError(f"{which}{stage.upper()} failed to compile:\n{log}")
                compiled[(stage, source)] = shader
            GL.glAttachShader(program, shader)
        for attr in case.attributes:
            if attr.name:
                GL.glBindAttribLocation(program, attr.location, attr.name)
        names = [c.varying.encode() for c in case.readback.captures] if capture else []
        if names:
            array = (ctypes.c_char_p * len(names))(*names)
            array = ctypes.cast(array, ctypes.POINTER(ctypes.POINTER(ctypes.c_char)))
            GL.glTransformFeedbackVaryings(program, len(names), array, GL.GL_INTERLEAVED_ATTRIBS)
        GL.glLinkProgram(program)
        if not GL.glGetProgramiv(program, GL.GL_LINK_STATUS):
            log = _text(GL.glGetProgramInfoLog(program))
            if case.requires.link_failure_allowed:
                raise Skip(f"{case.requires.link_failure_allowed}; the program did not link: "
                           f"{log.splitlines()[0] if log else 'no log'}")
            raise _LinkFailed(f"{which or 'program '}failed to link:\n{log}")

    def _uniform_buffers(self, program: int, shaders, made: "Objects") -> None:
        """A zeroed buffer for each active uniform block, bound to binding point i for block i
        unless the shaders give bindings themselves, as shader_runner does; `uniform` commands
        naming a block member write into it (set_uniform)."""
        GL = self.gl
        explicit = any(re.search(r"layout\s*\([^)]*\bbinding\b", source) for _, source in shaders)
        for block in range(int(GL.glGetProgramiv(program, GL.GL_ACTIVE_UNIFORM_BLOCKS))):
            if not explicit:
                GL.glUniformBlockBinding(program, block, block)
            binding = block_property(GL, program, block, GL.GL_UNIFORM_BLOCK_BINDING)
            size = block_property(GL, program, block, GL.GL_UNIFORM_BLOCK_DATA_SIZE)
            GL.glBindBuffer(GL.GL_UNIFORM_BUFFER, made.buffer(GL.glGenBuffers(1)))
            GL.glBufferData(GL.GL_UNIFORM_BUFFER, size, bytes(size), GL.GL_DYNAMIC_DRAW)
            GL.glBindBufferBase(GL.GL_UNIFORM_BUFFER, binding, made.last())
        GL.glBindBuffer(GL.GL_UNIFORM_BUFFER, 0)

    def _vertex_data(self, case: Case, made: "Objects") -> None:
        GL = self.gl
        GL.glBindVertexArray(made.vertex_array(GL.glGenVertexArrays(1)))
        for attr in case.attributes:
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, made.buffer(GL.glGenBuffers(1)))
            integer = {"int": ("<i4", GL.GL_INT), "uint": ("<u4", GL.GL_UNSIGNED_INT)}.get(attr.type)
            data = np.asarray(attr.data, dtype=integer[0] if integer else "<f4").tobytes()
            GL.glBufferData(GL.GL_ARRAY_BUFFER, len(data), data, GL.GL_STATIC_DRAW)
            if attr.array == "TEXTURE_COORD":          # the compatibility array of gl_MultiTexCoord0
                GL.glClientActiveTexture(GL.GL_TEXTURE0)
                GL.glTexCoordPointer(attr.components, GL.GL_FLOAT, 0, None)
                GL.glEnableClientState(GL.GL_TEXTURE_COORD_ARRAY)
                continue
            if integer:
                GL.glVertexAttribIPointer(attr.location, attr.components, integer[1], 0, None)
            else:
                GL.glVertexAttribPointer(attr.location, attr.components, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
            GL.glVertexAttribDivisor(attr.location, attr.divisor)
            GL.glEnableVertexAttribArray(attr.location)
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, 0)
        if case.indices:                               # the element array binding is VAO state
            GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, made.buffer(GL.glGenBuffers(1)))
            data = np.asarray(case.indices, dtype=INDEX_TYPES[case.index_type].dtype).tobytes()
            GL.glBufferData(GL.GL_ELEMENT_ARRAY_BUFFER, len(data), data, GL.GL_STATIC_DRAW)

    def _image_target(self, readback, made: "Objects") -> None:
        GL = self.gl
        size = readback.image
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, made.framebuffer(GL.glGenFramebuffers(1)))
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, made.renderbuffer(GL.glGenRenderbuffers(1)))
        fmt = GL.GL_RGBA8 if readback.image_format == "RGBA8" else GL.GL_RGBA32F
        GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, fmt, *size)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER,
                                     made.last())
        GL.glViewport(0, 0, *size)
        if readback.keep_image:          # starts cleared; draws then add to it
            GL.glClearBufferfv(GL.GL_COLOR, 0, (ctypes.c_float * 4)(0, 0, 0, 0))

    def _read_image(self, readback) -> str:
        GL = self.gl
        width, height = readback.image
        raw = GL.glReadPixels(0, 0, width, height, GL.GL_RGBA, GL.GL_FLOAT)
        return encode_records(np.asarray(raw, dtype="<f4").tobytes())

    def _step(self, case: Case, index: int, made: "Objects") -> dict:
        """Run step `index` and return its observation."""
        GL, step = self.gl, case.steps[index]
        if isinstance(step, Read):
            return self._read(case, step)
        if isinstance(step, Clear):
            GL.glClearBufferfv(GL.GL_COLOR, 0, (ctypes.c_float * 4)(*step.color))
        elif isinstance(step, DeleteList):
            name = self._last_list(step, made)
            GL.glDeleteLists(name, 1)
            made.forget("display_list", name)
        else:
            with section("draw+readback"):
                return self._draw(case, step, made)
        return {"counts": {"gl_error": int(GL.glGetError())} if case.readback.gl_error else {}}

    def _draw(self, case: Case, step, made: "Objects") -> dict:
        """A step that sets state and then acts (Draw, NewList, CallList, Dispatch, SetState),
        inside the primitive queries and transform feedback of the case."""
        GL = self.gl
        readback, state = case.readback, step_state(step)
        if not isinstance(step, NewList):           # a list's are compiled into it
            self._patch_parameters(state)
        for i, plane in enumerate(state.clip_planes):
            GL.glClipPlane(GL.GL_CLIP_PLANE0 + i, (ctypes.c_double * 4)(*plane))
        for cap in state.enable:
            GL.glEnable(_capability(GL, cap))
        per_draw_image = readback.image and not readback.keep_image
        if per_draw_image:
            GL.glClearBufferfv(GL.GL_COLOR, 0, (ctypes.c_float * 4)(*[readback.clear] * 4))
        extra = _state_extras(state)
        if extra:
            self._set_extras(case, state, made)

        stride = record_dtype(readback.captures).itemsize
        xfb = None
        if readback.captures:
            xfb = made.buffer(GL.glGenBuffers(1))
            GL.glBindBuffer(GL.GL_TRANSFORM_FEEDBACK_BUFFER, xfb)
            GL.glBufferData(GL.GL_TRANSFORM_FEEDBACK_BUFFER, stride * readback.max_records, None, GL.GL_STATIC_READ)
            GL.glBindBufferBase(GL.GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb)
            GL.glEnable(GL.GL_RASTERIZER_DISCARD)
        queries = {"primitives_generated": GL.GL_PRIMITIVES_GENERATED}
        if xfb is not None:
            queries["xfb_primitives_written"] = GL.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
        ids = {name: made.query(GL.glGenQueries(1)) for name in queries}
        active = []
        try:
            for name, target in queries.items():
                GL.glBeginQuery(target, ids[name])
                active.append(target)
            if xfb is not None:
                GL.glBeginTransformFeedback(getattr(GL, "GL_" + readback.xfb_primitive))
                active.append("xfb")
            restart = getattr(step_draw(step), "restart_index", None)
            if restart is not None:
                GL.glEnable(GL.GL_PRIMITIVE_RESTART)
                GL.glPrimitiveRestartIndex(restart)
            if isinstance(step, NewList):
                self._new_list(case, step, made)
            elif isinstance(step, CallList):
                GL.glCallList(self._last_list(step, made))
            elif isinstance(step, Dispatch):            # shader_runner's `compute`, between barriers
                GL.glMemoryBarrier(GL.GL_ALL_BARRIER_BITS)
                GL.glDispatchCompute(*step.work_groups)
                GL.glMemoryBarrier(GL.GL_ALL_BARRIER_BITS)
            elif isinstance(step, Draw):
                issue(GL, case, step, lambda: made.buffer(GL.glGenBuffers(1)))
            error = int(GL.glGetError()) if readback.gl_error else None
            GL.glDisable(GL.GL_PRIMITIVE_RESTART)
        finally:
            for what in reversed(active):    # also after an error, so the objects can be deleted
                quietly(GL.glEndTransformFeedback) if what == "xfb" else quietly(GL.glEndQuery, what)
            if extra:
                self._unset_extras(state)
        for cap in state.enable:
            GL.glDisable(_capability(GL, cap))
        counts = {name: int(GL.glGetQueryObjectuiv(ids[name], GL.GL_QUERY_RESULT)) for name in queries}
        if error is not None:
            counts["gl_error"] = error
        result = {"counts": counts}
        if per_draw_image:
            result["image"] = self._read_image(readback)
        if xfb is not None:
            vertices = counts["xfb_primitives_written"] * XFB_VERTICES[readback.xfb_primitive]
            counts["xfb_vertices"] = vertices
            size = readback_bytes(vertices, stride, stride * readback.max_records)
            raw = GL.glGetBufferSubData(GL.GL_TRANSFORM_FEEDBACK_BUFFER, 0, size) if size else b""
            result["xfb"] = encode_records(bytes(raw))
        return result

    def _read(self, case: Case, step: Read) -> dict:
        """What a Read step reads back at its point of the script."""
        result = {"counts": self._read_counters(case) if step.counters else {}}
        if step.image:
            result["image"] = self._read_image(case.readback)
        if step.queries:
            result["queries"] = {q.label: self._program_query(case, q) for q in step.queries}
        if step.storage:
            result["storage"] = {str(b): self._read_storage(case, b) for b in step.storage}
        return result

    def _atomic_counter_buffer(self, count: int, made: "Objects") -> None:
        """`count` GLuint counters, all 0, at GL_ATOMIC_COUNTER_BUFFER binding 0 (and the
        generic binding, which _read_counters reads)."""
        GL = self.gl
        GL.glBindBuffer(GL.GL_ATOMIC_COUNTER_BUFFER, made.buffer(GL.glGenBuffers(1)))
        GL.glBufferData(GL.GL_ATOMIC_COUNTER_BUFFER, 4 * count, bytes(4 * count), GL.GL_DYNAMIC_READ)
        GL.glBindBufferBase(GL.GL_ATOMIC_COUNTER_BUFFER, 0, made.last())

    def _read_counters(self, case: Case) -> dict:
        GL = self.gl
        count = case.readback.atomic_counters
        if tuple(self._facts[case.requires.profile]["version_number"]) >= (4, 2):
            # shader atomic counter writes reach GetBufferSubData after this barrier (GL 4.6, 7.13.2)
            GL.glMemoryBarrier(GL.GL_BUFFER_UPDATE_BARRIER_BIT)
        raw = GL.glGetBufferSubData(GL.GL_ATOMIC_COUNTER_BUFFER, 0, 4 * count)
        values = np.frombuffer(bytes(raw), dtype="<u4")
        return {f"atomic counter {i}": int(v) for i, v in enumerate(values)}

    def _patch_parameters(self, state) -> None:
        GL = self.gl
        if state.patch_vertices is not None:
            GL.glPatchParameteri(GL.GL_PATCH_VERTICES, state.patch_vertices)
        if state.default_outer is not None:
            GL.glPatchParameterfv(GL.GL_PATCH_DEFAULT_OUTER_LEVEL, (ctypes.c_float * 4)(*state.default_outer))
        if state.default_inner is not None:
            GL.glPatchParameterfv(GL.GL_PATCH_DEFAULT_INNER_LEVEL, (ctypes.c_float * 2)(*state.default_inner))

    def _new_list(self, case: Case, step: NewList, made: "Objects") -> None:
        """Only the patch parameters and the draw call go into the new list: the step's queries
        began before glNewList, so they are executed, not compiled, and count what
        GL_COMPILE_AND_EXECUTE draws (nothing for GL_COMPILE)."""
        GL = self.gl
        name = made.display_list(GL.glGenLists(1))
        GL.glNewList(name, getattr(GL, "GL_" + step.mode))
        try:
            self._patch_parameters(step.draw.state)
            issue(GL, case, step.draw, lambda: made.buffer(GL.glGenBuffers(1)))
        finally:
            quietly(GL.glEndList)         # never leave the context compiling

    def _last_list(self, step, made: "Objects") -> int:
        name = made.latest("display_list")
        if name is None:
            raise BackendError(f"{step.label or type(step).__name__}: no display list made before it")
        return name

    def _program_query(self, case: Case, query) -> dict | None:
        """What shader_runner's `active uniform` / `verify program_interface_query` reads of the
        program in use: the property of the active uniform or resource whose name GL lists as
        `query.name`, by every call that answers it ({call: value}); None: no such name."""
        GL = self.gl
        program = int(GL.glGetIntegerv(GL.GL_CURRENT_PROGRAM))
        pname, got = getattr(GL, query.pname), np.zeros(1, dtype=np.int32)
        if not query.interface:
            for i in range(int(GL.glGetProgramiv(program, GL.GL_ACTIVE_UNIFORMS))):
                name, size, type_ = GL.glGetActiveUniform(program, i)
                if _text(name) != query.name:
                    continue
                GL.glGetActiveUniformsiv(program, 1, np.array([i], dtype=np.uint32), pname, got)
                answers = {"glGetActiveUniformsiv": int(got[0])}
                also = {"GL_UNIFORM_TYPE": type_, "GL_UNIFORM_SIZE": size}.get(query.pname)
                if also is not None:                       # shader_runner checks both calls
                    answers["glGetActiveUniform"] = int(also)
                return answers
            return None
        facts = self._facts[case.requires.profile]
        if "GL_ARB_program_interface_query" not in facts["extensions"] and tuple(facts["version_number"]) < (4, 3):
            raise Skip("program_interface_query needs GL 4.3 or GL_ARB_program_interface_query")
        interface = getattr(GL, query.interface)
        count = np.zeros(1, dtype=np.int32)
        GL.glGetProgramInterfaceiv(program, interface, GL.GL_ACTIVE_RESOURCES, count)
        for i in range(int(count[0])):
            name = ctypes.create_string_buffer(512)
            GL.glGetProgramResourceName(program, interface, i, len(name), None, name)
            if name.value.decode("utf-8", "replace") != query.name:
                continue
            GL.glGetProgramResourceiv(program, interface, i, 1, np.array([pname], dtype=np.uint32), 1, None, got)
            return {"glGetProgramResourceiv": int(got[0])}
        return None

    def _read_storage(self, case: Case, binding: int) -> str | None:
        """The whole buffer bound at GL_SHADER_STORAGE_BUFFER binding `binding`; None: none is."""
        GL = self.gl
        buffer = int(np.ravel(GL.glGetIntegeri_v(GL.GL_SHADER_STORAGE_BUFFER_BINDING, binding))[0])
        if not buffer:
            return None
        GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, buffer)
        reported = int(np.ravel(GL.glGetBufferParameteriv(GL.GL_SHADER_STORAGE_BUFFER, GL.GL_BUFFER_SIZE))[0])
        # GL_BUFFER_SIZE is the driver's word; the case made the buffer (shader_runner's `ssbo N SIZE`)
        made = max((size for s in case.steps for b, size in step_state(s).storage_buffers if b == binding), default=0)
        size = readback_bytes(reported, 1, made)
        raw = GL.glGetBufferSubData(GL.GL_SHADER_STORAGE_BUFFER, 0, size) if size else b""
        GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, 0)
        return encode_records(bytes(raw))

    def _set_extras(self, case: Case, state, made: "Objects") -> None:
        """The state imported shader_test files set: uniforms, polygon mode, front face, the
        compatibility projection matrix, textures and storage buffers, for this step."""
        GL = self.gl
        if state.uniforms:
            program = int(GL.glGetIntegerv(GL.GL_CURRENT_PROGRAM))
            for uniform in state.uniforms:
                set_uniform(GL, active_program(GL, uniform.stage) if uniform.stage else program, uniform)
        if state.polygon_mode:
            GL.glPolygonMode(GL.GL_FRONT_AND_BACK, getattr(GL, "GL_" + state.polygon_mode))
        if state.front_face:
            GL.glFrontFace(getattr(GL, "GL_" + state.front_face))
        if state.provoking_vertex:
            GL.glProvokingVertex(getattr(GL, f"GL_{state.provoking_vertex}_VERTEX_CONVENTION"))
        for texture in state.textures:
            self._texture(texture, made)
        for binding, size in state.storage_buffers:        # shader_runner's `ssbo N SIZE`: zeroed
            GL.glBindBuffer(GL.GL_SHADER_STORAGE_BUFFER, made.buffer(GL.glGenBuffers(1)))
            GL.glBufferData(GL.GL_SHADER_STORAGE_BUFFER, size, bytes(size), GL.GL_DYNAMIC_DRAW)
            GL.glBindBufferBase(GL.GL_SHADER_STORAGE_BUFFER, binding, made.last())
        if state.projection is not None:
            GL.glMatrixMode(GL.GL_PROJECTION)
            GL.glLoadMatrixf((ctypes.c_float * 16)(*state.projection))
            GL.glMatrixMode(GL.GL_MODELVIEW)

    def _texture(self, texture, made: "Objects") -> None:
        """A texture as shader_runner makes it (see harness.model.case.Texture), bound to its unit."""
        GL = self.gl
        w, h, d = texture.width, texture.height, texture.depth
        z, y, x = np.meshgrid(np.arange(d), np.arange(h), np.arange(w), indexing="ij")
        if texture.kind == "checkerboard":
            colors = np.array(texture.colors, dtype="<f4").reshape(2, 4)
            texels = colors[((x // max(1, w // 2)) ^ (y // max(1, h // 2))) & 1]
        elif texture.target == "1D":                # piglit_rgbw_texture_1d: quarters along x
            texels = RGBW[x * 4 // w]
        else:                                       # quadrants; in 3D, the back half's colours behind
            back = (z >= d // 2) if texture.target == "3D" else np.zeros_like(z, dtype=bool)
            texels = RGBW[(x >= w // 2).astype(int) + 2 * (y >= h // 2) + 4 * back]
        target = getattr(GL, f"GL_TEXTURE_{texture.target}")
        GL.glActiveTexture(GL.GL_TEXTURE0 + texture.unit)
        GL.glBindTexture(target, made.texture(GL.glGenTextures(1)))
        wrap = "CLAMP_TO_EDGE" if texture.kind == "rgbw" else "CLAMP_TO_BORDER"
        axes = "ST" if texture.target == "2D" else "STR"
        parameters = [(f"WRAP_{axis}", wrap) for axis in axes] + [("MIN_FILTER", texture.min_filter),
                                                                   ("MAG_FILTER", texture.mag_filter)]
        for name, value in parameters:
            GL.glTexParameteri(target, getattr(GL, "GL_TEXTURE_" + name), getattr(GL, "GL_" + value))
        if wrap == "CLAMP_TO_BORDER":
            GL.glTexParameterfv(target, GL.GL_TEXTURE_BORDER_COLOR, (ctypes.c_float * 4)(1, 0, 0, 1))
        data = np.ascontiguousarray(texels, dtype="<f4").tobytes()
        if texture.target == "1D":
            GL.glTexImage1D(target, texture.level, GL.GL_RGBA8, w, 0, GL.GL_RGBA, GL.GL_FLOAT, data)
        elif texture.target == "2D":
            GL.glTexImage2D(target, texture.level, GL.GL_RGBA8, w, h, 0, GL.GL_RGBA, GL.GL_FLOAT, data)
        else:
            GL.glTexImage3D(target, texture.level, GL.GL_RGBA8, w, h, d, 0, GL.GL_RGBA, GL.GL_FLOAT, data)
        GL.glActiveTexture(GL.GL_TEXTURE0)

    def _unset_extras(self, state) -> None:
        GL = self.gl
        if state.polygon_mode:
            quietly(GL.glPolygonMode, GL.GL_FRONT_AND_BACK, GL.GL_FILL)
        if state.front_face:
            quietly(GL.glFrontFace, GL.GL_CCW)
        if state.provoking_vertex:
            quietly(GL.glProvokingVertex, GL.GL_LAST_VERTEX_CONVENTION)
        if state.projection is not None:
            quietly(GL.glMatrixMode, GL.GL_PROJECTION)
            quietly(GL.glLoadIdentity)
            quietly(GL.glMatrixMode, GL.GL_MODELVIEW)

def _capability(GL, name: str) -> int:
    """A capability's enum from its name without "GL_" (PyOpenGL names clip planes 0 to 5 only)."""
    clip = re.fullmatch(r"CLIP_(?:PLANE|DISTANCE)(\d)", name)
    return GL.GL_CLIP_DISTANCE0 + int(clip[1]) if clip else getattr(GL, "GL_" + name)


def _cacheable(case: Case) -> bool:
    """One plain program that the case itself never deletes, and without uniforms (a cached
    program would keep the values an earlier case set); not on targets that set
    program_cache off (zink: see targets.py)."""
    return not case.separable and not case.programs and \
        not any(d.delete_programs for d in case.draws()) and \
        not any(_declares_uniforms(stage, source) for stage, source in case.shaders)


@functools.lru_cache(maxsize=256)
def _declares_uniforms(stage: str, source: str) -> bool:
    """Whether a stage declares a uniform (a variable or a block), from the GLSL model of its
    preprocessed text: one in a comment or a dead #if branch does not count. Remembered per
    source: parsing every stage of every case was a large part of llvmpipe's child time. Without
    the word `uniform` in its text, and no `##` to paste it from parts, a stage declares none:
    no family shader has one, so most are never parsed."""
    if "uniform" not in source and "##" not in source:
        return False
    try:
        shader = parse(preprocess(stage, source))
    except (ParseError, PreprocessError):
        return True                          # unreadable here: the driver will say; never cached
    return any(d.storage == "uniform" for d in shader.declarations)


def _state_extras(state) -> bool:
    return bool(state.uniforms or state.polygon_mode or state.front_face or state.provoking_vertex
                or state.textures or state.projection is not None or state.storage_buffers)


class _LinkFailed(BackendError):
    """The program did not link (its shaders compiled)."""


def _text(log) -> str:
    return (log.decode("utf-8", "replace") if isinstance(log, bytes) else str(log)).strip()


def _error_name(GL, code: int) -> str:
    for name in ("GL_INVALID_ENUM", "GL_INVALID_VALUE", "GL_INVALID_OPERATION",
                 "GL_INVALID_FRAMEBUFFER_OPERATION", "GL_OUT_OF_MEMORY"):
        if getattr(GL, name) == code:
            return name
    return hex(code)


def _args(exc) -> str:
    args = getattr(exc, "cArguments", None)
    return "(" + ", ".join(repr(a) for a in args) + ")" if args else ""

