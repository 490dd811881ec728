"""Self-tests of harness/results/ (a package, so that its test modules' names need not be unique across folders)."""
