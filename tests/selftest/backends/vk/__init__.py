"""Self-tests of harness/backends/vk/ (a package, so that its test modules' names need not be unique across folders)."""
