"""Self-tests of harness/cli/ (a package, so that its test modules' names need not be unique across folders)."""
