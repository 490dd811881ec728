"""Self-tests of harness/pytest_adapter/ (a package, so that its test modules' names need not be unique across folders)."""
