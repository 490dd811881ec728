"""Importers: files in other suites' formats turned into harness Cases (shader_test.py: piglit's
shader_runner files; collect.py: the pytest collection of them)."""
