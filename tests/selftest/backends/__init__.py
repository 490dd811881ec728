"""Self-tests of harness/backends/ (a package, so that its test modules' names need not be unique across folders)."""
