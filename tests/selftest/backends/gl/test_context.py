"""harness/backends/gl/context.py's EGL contexts, as pure logic over a recording EGL: which
context is current when, and how many switches a batch's cases make (none between them)."""
from __future__ import annotations

from types import SimpleNamespace

from harness.backends.gl.context import EGLContexts


def recording_contexts() -> tuple[EGLContexts, list[object]]:
    """EGLContexts over a stand-in EGL that hands out numbered contexts and records each
    eglMakeCurrent; the long-lived core context exists already."""
    made: list[object] = []
    switches: list[object] = []
    egl = SimpleNamespace(EGL_NO_SURFACE=None, EGL_NO_CONTEXT=None, EGLError=RuntimeError,
                          EGLConfig=lambda: None, eglGetError=lambda: 0,
                          eglDestroyContext=lambda display, ctx: made.remove(ctx),
                          eglMakeCurrent=lambda display, draw, read, ctx: switches.append(ctx) or True)

    def create(display, config, share, attrs):
        made.append(object())
        return made[-1]
    egl.eglCreateContext = create
    contexts = object.__new__(EGLContexts)
    contexts._egl, contexts._display, contexts.platform = egl, None, "test"
    contexts._contexts, contexts._attrs = {"core": "long-lived"}, {"core": []}
    contexts._case, contexts._kept, contexts._now = None, {}, None
    return contexts, switches


def test_a_batch_switches_context_once_and_a_case_of_its_own_as_before():
    contexts, switches = recording_contexts()
    contexts.use("core")
    contexts.begin_case("core", "new")
    batch = contexts._now
    contexts.end_case()
    for _ in range(3):                      # the batch's next cases: its context stays current
        contexts.use("core")
        contexts.begin_case("core", "keep")
        assert contexts._now is batch
        contexts.end_case()
    assert switches == ["long-lived", batch]
    contexts.use("core")                    # a case of its own: the long-lived context, then its own
    contexts.begin_case("core")
    own = contexts._now
    contexts.end_case()
    assert own is not batch and switches[2:] == ["long-lived", own, "long-lived"]
    contexts.begin_case("core", "new")      # a new batch: the old batch's context is destroyed
    assert contexts._now is not batch and contexts._kept == {"core": contexts._now}
