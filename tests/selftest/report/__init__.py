"""Self-tests of harness/report/ (a package, so that its test modules' names need not be unique across folders)."""
