"""Conformance harness for OpenGL layered on Vulkan (zink) and the Vulkan drivers beneath."""
import os

__version__ = "0.1.0"

# numpy's OpenBLAS starts a thread per core in every process that imports it, and the harness
# has many (pytest, each xdist worker, each executor child). Its numpy work is small arrays, where
# one thread is faster: on the 16-core NVIDIA machine, 2.2 s of CPU per `import numpy` became
# 0.3 s, and collecting the three families took 1.6 s instead of 5.0 s. Set before any harness
# module imports numpy; an explicit OPENBLAS_NUM_THREADS still wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
