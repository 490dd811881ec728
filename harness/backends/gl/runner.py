"""Runs a Case in a GL context of its own and returns what it observed.

Every case runs in a context made for it and destroyed after it (context.py), so whatever
state an earlier case set, listed or not, cannot reach it. That context shares objects with
a long-lived one, which keeps linked programs across cases (programs.py: only programs without
uniforms, whose state no case changes). The buffers, queries and programs a case makes are shared
objects, so the case deletes them before its context goes. The steps' GL state is state.py's, what
they read back readback.py's, their draw calls draws.py's.
"""
from __future__ import annotations

import ctypes
import re
from dataclasses import replace
from typing import Any, Callable

import numpy as np

from harness.backends import BackendError, check_requirements, readback_bytes
from harness.backends.gl import programs as linking
from harness.backends.gl import readback as reading
from harness.backends.gl import state as gl_state
from harness.backends.gl.calls import Calls
from harness.backends.gl.context import open_contexts, select_platform
from harness.backends.gl.draws import issue
from harness.backends.gl.objects import Objects, quietly
from harness.base.errors import HarnessFault
from harness.base.profiling import section
from harness.model.case import (CallList, Case, Clear, DeleteList, Dispatch, Draw, Link, NewList, Read,
                                Step as CaseStep, step_draw, step_state)
from harness.model.facts import Facts, Known, Profile
from harness.model.glfacts import INDEX_TYPES
from harness.model.observation import XFB_VERTICES, Observation, Step, record_dtype

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
PROFILES = ("core", "compat")
FB_SIZE = 32


class GLBackend:
    def __init__(self, platform: str = "egl", program_cache: bool = True, egl_device_only: bool = False):
        """`program_cache`: keep linked programs across cases (see programs.cacheable); `egl_device_only`:
        skip the surfaceless EGL platform (a self-test of the fallback)."""
        select_platform(platform)
        from OpenGL import GL
        self.gl: Any = GL
        self.calls = Calls()                # the hot calls, past PyOpenGL's wrappers
        self.program_cache = program_cache
        self._contexts = open_contexts(platform, egl_device_only)
        self._facts: dict[str, Profile] = {}            # profile -> version, extensions, limits
        self._programs = linking.ProgramCache()

    @classmethod
    def from_options(cls, options: Any) -> "GLBackend":
        return cls(options.gl_platform, options.program_cache, options.egl_platform == "device")

    # -- context facts -------------------------------------------------------------------
    def _use(self, profile: str) -> Profile:
        self._contexts.use(profile)
        if profile not in self._facts:
            self._facts[profile] = self._query_facts(profile)
        return self._facts[profile]

    def _framebuffer(self, made: Objects) -> None:
        """Surfaceless contexts have no default framebuffer, and draws need a complete one."""
        GL = self.gl
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, made.new("framebuffer"))
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, made.new("renderbuffer"))
        GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, FB_SIZE, FB_SIZE)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, made.last())
        status = GL.glCheckFramebufferStatus(GL.GL_FRAMEBUFFER)
        if status != GL.GL_FRAMEBUFFER_COMPLETE:
            raise BackendError(f"cannot make a {FB_SIZE}x{FB_SIZE} RGBA8 framebuffer: status {hex(status)}")
        GL.glViewport(0, 0, FB_SIZE, FB_SIZE)     # a context without a surface starts with a 0x0 viewport

    def _query_facts(self, profile: str) -> Profile:
        GL = self.gl
        version = GL.glGetString(GL.GL_VERSION).decode()
        match = re.match(r"(\d+)\.(\d+)", version)
        assert match is not None, version
        names = LIMITS + (COMPAT_LIMITS if profile == "compat" else ())
        count = GL.glGetIntegerv(GL.GL_NUM_EXTENSIONS)
        return Profile(
            renderer=GL.glGetString(GL.GL_RENDERER).decode(),
            vendor=GL.glGetString(GL.GL_VENDOR).decode(),
            version=version,
            version_number=(int(match[1]), int(match[2])),
            glsl_version=GL.glGetString(GL.GL_SHADING_LANGUAGE_VERSION).decode(),
            limits={n: int(GL.glGetIntegerv(getattr(GL, n))) for n in names},
            extensions=tuple(sorted(GL.glGetStringi(GL.GL_EXTENSIONS, i).decode() for i in range(count))),
        )

    def info(self) -> Facts:
        profiles = {p: replace(self._use(p), extensions=None) for p in PROFILES}
        core = profiles["core"]
        return Facts(renderer=core.renderer, vendor=core.vendor, version=core.version,
                     platform=self._contexts.platform, profiles=profiles)

    def known(self) -> Known:
        """What a replacement child of the same target, options and environment adopts instead
        of querying (harness/executor/child.py): every profile's facts, extensions included."""
        return Known({p: self._facts.get(p) or self._use(p) for p in PROFILES})

    def adopt(self, known: Known) -> None:
        """Take another child's `known()` as this context's facts: nothing is queried, and each
        profile's long-lived context is made when a case of it first runs (`_use`)."""
        self._facts = dict(known.profiles)

    # -- running a case ------------------------------------------------------------------
    batches = True                          # runs batched cases (harness/executor/batch.py): `batch`

    def run(self, case: Case, inside: Callable[[Any], object] | None = None,
            batch: str | None = None) -> Observation:
        """`inside(GL)`, if given, is called in the case's context after its draws (for a backend
        that wraps this one: the self-tests' leaves state behind with it). `batch` ("new", "keep"): run in the context of
        a batch (context.py), restoring what the case changed there afterwards."""
        facts = self._use(case.requires.profile)
        check_requirements(case, facts, lambda name: int(self.gl.glGetIntegerv(getattr(self.gl, name))))
        GL = self.gl
        with section("case context"):
            self._contexts.begin_case(case.requires.profile, batch)
        made = Objects(GL, self.calls)
        try:
            with section("framebuffer"):
                self._framebuffer(made)
            if case.steps and isinstance(case.steps[0], Link):     # the whole case (see Case)
                return Observation([Step(counts={"link_failed": linking.link_fails(GL, case, made)})])
            observation = self._steps(case, made)
            if inside is not None:
                inside(GL)
            return observation
        except GL.GLError as exc:
            raise BackendError(f"GL error {_error_name(GL, exc.err)} from {exc.baseOperation.__name__}"
                               f"{_args(exc)}") from None
        finally:
            made.delete()                   # shared objects outlive the context: delete them first
            if batch:
                gl_state.restore(GL, case, self.calls)
            with section("case context"):
                self._contexts.end_case()

    def _steps(self, case: Case, made: Objects) -> Observation:
        """The case's programs and inputs made, then its steps run in order."""
        GL = self.gl
        with section("compile+link"):
            programs = self._programs.use(GL, case, self.calls) if self.program_cache and linking.cacheable(case) \
                else linking.programs(GL, case, made)
        with section("vertex data"):
            self._vertex_data(case, made)
        if case.readback.atomic_counters:
            reading.atomic_counter_buffer(GL, case.readback.atomic_counters, made)
        if case.readback.image:
            reading.image_target(GL, case.readback, made)
        current, observation = 0, Observation()
        for i, step in enumerate(case.steps):
            draw = step_draw(step)
            if draw is not None:
                for index in draw.delete_programs:         # the name stays in use while current
                    GL.glDeleteProgram(programs[index])
                    made.forget("program", programs[index])
                if draw.program != current:
                    GL.glUseProgram(programs[draw.program])
                    current = draw.program
            observation.steps.append(self._step(case, i, made))
        return observation

    def _vertex_data(self, case: Case, made: Objects) -> None:
        GL = self.gl
        GL.glBindVertexArray(made.new("vertex_array"))
        for attr in case.attributes:
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, made.new("buffer"))
            integer = {"int": ("<i4", GL.GL_INT), "uint": ("<u4", GL.GL_UNSIGNED_INT)}.get(attr.type)
            dtype = "u1" if attr.array == "EDGE_FLAG" else integer[0] if integer else "<f4"     # GLboolean
            data = np.asarray(attr.data, dtype=dtype).tobytes()
            made.calls.buffer_data(GL.GL_ARRAY_BUFFER, len(data), data, GL.GL_STATIC_DRAW)
            if attr.array == "EDGE_FLAG":              # the compatibility edge flag array (10.3)
                GL.glEdgeFlagPointer(0, None)
                GL.glEnableClientState(GL.GL_EDGE_FLAG_ARRAY)
                continue
            if attr.array == "TEXTURE_COORD":          # the compatibility array of gl_MultiTexCoord0
                GL.glClientActiveTexture(GL.GL_TEXTURE0)
                GL.glTexCoordPointer(attr.components, GL.GL_FLOAT, 0, None)
                GL.glEnableClientState(GL.GL_TEXTURE_COORD_ARRAY)
                continue
            if integer:
                GL.glVertexAttribIPointer(attr.location, attr.components, integer[1], 0, None)
            else:
                made.calls.glVertexAttribPointer(attr.location, attr.components, GL.GL_FLOAT, GL.GL_FALSE, 0,
                                                 ctypes.c_void_p(None))
            GL.glVertexAttribDivisor(attr.location, attr.divisor)
            GL.glEnableVertexAttribArray(attr.location)
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, 0)
        if case.indices:                               # the element array binding is VAO state
            GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, made.new("buffer"))
            data = np.asarray(case.indices, dtype=INDEX_TYPES[case.index_type].dtype).tobytes()
            made.calls.buffer_data(GL.GL_ELEMENT_ARRAY_BUFFER, len(data), data, GL.GL_STATIC_DRAW)

    def _step(self, case: Case, index: int, made: Objects) -> Step:
        """Run step `index` and return its observation."""
        GL, step = self.gl, case.steps[index]
        if isinstance(step, Read):
            return reading.read_step(GL, case, step, self._facts[case.requires.profile])
        if isinstance(step, Clear):
            made.calls.glClearBufferfv(GL.GL_COLOR, 0, (ctypes.c_float * 4)(*step.color))
        elif isinstance(step, DeleteList):
            name = _last_list(step, made)
            GL.glDeleteLists(name, 1)
            made.forget("display_list", name)
        else:
            with section("draw+readback"):
                return self._draw(case, step, made)
        return Step(counts={"gl_error": int(GL.glGetError())} if case.readback.gl_error else {})

    def _draw(self, case: Case, step: CaseStep, made: Objects) -> Step:
        """A step that sets state and then acts (Draw, NewList, CallList, Dispatch, SetState),
        inside the primitive queries and transform feedback of the case."""
        GL = self.gl
        readback, state = case.readback, step_state(step)
        if not isinstance(step, NewList):           # a list's are compiled into it
            gl_state.patch_parameters(GL, state, made.calls)
        for i, plane in enumerate(state.clip_planes):
            made.calls.glClipPlane(GL.GL_CLIP_PLANE0 + i, (ctypes.c_double * 4)(*plane))
        for cap in state.enable:
            GL.glEnable(gl_state.capability(GL, cap))
        per_draw_image = readback.image and not readback.keep_image
        if per_draw_image:
            made.calls.glClearBufferfv(GL.GL_COLOR, 0, (ctypes.c_float * 4)(*[readback.clear] * 4))
        extra = gl_state.has_extras(state)
        if extra:
            gl_state.set_extras(GL, state, made)
        stride = record_dtype(readback.captures).itemsize
        xfb = None
        if readback.captures:
            xfb = made.new("buffer")
            GL.glBindBuffer(GL.GL_TRANSFORM_FEEDBACK_BUFFER, xfb)
            made.calls.buffer_data(GL.GL_TRANSFORM_FEEDBACK_BUFFER, stride * readback.max_records, None,
                                   GL.GL_STATIC_READ)
            GL.glBindBufferBase(GL.GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb)
            GL.glEnable(GL.GL_RASTERIZER_DISCARD)
        queries = {"primitives_generated": GL.GL_PRIMITIVES_GENERATED}
        for name in readback.statistics:              # "vertices_submitted" -> GL_VERTICES_SUBMITTED
            queries[name] = getattr(GL, "GL_" + name.upper())
        if xfb is not None:
            queries["xfb_primitives_written"] = GL.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
        ids = {name: made.new("query") for name in queries}
        try:
            error = self._act(case, step, made, [(queries[name], ids[name]) for name in queries], xfb is not None)
        finally:
            if extra:
                gl_state.unset_extras(GL, state)
        for cap in state.enable:
            GL.glDisable(gl_state.capability(GL, cap))
        observed = Step(counts={name: made.calls.query_result(ids[name]) for name in queries})
        if error is not None:
            observed.counts["gl_error"] = error
        if per_draw_image:
            observed.image = reading.read_image(GL, readback)
        if xfb is not None:
            vertices = observed.counts["xfb_primitives_written"] * XFB_VERTICES[readback.xfb_primitive]
            observed.counts["xfb_vertices"] = vertices
            size = readback_bytes(vertices, stride, stride * readback.max_records)
            observed.xfb = made.calls.buffer_sub_data(GL.GL_TRANSFORM_FEEDBACK_BUFFER, 0, size) if size else b""
        return observed

    def _act(self, case: Case, step: CaseStep, made: Objects, queries: list[tuple[Any, Any]],
             xfb: bool) -> int | None:
        """The step's action between its queries' begin and end (and transform feedback's);
        glGetError after it where the case reads GL errors."""
        GL = self.gl
        active: list[Any] = []
        try:
            for target, query in queries:
                GL.glBeginQuery(target, query)
                active.append(target)
            if xfb:
                GL.glBeginTransformFeedback(getattr(GL, "GL_" + case.readback.xfb_primitive))
                active.append("xfb")
            restart = getattr(step_draw(step), "restart_index", None)
            if restart is not None:
                GL.glEnable(GL.GL_PRIMITIVE_RESTART)
                GL.glPrimitiveRestartIndex(restart)
            fixed = getattr(step_draw(step), "restart_fixed", False)
            if fixed:                                # GL 4.3: 2^N - 1 of the draw's index type
                GL.glEnable(GL.GL_PRIMITIVE_RESTART_FIXED_INDEX)
            try:
                self._action(case, step, made)
                error = int(GL.glGetError()) if case.readback.gl_error else None
            except GL.GLError as exc:
                if not case.readback.gl_error:
                    raise
                error = int(exc.err)            # PyOpenGL's check after the call read glGetError
            GL.glDisable(GL.GL_PRIMITIVE_RESTART)
            if fixed:
                GL.glDisable(GL.GL_PRIMITIVE_RESTART_FIXED_INDEX)
        finally:
            for what in reversed(active):    # also after an error, so the objects can be deleted
                quietly(GL.glEndTransformFeedback) if what == "xfb" else quietly(GL.glEndQuery, what)
        return error

    def _action(self, case: Case, step: CaseStep, made: Objects) -> None:
        GL = self.gl
        if isinstance(step, NewList):
            self._new_list(case, step, made)
        elif isinstance(step, CallList):
            GL.glCallList(_last_list(step, made))
        elif isinstance(step, Dispatch):            # shader_runner's `compute`, between barriers
            GL.glMemoryBarrier(GL.GL_ALL_BARRIER_BITS)
            GL.glDispatchCompute(*step.work_groups)
            GL.glMemoryBarrier(GL.GL_ALL_BARRIER_BITS)
        elif isinstance(step, Draw):
            issue(GL, case, step, made)

    def _new_list(self, case: Case, step: NewList, made: Objects) -> None:
        """Only the patch parameters and the draw call go into the new list: the step's queries
        began before glNewList, so they are executed, not compiled, and count what
        GL_COMPILE_AND_EXECUTE draws (nothing for GL_COMPILE)."""
        GL = self.gl
        name = made.display_list(GL.glGenLists(1))
        GL.glNewList(name, getattr(GL, "GL_" + step.mode))
        try:
            gl_state.patch_parameters(GL, step.draw.state, made.calls)
            issue(GL, case, step.draw, made)
        finally:
            quietly(GL.glEndList)         # never leave the context compiling


def _last_list(step: CaseStep, made: Objects) -> int:
    name = made.latest("display_list")
    if name is None:
        raise HarnessFault(f"{getattr(step, 'label', '') or type(step).__name__}: no display list made before it "
                           "(a malformed case)")
    return int(name)


def _error_name(GL: Any, code: int) -> str:
    for name in ("GL_INVALID_ENUM", "GL_INVALID_VALUE", "GL_INVALID_OPERATION",
                 "GL_INVALID_FRAMEBUFFER_OPERATION", "GL_OUT_OF_MEMORY"):
        if getattr(GL, name) == code:
            return name
    return hex(code)


def _args(exc: Any) -> str:
    args = getattr(exc, "cArguments", None)
    return "(" + ", ".join(repr(a) for a in args) + ")" if args else ""
