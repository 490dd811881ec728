"""Self-tests of harness/oracle/ (a package, so that its test modules' names need not be unique across folders)."""
