"""A Mesa under test: a --mesa tree's runtime, Debian packages fetched by version, builds from source."""
