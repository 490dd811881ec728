"""Headless GL contexts: EGL (surfaceless, else the device platform) or a hidden GLFW window.

PyOpenGL picks its function loader from PYOPENGL_PLATFORM when it is first imported, so
`select_platform` must run before anything imports OpenGL.GL.
"""
from __future__ import annotations

import ctypes
import os

EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_PLATFORM_DEVICE_EXT = 0x313F
# Mesa answers a request for 3.2 core with its highest core version; NVIDIA gives exactly what
# was asked. So ask for the highest first.
CORE_VERSIONS = ((4, 6), (4, 5), (4, 4), (4, 3), (4, 2), (4, 1), (4, 0), (3, 3), (3, 2))


class ContextError(Exception):
    pass


def select_platform(platform: str) -> None:
    if platform not in ("egl", "glfw"):
        raise ContextError(f"unknown GL platform {platform!r} (egl or glfw)")
    os.environ["PYOPENGL_PLATFORM"] = "egl" if platform == "egl" else "glx"


class EGLContexts:
    """One EGL display; a core and a compatibility context created on first use."""

    def __init__(self):
        from OpenGL import EGL
        self._egl = EGL
        self._display, self.platform = self._open_display()
        if not EGL.eglBindAPI(EGL.EGL_OPENGL_API):
            raise ContextError("eglBindAPI(EGL_OPENGL_API) failed")
        self._contexts = {}

    def _open_display(self):
        EGL = self._egl
        tried = []
        candidates = [("surfaceless", EGL_PLATFORM_SURFACELESS_MESA, EGL.EGL_DEFAULT_DISPLAY)]
        if os.environ.get("HARNESS_EGL_PLATFORM") == "device":     # to test the fallback
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

    def _devices(self):
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
                # EGL_KHR_no_config_context: no config is needed without a surface.
                try:
                    ctx = EGL.eglCreateContext(self._display, EGL.EGLConfig(), EGL.EGL_NO_CONTEXT, attrs)
                except EGL.EGLError:        # PyOpenGL raises where EGL returns EGL_NO_CONTEXT
                    ctx = None
                if ctx:
                    break
            else:
                raise ContextError(f"eglCreateContext({profile}) failed: EGL error {hex(EGL.eglGetError())}")
            self._contexts[profile] = ctx
        if not EGL.eglMakeCurrent(self._display, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE,
                                  self._contexts[profile]):
            raise ContextError(f"eglMakeCurrent({profile}) failed: EGL error {hex(EGL.eglGetError())}")


class GLFWContexts:
    """A hidden GLFW window per profile, for machines with a display (or Xvfb)."""

    def __init__(self):
        import glfw
        self._glfw = glfw
        if not glfw.init():
            raise ContextError(f"glfw.init() failed: {glfw.get_error()}")
        self.platform = f"GLFW {glfw.get_version_string().decode()}"
        self._windows = {}

    def make_current(self, profile: str) -> None:
        glfw = self._glfw
        if profile not in self._windows:
            for version in CORE_VERSIONS if profile == "core" else (None,):
                glfw.default_window_hints()
                glfw.window_hint(glfw.VISIBLE, glfw.FALSE)
                if version is not None:
                    glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, version[0])
                    glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, version[1])
                    glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
                    glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, glfw.TRUE)
                window = glfw.create_window(16, 16, f"harness {profile}", None, None)
                if window:
                    break
            else:
                raise ContextError(f"glfw.create_window({profile}) failed: {glfw.get_error()}")
            self._windows[profile] = window
        glfw.make_context_current(self._windows[profile])


def open_contexts(platform: str):
    return EGLContexts() if platform == "egl" else GLFWContexts()
