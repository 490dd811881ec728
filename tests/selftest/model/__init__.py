"""Self-tests of harness/model/ (a package, so that its test modules' names need not be unique across folders)."""
