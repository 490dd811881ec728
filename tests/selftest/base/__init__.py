"""Self-tests of harness/base/ (a package, so that its test modules' names need not be unique across folders)."""
