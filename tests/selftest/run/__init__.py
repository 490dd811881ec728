"""Self-tests of harness/run/ (a package, so that its test modules' names need not be unique across folders)."""
