"""Test-only backends that do to their child process what a broken driver would.

`FaultBackend` (target backend "fault") needs no driver: a case's params name the fault, and
with `none` it reports `primitives_generated` = the param `value`.

`FaultyGL` (backend "fault-gl", the `fault-llvmpipe` target) runs cases on real llvmpipe and
injects the fault that $HARNESS_FAULTS names for a case id (JSON: {"case id": "fault"}), so a
whole pytest run shows how one bad case is reported while the others keep their verdicts.

Faults: segv, abort, exit (status 3), hang, garbage (control bytes and invalid UTF-8 on stderr,
then SIGSEGV), gl-error (an invalid GL call after the case), dirty-state (the case leaves patch
parameters, a clip distance, rasterizer discard and a buffer binding behind), kill-worker (SIGKILL to the pytest
process that owns the child, as an OOM killer would).
"""
from __future__ import annotations

import ctypes
import json
import os
import sys
import time


def inject(fault: str) -> None:
    """Faults that end or stall the process."""
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
    elif fault == "hang":
        if os.environ.get("HARNESS_FAULT_MARK"):      # tells a test the hang has begun
            open(os.environ["HARNESS_FAULT_MARK"], "w").close()
        while True:
            time.sleep(3600)
    elif fault == "kill-worker":             # SIGKILL the pytest-xdist worker that runs this child
        # A second late: the worker may have queued this case ahead while it judged the one
        # before (Executor.send); by then it is waiting on this one, as the test wants.
        time.sleep(1)
        os.kill(os.getppid(), 9)
        time.sleep(30)


class FaultBackend:
    def info(self) -> dict:
        return {"renderer": "fault injector", "vendor": "harness", "version": "0", "platform": "none",
                "profiles": {}}

    def run(self, case) -> dict:
        params = dict(case.params)
        fault = params.get("fault", "none")
        if fault not in ("none", "segv", "abort", "exit", "hang", "garbage"):
            raise ValueError(f"unknown fault {fault!r}")
        inject(fault)
        return {"draws": [{"counts": {"primitives_generated": params.get("value", 0)}}]}


class FaultyGL:
    """llvmpipe with faults injected for chosen case ids."""

    def __init__(self):
        from harness.backends.gl.runner import GLBackend
        self.gl = GLBackend()
        self.faults = json.loads(os.environ.get("HARNESS_FAULTS", "{}"))

    def info(self) -> dict:
        info = self.gl.info()
        return info | {"renderer": f"{info['renderer']} + injected faults"}

    def run(self, case) -> dict:
        fault = self.faults.get(case.id, "none")
        inject(fault)
        observation = self.gl.run(case)
        GL = self.gl.gl
        if fault == "gl-error":
            try:
                GL.glEnable(0xFFFF)                 # not a capability: GL_INVALID_ENUM
            except GL.GLError as exc:
                from harness.backends import BackendError
                raise BackendError(f"GL error GL_INVALID_ENUM from glEnable(0xffff) after the case: {exc.err}")
        if fault == "dirty-state":                  # left behind for whatever runs next
            GL.glPatchParameteri(GL.GL_PATCH_VERTICES, 7)
            GL.glPatchParameterfv(GL.GL_PATCH_DEFAULT_OUTER_LEVEL, (ctypes.c_float * 4)(5, 5, 5, 5))
            GL.glEnable(GL.GL_CLIP_DISTANCE0)
            GL.glEnable(GL.GL_RASTERIZER_DISCARD)
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, GL.glGenBuffers(1))
        return observation
