"""Self-tests of harness/executor/ (a package, so that its test modules' names need not be unique across folders)."""
