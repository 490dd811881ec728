"""Reference models of what the OpenGL spec says a draw must produce."""
