"""Self-tests of harness/glsl/ (a package, so that its test modules' names need not be unique across folders)."""
