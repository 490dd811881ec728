"""Where cases come from: the families' generators through the catalog (cached), piglit shader_test files, explored ids and kept findings."""
