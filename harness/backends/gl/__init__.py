"""The GL backend: PyOpenGL over headless EGL (or a hidden GLFW window)."""
