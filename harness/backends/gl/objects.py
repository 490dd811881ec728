"""The GL objects a case made, deleted together when it ends."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np


class Objects:
    """GL objects a case created, deleted together when it ends."""

    def __init__(self, GL: Any):
        self.GL = GL
        self._made: list[tuple[str, int]] = []

    def _add(self, kind: str, name: Any) -> int:
        name = int(np.ravel(name)[0])         # glGen* hand back arrays, glCreate* plain ints
        self._made.append((kind, name))
        return int(name)

    def last(self) -> int:
        return self._made[-1][1]

    def latest(self, kind: str) -> int | None:
        return next((name for k, name in reversed(self._made) if k == kind), None)

    def forget(self, kind: str, name: int) -> None:
        """An object the case deleted itself."""
        self._made.remove((kind, name))

    def program(self, name: Any) -> int: return self._add("program", name)
    def pipeline(self, name: Any) -> int: return self._add("pipeline", name)
    def framebuffer(self, name: Any) -> int: return self._add("framebuffer", name)
    def renderbuffer(self, name: Any) -> int: return self._add("renderbuffer", name)
    def shader(self, name: Any) -> int: return self._add("shader", name)
    def buffer(self, name: Any) -> int: return self._add("buffer", name)
    def vertex_array(self, name: Any) -> int: return self._add("vertex_array", name)
    def query(self, name: Any) -> int: return self._add("query", name)
    def texture(self, name: Any) -> int: return self._add("texture", name)
    def display_list(self, name: Any) -> int: return self._add("display_list", name)

    def delete(self) -> None:
        GL = self.GL
        deleters: dict[str, Callable[[int], object]] = {
            "program": GL.glDeleteProgram, "shader": GL.glDeleteShader,
            "buffer": lambda n: GL.glDeleteBuffers(1, [n]),
            "vertex_array": lambda n: GL.glDeleteVertexArrays(1, [n]),
            "query": lambda n: GL.glDeleteQueries(1, [n]),
            "pipeline": lambda n: GL.glDeleteProgramPipelines(1, [n]),
            "framebuffer": lambda n: GL.glDeleteFramebuffers(1, [n]),
            "renderbuffer": lambda n: GL.glDeleteRenderbuffers(1, [n]),
            "texture": lambda n: GL.glDeleteTextures(1, [n]),
            "display_list": lambda n: GL.glDeleteLists(n, 1)}
        for kind, name in reversed(self._made):
            quietly(deleters[kind], name)
        self._made.clear()


def quietly(call: Callable[..., object], *args: Any) -> None:
    """Clean-up after a failed case must not hide the error that failed it."""
    try:
        call(*args)
    except Exception:
        pass
