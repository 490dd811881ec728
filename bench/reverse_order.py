"""pytest plugin: run the collected items in reverse order (`-p reverse_order`, with bench/ on
PYTHONPATH). bench/piglit_compare.py uses it to show that no verdict depends on the cases
that ran before it. It runs after the harness's own ordering (targets, shards, --shuffle), so
the order it reverses is the one the run would otherwise have."""
import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    items.reverse()
