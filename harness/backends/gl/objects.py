"""The GL objects a case made, deleted together when it ends."""
from __future__ import annotations

import numpy as np


class Objects:
    """GL objects a case created, deleted together when it ends."""

    def __init__(self, GL):
        self.GL = GL
        self._made = []

    def _add(self, kind, name):
        name = int(np.ravel(name)[0])         # glGen* hand back arrays, glCreate* plain ints
        self._made.append((kind, name))
        return name

    def last(self): return self._made[-1][1]

    def latest(self, kind):
        return next((name for k, name in reversed(self._made) if k == kind), None)

    def forget(self, kind, name):
        """An object the case deleted itself."""
        self._made.remove((kind, name))
    def program(self, name): return self._add("program", name)
    def pipeline(self, name): return self._add("pipeline", name)
    def framebuffer(self, name): return self._add("framebuffer", name)
    def renderbuffer(self, name): return self._add("renderbuffer", name)
    def shader(self, name): return self._add("shader", name)
    def buffer(self, name): return self._add("buffer", name)
    def vertex_array(self, name): return self._add("vertex_array", name)
    def query(self, name): return self._add("query", name)
    def texture(self, name): return self._add("texture", name)
    def display_list(self, name): return self._add("display_list", name)

    def delete(self):
        GL = self.GL
        deleters = {"program": GL.glDeleteProgram, "shader": GL.glDeleteShader,
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


def quietly(call, *args):
    """Clean-up after a failed case must not hide the error that failed it."""
    try:
        call(*args)
    except Exception:
        pass
