#!/usr/bin/env python3
"""The GL limits that decide whether a varyings program may link, as the driver reports them,
in its compatibility and core contexts (the harness's own EGL contexts: surfaceless, else the
device platform).

    python3 bench/gpu/gl_limits.py                       # the machine's GL (system-gl)
    python3 -m harness exec [--mesa M] zink-system -- python3 bench/gpu/gl_limits.py   # a Mesa target

Prints `profile NAME = value` lines, the renderer and version first. The per-stage input and
output component limits (GL 4.6 section 11.1.2.1 and table 23.x), the legacy
GL_MAX_VARYING_COMPONENTS/FLOATS, the geometry shader's total output components and vertices,
and the clip distances and texture coordinates a compatibility program may use.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harness.backends.gl.context import EGLContexts, select_platform  # noqa: E402

NAMES = (
    "GL_MAX_VARYING_COMPONENTS", "GL_MAX_VARYING_FLOATS", "GL_MAX_VARYING_VECTORS",
    "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
    "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS", "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS",
    "GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS",
    "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS",
    "GL_MAX_GEOMETRY_INPUT_COMPONENTS", "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS",
    "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS", "GL_MAX_GEOMETRY_OUTPUT_VERTICES",
    "GL_MAX_FRAGMENT_INPUT_COMPONENTS", "GL_MAX_CLIP_DISTANCES", "GL_MAX_CULL_DISTANCES",
    "GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES", "GL_MAX_TEXTURE_COORDS", "GL_MAX_CLIP_PLANES",
    "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", "GL_MAX_VERTEX_ATTRIBS",
)


def main() -> int:
    select_platform("egl")
    from OpenGL import GL
    # HARNESS_EGL_PLATFORM=device as the harness's children take it (zink on a machine without
    # a DRM node: Mesa's surfaceless EGL would answer with llvmpipe)
    contexts = EGLContexts(device_only=os.environ.get("HARNESS_EGL_PLATFORM") == "device")
    print("platform", contexts.platform)
    for profile in ("compat", "core"):
        try:
            contexts.make_current(profile)
        except Exception as exc:  # noqa: BLE001 - report and go on with the other profile
            print(profile, "no context:", exc)
            continue
        print(profile, "GL_RENDERER =", GL.glGetString(GL.GL_RENDERER).decode())
        print(profile, "GL_VERSION =", GL.glGetString(GL.GL_VERSION).decode())
        for name in NAMES:
            enum = getattr(GL, name, None)
            if enum is None:
                print(profile, name, "= (PyOpenGL has no such enum)")
                continue
            try:
                value = int(GL.glGetIntegerv(enum))
            except Exception as exc:  # noqa: BLE001 - an enum the profile lacks: GL_INVALID_ENUM
                value = f"error {getattr(exc, 'err', exc)}"
            print(profile, name, "=", value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
