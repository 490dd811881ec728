"""Conformance harness for OpenGL layered on Vulkan (zink) and the Vulkan drivers beneath."""
import os

__version__ = "0.1.0"

# numpy's OpenBLAS starts a thread per core in every process that imports it, and the harness
# has many (pytest, each xdist worker, each executor child). Its numpy work is small arrays, where
# one thread is faster (docs/decisions.md#openblas-threads). Set before any harness
# module imports numpy; an explicit OPENBLAS_NUM_THREADS still wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
