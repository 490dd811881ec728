"""The GL objects a case made, deleted together when it ends."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from harness.backends.gl.calls import Calls


class Objects:
    """GL objects a case created, deleted together when it ends; `calls`, the raw calls
    (calls.py) that make and delete the common kinds."""

    def __init__(self, GL: Any, calls: Calls):
        self.GL = GL
        self.calls = calls
        self._made: list[tuple[str, int]] = []

    def _add(self, kind: str, name: Any) -> int:
        name = name if isinstance(name, int) else int(np.ravel(name)[0])   # glGen* hand back arrays
        self._made.append((kind, name))
        return int(name)

    def new(self, kind: str) -> int:
        """A name made by glGen*(1) of a kind calls.py makes, to be deleted with the others."""
        return self._add(kind, self.calls.gen(kind))

    def last(self) -> int:
        return self._made[-1][1]

    def latest(self, kind: str) -> int | None:
        return next((name for k, name in reversed(self._made) if k == kind), None)

    def forget(self, kind: str, name: int) -> None:
        """An object the case deleted itself."""
        self._made.remove((kind, name))

    def program(self, name: Any) -> int: return self._add("program", name)
    def pipeline(self, name: Any) -> int: return self._add("pipeline", name)
    def shader(self, name: Any) -> int: return self._add("shader", name)
    def texture(self, name: Any) -> int: return self._add("texture", name)
    def display_list(self, name: Any) -> int: return self._add("display_list", name)

    def delete(self) -> None:
        GL = self.GL
        deleters: dict[str, Callable[[int], object]] = {
            "program": GL.glDeleteProgram, "shader": GL.glDeleteShader,
            "pipeline": lambda n: GL.glDeleteProgramPipelines(1, [n]),
            "texture": lambda n: GL.glDeleteTextures(1, [n]),
            "display_list": lambda n: GL.glDeleteLists(n, 1)}
        calls = self.calls
        for kind, name in reversed(self._made):
            if calls.generates(kind):
                quietly(calls.delete, kind, name)
            else:
                quietly(deleters[kind], name)
        self._made.clear()


def quietly(call: Callable[..., object], *args: Any) -> None:
    """Clean-up after a failed case must not hide the error that failed it."""
    try:
        call(*args)
    except Exception:
        pass
