"""Headless GL contexts: EGL (surfaceless, else the device platform) or a hidden GLFW window.

Per profile there is one long-lived context (facts are queried there) and, while a case runs,
a context of its own made for it and destroyed after it (`begin_case`, `end_case`). The case
context shares objects with the long-lived one (EGL's share_context, GLFW's share window), so
linked programs kept across cases survive; everything else a context holds (bindings,
enables, clip planes, pixel store, current attributes, the driver's own per-context state,
whatever nobody listed) starts at GL's initial values in every case, by construction. Batched
cases (harness/executor/batch.py) share one such context, kept from case to case until a batch ends.

PyOpenGL picks its function loader from PYOPENGL_PLATFORM when it is first imported, so
`select_platform` must run before anything imports OpenGL.GL.
"""
from __future__ import annotations

import ctypes
import os
from typing import Any

from harness.base.errors import HarnessFault

EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_PLATFORM_DEVICE_EXT = 0x313F
# Mesa answers a request for 3.2 core with its highest core version; NVIDIA gives exactly what
# was asked. So ask for the highest first.
CORE_VERSIONS = ((4, 6), (4, 5), (4, 4), (4, 3), (4, 2), (4, 1), (4, 0), (3, 3), (3, 2))


class ContextError(HarnessFault):
    pass


def select_platform(platform: str) -> None:
    if platform not in ("egl", "glfw"):
        raise ContextError(f"unknown GL platform {platform!r} (egl or glfw)")
    os.environ["PYOPENGL_PLATFORM"] = "egl" if platform == "egl" else "glx"


class EGLContexts:
    """One EGL display; a long-lived core and compatibility context created on first use, and
    a context per case sharing objects with the long-lived one of its profile."""

    def __init__(self, device_only: bool = False):
        from OpenGL import EGL
        self._egl = EGL
        self._display, self.platform = self._open_display(device_only)
        if not EGL.eglBindAPI(EGL.EGL_OPENGL_API):
            raise ContextError("eglBindAPI(EGL_OPENGL_API) failed")
        self._contexts: dict[str, Any] = {}
        self._attrs: dict[str, Any] = {}    # profile -> the attribute list that made its context
        self._case: tuple[str, Any, bool] | None = None    # (profile, context, kept) of the case running now
        self._kept: dict[str, Any] = {}     # profile -> the context of the batch going on (batched cases)
        self._now: Any = None               # the context made current last

    def _open_display(self, device_only: bool) -> tuple[Any, str]:
        EGL = self._egl
        tried = []
        candidates = [("surfaceless", EGL_PLATFORM_SURFACELESS_MESA, EGL.EGL_DEFAULT_DISPLAY)]
        if device_only:                     # to test the fallback
            candidates = []
        candidates += [(f"device {i}", EGL_PLATFORM_DEVICE_EXT, d) for i, d in enumerate(self._devices())]
        for name, platform, native in candidates:
            major, minor = EGL.EGLint(), EGL.EGLint()
            try:
                display = EGL.eglGetPlatformDisplay(platform, native, None)
                if display and EGL.eglInitialize(display, ctypes.byref(major), ctypes.byref(minor)):
                    return display, f"EGL {major.value}.{minor.value} {name}"
                error = hex(EGL.eglGetError())
            except EGL.EGLError as exc:     # PyOpenGL raises for some EGL failures
                error = str(getattr(exc, "err", exc))
            tried.append(f"{name}: EGL error {error}")
        raise ContextError("no EGL display: " + "; ".join(tried or ["no platform available"]))

    def _devices(self) -> list[Any]:
        try:
            from OpenGL.EGL.EXT.device_enumeration import eglQueryDevicesEXT
            devices = (self._egl.EGLDeviceEXT * 8)()
            count = self._egl.EGLint()
            if eglQueryDevicesEXT(8, devices, ctypes.byref(count)):
                return list(devices[:count.value])
        except Exception:  # the extension is optional; surfaceless may still work
            pass
        return []

    def make_current(self, profile: str) -> None:
        """Make the long-lived context of `profile` current (created on first use)."""
        EGL = self._egl
        if profile not in self._contexts:
            if profile == "core":
                requests = [[EGL.EGL_CONTEXT_MAJOR_VERSION, major, EGL.EGL_CONTEXT_MINOR_VERSION, minor,
                             EGL.EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL.EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT]
                            for major, minor in CORE_VERSIONS]
            else:       # no version: drivers give their highest compatibility version
                requests = [[EGL.EGL_CONTEXT_OPENGL_PROFILE_MASK,
                             EGL.EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT]]
            for attrs in requests:
                attrs = (EGL.EGLint * (len(attrs) + 1))(*attrs, EGL.EGL_NONE)
                ctx = self._create(attrs, EGL.EGL_NO_CONTEXT)
                if ctx:
                    break
            else:
                raise ContextError(f"eglCreateContext({profile}) failed: EGL error {hex(EGL.eglGetError())}")
            self._contexts[profile], self._attrs[profile] = ctx, attrs
        self._current(profile, self._contexts[profile])

    def use(self, profile: str) -> None:
        """A context of `profile` current, for queries whose answers every context of a profile
        shares (limits, extensions): the batch's, if it is current (no switch between the
        cases of a batch), else the long-lived one."""
        if self._now is None or self._now is not self._kept.get(profile):
            self.make_current(profile)

    def begin_case(self, profile: str, batch: str | None = None) -> None:
        """A new context for one case, sharing objects with `profile`'s long-lived one, made
        current. `batch` "keep": the context of the batch going on (made on first use), kept
        after the case, and still current from the case before stays so; "new": every kept
        context destroyed first, then the same."""
        self.end_case()
        if batch == "keep" and self._now is not None and self._now is self._kept.get(profile):
            self._case = (profile, self._now, True)
            return
        self.make_current(profile)
        if batch == "new":
            for ctx in self._kept.values():
                self._egl.eglDestroyContext(self._display, ctx)
            self._kept.clear()
        ctx = self._kept.get(profile) if batch else None
        if ctx is None:
            ctx = self._create(self._attrs[profile], self._contexts[profile])
            if not ctx:
                raise ContextError(f"eglCreateContext({profile}, shared) failed: EGL error "
                                   f"{hex(self._egl.eglGetError())}")
            if batch:
                self._kept[profile] = ctx
        self._case = (profile, ctx, bool(batch))
        self._current(profile, ctx)

    def end_case(self) -> None:
        """Destroy the case's context, and make its profile's long-lived context current; a
        context a batch keeps stays current, for the batch's next case."""
        if self._case is None:
            return
        profile, ctx, kept = self._case
        self._case = None
        if not kept:
            self.make_current(profile)
            self._egl.eglDestroyContext(self._display, ctx)

    def _create(self, attrs: Any, share: Any) -> Any:
        EGL = self._egl
        # EGL_KHR_no_config_context: no config is needed without a surface.
        try:
            return EGL.eglCreateContext(self._display, EGL.EGLConfig(), share, attrs)
        except EGL.EGLError:        # PyOpenGL raises where EGL returns EGL_NO_CONTEXT
            return None

    def _current(self, profile: str, ctx: Any) -> None:
        EGL = self._egl
        if ctx is self._now:
            return
        self._now = None
        if not EGL.eglMakeCurrent(self._display, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, ctx):
            raise ContextError(f"eglMakeCurrent({profile}) failed: EGL error {hex(EGL.eglGetError())}")
        self._now = ctx


class GLFWContexts:
    """A hidden GLFW window per profile, for machines with a display (or Xvfb)."""

    def __init__(self) -> None:
        import glfw
        self._glfw = glfw
        if not glfw.init():
            raise ContextError(f"glfw.init() failed: {glfw.get_error()}")
        version: bytes | str = glfw.get_version_string()           # bytes, whatever the stubs say
        self.platform = f"GLFW {version.decode() if isinstance(version, bytes) else version}"
        self._windows: dict[str, Any] = {}
        self._case: tuple[str, Any, bool] | None = None    # (profile, window, kept) of the case running now
        self._kept: dict[str, Any] = {}     # profile -> the window of the batch going on

    def make_current(self, profile: str) -> None:
        glfw = self._glfw
        if profile not in self._windows:
            self._windows[profile] = self._window(profile, None)
        glfw.make_context_current(self._windows[profile])

    def use(self, profile: str) -> None:
        self.make_current(profile)

    def begin_case(self, profile: str, batch: str | None = None) -> None:
        """As EGLContexts.begin_case, with windows."""
        self.end_case()
        self.make_current(profile)
        if batch == "new":
            for window in self._kept.values():
                self._glfw.destroy_window(window)
            self._kept.clear()
        window = self._kept.get(profile) if batch else None
        if window is None:
            window = self._window(profile, self._windows[profile])
            if batch:
                self._kept[profile] = window
        self._case = (profile, window, bool(batch))
        self._glfw.make_context_current(window)

    def end_case(self) -> None:
        if self._case is None:
            return
        profile, window, kept = self._case
        self._case = None
        self.make_current(profile)
        if not kept:
            self._glfw.destroy_window(window)

    def _window(self, profile: str, share: Any) -> Any:
        glfw = self._glfw
        for version in CORE_VERSIONS if profile == "core" else (None,):
            glfw.default_window_hints()
            glfw.window_hint(glfw.VISIBLE, glfw.FALSE)
            if version is not None:
                glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, version[0])
                glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, version[1])
                glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
                glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, glfw.TRUE)
            window = glfw.create_window(16, 16, f"harness {profile}", None, share)
            if window:
                return window
        raise ContextError(f"glfw.create_window({profile}) failed: {glfw.get_error()}")


def open_contexts(platform: str, egl_device_only: bool = False) -> EGLContexts | GLFWContexts:
    return EGLContexts(egl_device_only) if platform == "egl" else GLFWContexts()
