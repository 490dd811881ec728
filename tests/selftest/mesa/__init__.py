"""Self-tests of harness/mesa/ (a package, so that its test modules' names need not be unique across folders)."""
