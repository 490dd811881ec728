"""Self-tests of harness/triage/ (a package, so that its test modules' names need not be unique across folders)."""
