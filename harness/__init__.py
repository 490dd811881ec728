"""Conformance harness for OpenGL layered on Vulkan (zink) and the Vulkan drivers beneath."""
__version__ = "0.1.0"
