"""Self-tests of harness/sources/ (a package, so that its test modules' names need not be unique across folders)."""
