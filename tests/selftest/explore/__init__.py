"""Self-tests of harness/explore/ (a package, so that its test modules' names need not be unique across folders)."""
