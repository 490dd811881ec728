"""Self-tests of harness/scheduler/ (a package, so that its test modules' names need not be unique across folders)."""
