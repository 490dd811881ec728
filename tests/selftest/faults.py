"""The self-tests' fault injection, a harness plugin (harness/base/plugins.py): backends that do
to their child process what a broken driver would, and the targets that run them. The
self-tests load it (conftest.py), so every executor they start hands it on to its children; a
process the self-tests start (pytest, `python -m harness`) gets it from `environment()`
($HARNESS_PLUGINS). Nothing of it is in the harness.

Backends and targets:
- `FaultBackend` (backend "fault", target `FAULT`, "fault") needs no driver: a case's params name
  the fault, and with `none` it reports `primitives_generated` = the param `value`.
- `FaultyGL` (backend "fault-gl", target "fault-llvmpipe") runs cases on real llvmpipe and
  injects the fault that $HARNESS_FAULTS names for a case id (JSON: {"case id": "fault"}; a key
  with `*` is a pattern: {"tess/explore/*": "hang"}), so a whole pytest run shows how one bad
  case is reported while the others keep their verdicts.
- `FaultyVK` (backend "fault-vk", target "fault-lavapipe") is the Vulkan backend on lavapipe with
  one invalid Vulkan call per draw, $HARNESS_VK_FAULT (`VK_FAULTS`, or none), that the validation
  layer reports and lavapipe ignores, so that a test can show `--vk-validation` failing a case;
  and a lost device (`device-lost` in $HARNESS_FAULTS for a case id): from that case on, the
  calls that report a lost device raise the `vulkan` package's VkErrorDeviceLost in that process;
  and glslang crashing in the layer's compile (`glslang-segv`).

Faults: segv, abort, exit (status 3), hang, garbage (control bytes and invalid UTF-8 on stderr,
then SIGSEGV), gl-error (an invalid GL call after the case), dirty-state (the case leaves every kind of state
a case can set changed in its context, see `dirty`), kill-worker (SIGKILL to the pytest
process that owns the child, as an OOM killer would), huge-xfb-count (GL and Vulkan: the
transform-feedback primitives-written query answers 2^31, as NVIDIA's did), process-state (GL: the
case fails unless it is the first its child process runs, as zink's restarted polygons do when
its allocator hands them memory an earlier case wrote); and, of the `fault`
backend, the case's reply garbled on the real pipe (`GARBLED`: not JSON, its JSON cut short,
text where a frame's length belongs). $HARNESS_FAULT_MARK:
a file a hang writes its pid to as it begins. $HARNESS_FAULT_START (the `fault` backend): a file
that, while it exists, names the fault a child injects as it starts (its `info` or `adopt`), so that a test
can let the first child start and the next ones fail to.

$HARNESS_FAULT_SHARED_CONTEXT=1 breaks the GL runner's isolation for a self-test that must see it
fail: every case runs in its profile's long-lived context instead of one of its own, so that the
state one case leaves reaches the next.

The backends read these variables in the child, which inherits them: a test sets them with
`planted` (its own environment, which the children it starts get) or `environment` (a command's).
"""
from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import fnmatch
import json
import os
import struct
import sys
import time
from pathlib import Path
from typing import Iterator

import numpy as np

from harness.backends import BackendError, registry
from harness.executor import targets
from harness.model.facts import Facts, Known
from harness.model.observation import Observation, Step

PLUGIN = str(Path(__file__).resolve())      # as $HARNESS_PLUGINS names it
VK_FAULTS = ("negative-scissor", "fence-stype")
HUGE_COUNT = 2**31                          # primitives written, as NVIDIA's query answered
# What the child writes to its reply pipe instead of the case's reply: a frame (its length) whose
# body is a JSON length and the JSON (protocol.py), or text with no frame at all.
NOT_JSON, CUT_SHORT = b"not json, garbage", b'{"status":"ok","observation":{"steps":[{"co'
MISSHAPEN = b'{"status":"ok","observation":{"steps":[{"storage":[7]}]},"blobs":[]}'    # storage: not an object
GARBLED = {"garbled-reply": struct.pack(">2I", 4 + len(NOT_JSON), len(NOT_JSON)) + NOT_JSON,
           "truncated-reply": struct.pack(">2I", 4 + len(CUT_SHORT), 200) + CUT_SHORT,      # JSON of 200 bytes, 43 sent
           "misshapen-reply": struct.pack(">2I", 4 + len(MISSHAPEN), len(MISSHAPEN)) + MISSHAPEN,
           "text-reply": b"driver says hello on the wrong fd\n"}


def environment(faults: dict | None = None, mark: str | os.PathLike = "", shared_context: bool = False,
                vk: str = "", start: str | os.PathLike = "") -> dict[str, str]:
    """The variables that load this plugin in a process and plant these faults in its children."""
    return {"HARNESS_PLUGINS": PLUGIN, "HARNESS_FAULTS": json.dumps(faults or {}),
            "HARNESS_FAULT_MARK": str(mark), "HARNESS_FAULT_SHARED_CONTEXT": "1" if shared_context else "",
            "HARNESS_VK_FAULT": vk, "HARNESS_FAULT_START": str(start)}


@contextlib.contextmanager
def planted(faults: dict | None = None, mark: str | os.PathLike = "", shared_context: bool = False,
            vk: str = "", start: str | os.PathLike = "") -> Iterator[None]:
    """These faults planted in the children this process starts meanwhile (their environment is
    this process's)."""
    variables = environment(faults, mark, shared_context, vk, start)
    before = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def inject(fault: str, mark: str = "") -> None:
    """Faults that end or stall the process; `mark`: a file touched as a hang begins."""
    if fault == "garbage":
        sys.stderr.buffer.write(b"driver says \x00\x01\x1b[31m\xff\xfe not utf-8\n")
        sys.stderr.flush()
        fault = "segv"
    if fault == "segv":
        ctypes.string_at(0)
    elif fault == "abort":
        os.abort()
    elif fault == "exit":
        os._exit(3)
    elif fault == "spin":                   # a hang that burns CPU, as a looping driver does
        while True:
            pass
    elif fault == "hang":
        if mark:                            # tells a test the hang has begun, and which process hangs
            with open(mark, "w") as file:
                file.write(str(os.getpid()))
        while True:
            time.sleep(3600)
    elif fault == "kill-worker":             # SIGKILL the pytest-xdist worker that runs this child
        # A second late: the worker may have queued this case ahead while it judged the one
        # before (Executor.send); by then it is waiting on this one, as the test wants.
        time.sleep(1)
        os.kill(_executor_process(), 9)
        time.sleep(30)


def _executor_process() -> int:
    """The process whose executor runs this child: the parent, or the parent of the spawner
    this child was forked from (harness/executor/spawner.py)."""
    parent = os.getppid()
    with open(f"/proc/{parent}/cmdline", "rb") as cmdline:
        if b"harness.executor.spawner" not in cmdline.read():
            return parent
    with open(f"/proc/{parent}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


class FaultBackend:
    def __init__(self, mark: str = ""):
        self.mark = mark

    @classmethod
    def from_options(cls, options) -> "FaultBackend":
        return cls(os.environ.get("HARNESS_FAULT_MARK", ""))

    def info(self) -> Facts:
        self._starting()
        return Facts(renderer="fault injector", vendor="harness", version="0", platform="none")

    def known(self) -> Known:
        return Known()

    def adopt(self, known: Known) -> None:
        """A replacement child's start (executor.py): the start fault as in `info`."""
        self._starting()

    def _starting(self) -> None:
        start = os.environ.get("HARNESS_FAULT_START", "")
        if start and os.path.exists(start):
            inject(Path(start).read_text().strip(), self.mark)

    def run(self, case) -> Observation:
        params = dict(case.params)
        fault = params.get("fault", "none")
        if fault not in ("none", "segv", "abort", "exit", "hang", "spin", "garbage", *GARBLED):
            raise ValueError(f"unknown fault {fault!r}")
        inject(fault, self.mark)
        if fault in GARBLED:
            garble_next_reply(GARBLED[fault])
        return Observation([Step(counts={"primitives_generated": params.get("value", 0)})])


def garble_next_reply(raw: bytes) -> None:
    """The child's next reply, as the real pipe carries it, is `raw` instead (the child's writer
    in harness/executor/protocol.py, replaced for one call)."""
    from harness.executor import protocol
    real = protocol.send

    def send(fd, message, blobs=()):
        protocol.send = real
        os.write(fd, raw)
    protocol.send = send


class FaultyGL:
    """llvmpipe with faults injected for chosen case ids."""

    def __init__(self, faults: str = "", shared_context: bool = False, mark: str = ""):
        """`faults`: JSON {"case id": "fault"}; `shared_context`: every case in one context."""
        from harness.backends.gl.runner import GLBackend
        self.gl = GLBackend()
        self.mark = mark
        self.faults = json.loads(faults or "{}")
        self.ran = 0                    # cases this process ran before (the process-state fault)
        if shared_context:
            contexts = self.gl._contexts
            contexts.begin_case = lambda profile, batch=None: contexts.make_current(profile)
            contexts.end_case = lambda: None

    @classmethod
    def from_options(cls, options) -> "FaultyGL":
        if options.gl_platform != "egl":
            raise BackendError("the fault-llvmpipe target runs on EGL only")
        return cls(os.environ.get("HARNESS_FAULTS", ""), os.environ.get("HARNESS_FAULT_SHARED_CONTEXT") == "1",
                   os.environ.get("HARNESS_FAULT_MARK", ""))

    def info(self) -> Facts:
        info = self.gl.info()
        return dataclasses.replace(info, renderer=f"{info.renderer} + injected faults")

    def known(self) -> Known:
        return self.gl.known()

    def adopt(self, known: Known) -> None:
        self.gl.adopt(known)

    batches = True

    def run(self, case, batch: str | None = None) -> Observation:
        fault = self.faults.get(case.id) or next(
            (f for pattern, f in self.faults.items() if "*" in pattern and fnmatch.fnmatchcase(case.id, pattern)), "none")
        inject(fault, self.mark)
        self.ran += 1
        if fault == "process-state" and self.ran > 1:
            raise BackendError(f"process state: {self.ran - 1} case(s) ran in this process before this one")
        GL, calls = self.gl.gl, self.gl.calls
        if fault == "huge-xfb-count":
            self.gl.gl = _HugeCount(GL)
            self.gl.calls = _HugeCount(calls, self.gl.gl)     # the runner reads query results here
        try:
            observation = self.gl.run(case, inside=dirty if fault == "dirty-state" else None, batch=batch)
        finally:
            self.gl.gl, self.gl.calls = GL, calls
        if fault == "gl-error":
            try:
                GL.glEnable(0xFFFF)                 # not a capability: GL_INVALID_ENUM
            except GL.GLError as exc:
                raise BackendError(f"GL error GL_INVALID_ENUM from glEnable(0xffff) after the case: {exc.err}") from exc
        return observation


class FaultyVK:
    """The Vulkan backend with one invalid call per draw that changes nothing a case reads
    (lavapipe ignores it), so that a case passes without the validation layer and fails with it:
    negative-scissor: a vkCmdSetScissor with offset (-1, -1) before the valid one
      (VUID-vkCmdSetScissor-x-00595);
    fence-stype: a vkCreateFence whose create info has a buffer's sType (VUID-VkFenceCreateInfo-sType-sType).
    The calls are planted through the `vulkan` module as the backend's runner sees it, while a case runs."""

    def __init__(self, backend, fault: str, faults: str = ""):
        self.backend, self.fault = backend, fault
        self.faults = json.loads(faults or "{}")
        self.lost = False               # a lost device stays lost, for every later case of this process

    @classmethod
    def from_options(cls, options) -> "FaultyVK":
        from harness.backends.vk.runner import VKBackend
        fault = os.environ.get("HARNESS_VK_FAULT", "")
        if fault not in ("",) + VK_FAULTS:
            raise BackendError(f"unknown HARNESS_VK_FAULT {fault!r}; known: {', '.join(VK_FAULTS)}")
        return cls(VKBackend.from_options(options), fault, os.environ.get("HARNESS_FAULTS", ""))

    def info(self) -> Facts:
        return self.backend.info()

    def run(self, case) -> Observation:
        from harness.backends.vk import device, pipelines, recording, resources, runner
        modules = (runner, resources, pipelines, recording, device)     # each calls `vulkan` as its `vk`
        saved = [module.vk for module in modules]
        self.lost = self.lost or self.faults.get(case.id) == "device-lost"
        for module in modules:
            if self.fault:
                module.vk = _Planted(module.vk, self.fault, self.backend.dev.device)
            if self.lost:
                module.vk = _Lost(module.vk)
            if self.faults.get(case.id) == "huge-xfb-count":
                module.vk = _HugeCount(module.vk)
        if self.faults.get(case.id) == "glslang-segv":
            crashing_glslang()
        try:
            return self.backend.run(case)
        finally:
            for module, vk in zip(modules, saved):
                module.vk = vk


def crashing_glslang() -> None:
    """glslang-segv: the layer's compile, from now on in this process, dies of SIGSEGV in its first
    glslang call (a C function at address 1 in its place: a real fatal signal in a real ctypes call
    made from spirv._compile). The case must miss the SPIR-V cache: give the child an empty one."""
    from harness.backends.vk import spirv
    real = spirv._glslang()
    crash = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(1)

    class Crashing:
        def __getattr__(self, name):
            return crash if name == "glslang_shader_create" else getattr(real.lib, name)
    spirv._glslang = lambda: real._replace(lib=Crashing())


class _Lost:
    """The `vulkan` module on a lost device: the calls the backend makes that report
    VK_ERROR_DEVICE_LOST raise the package's exception for it, as they would on the real thing."""

    def __init__(self, vulkan):
        self._vk = vulkan

    def __getattr__(self, name):
        return getattr(self._vk, name)

    def vkQueueSubmit(self, *args):
        raise self._vk.VkErrorDeviceLost()

    def vkWaitForFences(self, *args):
        raise self._vk.VkErrorDeviceLost()

    def vkDeviceWaitIdle(self, *args):
        raise self._vk.VkErrorDeviceLost()

    def vkGetQueryPoolResults(self, *args):
        raise self._vk.VkErrorDeviceLost()


class _Planted:
    """The `vulkan` module, with the invalid call planted beside each vkCmdSetScissor (one a draw)."""

    def __init__(self, vulkan, fault: str, device):
        self._vk, self._fault, self._device = vulkan, fault, device

    def __getattr__(self, name):
        return getattr(self._vk, name)

    def vkCmdSetScissor(self, cmd, first, count, scissors):
        vk = self._vk
        if self._fault == "negative-scissor":
            extent = scissors[0].extent
            vk.vkCmdSetScissor(cmd, first, count, [vk.VkRect2D(vk.VkOffset2D(-1, -1),
                                                               vk.VkExtent2D(extent.width + 1, extent.height + 1))])
        elif self._fault == "fence-stype":
            fence = vk.vkCreateFence(self._device, vk.VkFenceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO),
                                     None)
            vk.vkDestroyFence(self._device, fence, None)
        vk.vkCmdSetScissor(cmd, first, count, scissors)


class _HugeCount:
    """The OpenGL.GL or `vulkan` module whose transform-feedback primitives-written query answers
    HUGE_COUNT (the queries the GL runner began with that target; the first value the Vulkan
    runner reads from its transform-feedback stream query); or the GL runner's raw calls
    (harness/backends/gl/calls.py), answering for the queries `begun` saw begin."""

    def __init__(self, api, begun=None):
        self._api, self._written = api, (begun._written if begun is not None else set())

    def __getattr__(self, name):
        return getattr(self._api, name)

    def glBeginQuery(self, target, query):
        if target == self._api.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN:
            self._written.add(int(query))
        self._api.glBeginQuery(target, query)

    def glGetQueryObjectuiv(self, query, pname):
        value = self._api.glGetQueryObjectuiv(query, pname)
        return HUGE_COUNT if int(query) in self._written else value

    def query_result(self, query):
        value = self._api.query_result(query)
        return HUGE_COUNT if int(query) in self._written else value

    def vkGetQueryPoolResults(self, device, pool, first, count, size, data, stride, flags):
        self._api.vkGetQueryPoolResults(device, pool, first, count, size, data, stride, flags)
        data[0] = HUGE_COUNT              # [primitives written, primitives needed]


def dirty(GL) -> None:
    """Leave, in the current context, a non-initial value in every kind of state a case can
    set, each chosen so that a case inheriting it would draw or read back something else.
    Checks that the values took, so a dirtier that silently did nothing cannot pass for one."""
    compat = bool(GL.glGetIntegerv(GL.GL_CONTEXT_PROFILE_MASK) & GL.GL_CONTEXT_COMPATIBILITY_PROFILE_BIT)
    f4 = ctypes.c_float * 4
    # clip distances / planes and their equations, clip control
    for i in range(int(GL.glGetIntegerv(GL.GL_MAX_CLIP_DISTANCES))):
        GL.glEnable(GL.GL_CLIP_DISTANCE0 + i)
        if compat:
            GL.glClipPlane(GL.GL_CLIP_PLANE0 + i, (ctypes.c_double * 4)(0, 0, 0, -1))   # clips everything
    GL.glClipControl(GL.GL_UPPER_LEFT, GL.GL_ZERO_TO_ONE)
    # enables, blend, depth, stencil, colour mask, scissor, culling, polygon mode and offset
    for cap in ("BLEND", "DEPTH_TEST", "STENCIL_TEST", "SCISSOR_TEST", "CULL_FACE", "RASTERIZER_DISCARD",
                "PRIMITIVE_RESTART", "PRIMITIVE_RESTART_FIXED_INDEX", "DEPTH_CLAMP", "COLOR_LOGIC_OP",
                "POLYGON_OFFSET_FILL", "SAMPLE_MASK", "PROGRAM_POINT_SIZE", "FRAMEBUFFER_SRGB"):
        GL.glEnable(getattr(GL, "GL_" + cap))
    GL.glBlendFunc(GL.GL_ZERO, GL.GL_CONSTANT_COLOR)
    GL.glBlendColor(0.25, 0.5, 0.75, 1.0)
    GL.glBlendEquation(GL.GL_FUNC_REVERSE_SUBTRACT)
    GL.glDepthFunc(GL.GL_NEVER)
    GL.glDepthMask(GL.GL_FALSE)
    GL.glDepthRange(0.5, 0.25)
    GL.glStencilFunc(GL.GL_NEVER, 1, 0xFF)
    GL.glStencilOp(GL.GL_INCR, GL.GL_INCR, GL.GL_INCR)
    GL.glColorMask(GL.GL_FALSE, GL.GL_TRUE, GL.GL_FALSE, GL.GL_TRUE)
    GL.glScissor(1, 1, 2, 2)
    GL.glViewport(3, 3, 5, 5)
    GL.glCullFace(GL.GL_FRONT_AND_BACK)
    GL.glFrontFace(GL.GL_CW)
    GL.glLogicOp(GL.GL_INVERT)
    GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_POINT)
    GL.glPolygonOffset(4.0, 4.0)
    GL.glSampleMaski(0, 0)
    GL.glPrimitiveRestartIndex(0)
    # pixel store (a readback with these lands elsewhere in memory)
    for name, value in (("PACK_ALIGNMENT", 8), ("PACK_ROW_LENGTH", 7), ("PACK_SKIP_PIXELS", 3),
                        ("PACK_SKIP_ROWS", 2), ("UNPACK_ALIGNMENT", 2), ("UNPACK_ROW_LENGTH", 5),
                        ("PACK_SWAP_BYTES", 1), ("PACK_LSB_FIRST", 1)):
        GL.glPixelStorei(getattr(GL, "GL_" + name), value)
    # current vertex attributes (what a disabled array reads)
    for i in range(int(GL.glGetIntegerv(GL.GL_MAX_VERTEX_ATTRIBS))):
        GL.glVertexAttrib4f(i, 9.0, -9.0, 0.5, 3.0)
    # patch parameters, provoking vertex, point and line size
    GL.glPatchParameteri(GL.GL_PATCH_VERTICES, 7)
    GL.glPatchParameterfv(GL.GL_PATCH_DEFAULT_OUTER_LEVEL, f4(5, 5, 5, 5))
    GL.glPatchParameterfv(GL.GL_PATCH_DEFAULT_INNER_LEVEL, (ctypes.c_float * 2)(5, 5))
    GL.glProvokingVertex(GL.GL_FIRST_VERTEX_CONVENTION)
    GL.glPointSize(17.0)
    GL.glPointParameteri(GL.GL_POINT_SPRITE_COORD_ORIGIN, GL.GL_LOWER_LEFT)
    GL.glLineWidth(1.0)
    # bound objects: buffers on every target a case reads through, a vertex array, a program, a
    # framebuffer, a transform feedback object, a texture
    buffers = GL.glGenBuffers(6)
    for target, name in zip(("ARRAY_BUFFER", "PIXEL_PACK_BUFFER", "PIXEL_UNPACK_BUFFER", "UNIFORM_BUFFER",
                             "DRAW_INDIRECT_BUFFER", "TRANSFORM_FEEDBACK_BUFFER"), buffers):
        GL.glBindBuffer(getattr(GL, "GL_" + target), name)
        GL.glBufferData(getattr(GL, "GL_" + target), 1024, None, GL.GL_STATIC_DRAW)
    GL.glBindBufferBase(GL.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffers[5])
    GL.glBindBufferBase(GL.GL_UNIFORM_BUFFER, 0, buffers[3])
    GL.glBindVertexArray(GL.glGenVertexArrays(1))
    GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, buffers[0])
    GL.glEnableVertexAttribArray(0)
    GL.glVertexAttribPointer(0, 4, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
    GL.glBindTransformFeedback(GL.GL_TRANSFORM_FEEDBACK, GL.glGenTransformFeedbacks(1))
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, GL.glGenFramebuffers(1))
    GL.glActiveTexture(GL.GL_TEXTURE3)
    GL.glBindTexture(GL.GL_TEXTURE_2D, GL.glGenTextures(1))
    program = GL.glCreateProgram()
    shader = GL.glCreateShader(GL.GL_VERTEX_SHADER)
    GL.glShaderSource(shader, "#version 150\nvoid main() { gl_Position = vec4(2.0); }\n")
    GL.glCompileShader(shader)
    GL.glAttachShader(program, shader)
    GL.glLinkProgram(program)
    GL.glUseProgram(program)
    if compat:          # legacy state: current colour and texture coordinates, matrices, lighting, clamping
        GL.glColor4f(0.0, 1.0, 0.0, 0.5)
        GL.glSecondaryColor3f(1.0, 0.0, 1.0)
        for unit in range(int(GL.glGetIntegerv(GL.GL_MAX_TEXTURE_COORDS))):
            GL.glMultiTexCoord4f(GL.GL_TEXTURE0 + unit, 7.0, 7.0, 7.0, 7.0)
        GL.glNormal3f(0.0, 0.0, -1.0)
        GL.glFogCoordf(3.0)
        for mode in (GL.GL_PROJECTION, GL.GL_MODELVIEW, GL.GL_TEXTURE):
            GL.glMatrixMode(mode)
            GL.glScalef(0.5, -2.0, 3.0)
        GL.glEnable(GL.GL_VERTEX_PROGRAM_TWO_SIDE)
        GL.glEnable(GL.GL_LIGHTING)
        GL.glClampColor(GL.GL_CLAMP_VERTEX_COLOR, GL.GL_FALSE)
        GL.glShadeModel(GL.GL_FLAT)
    expected = {"GL_PATCH_VERTICES": 7, "GL_PACK_ROW_LENGTH": 7, "GL_PROVOKING_VERTEX": GL.GL_FIRST_VERTEX_CONVENTION,
                "GL_DEPTH_FUNC": GL.GL_NEVER, "GL_CLIP_ORIGIN": GL.GL_UPPER_LEFT,
                "GL_PIXEL_PACK_BUFFER_BINDING": int(buffers[1]), "GL_CURRENT_PROGRAM": int(program)}
    for name, value in expected.items():
        got = int(np.ravel(GL.glGetIntegerv(getattr(GL, name)))[0])   # some come back as arrays
        if got != value:
            raise RuntimeError(f"dirty-state: {name} = {got} after setting it to {value}")
    for cap in ("GL_BLEND", "GL_RASTERIZER_DISCARD", "GL_CLIP_DISTANCE0"):
        if not GL.glIsEnabled(getattr(GL, cap)):
            raise RuntimeError(f"dirty-state: {cap} is not enabled after glEnable")


# -- what this plugin adds to the harness -----------------------------------------------------------
registry.register("fault", registry.Entry(__name__, "FaultBackend"))
registry.register("fault-gl", registry.Entry(__name__, "FaultyGL", gl=True, batches=True))
registry.register("fault-vk", registry.Entry(__name__, "FaultyVK"))

FAULT = targets.Target("fault", "fault", (), "test only: the fault injector, no driver")
FAULT_LLVMPIPE = dataclasses.replace(
    targets.get("llvmpipe"), name="fault-llvmpipe", backend="fault-gl", default=False,
    description="test only: llvmpipe with the crashes, hangs, GL errors and dirty state $HARNESS_FAULTS names")
FAULT_LAVAPIPE = dataclasses.replace(
    targets.get("lavapipe"), name="fault-lavapipe", backend="fault-vk", default=False,
    description="test only: lavapipe through the Vulkan backend with the invalid call $HARNESS_VK_FAULT names")
for _target in (FAULT, FAULT_LLVMPIPE, FAULT_LAVAPIPE):
    targets.register(_target)
