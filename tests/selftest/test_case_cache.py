"""The case cache gives back what the generator gave, and never a stale or broken entry."""
from __future__ import annotations

import importlib.util
import os
import sys

import pytest

from harness import case_cache

GENERATOR = "VALUE = {value}\n\ndef generate():\n    return [('case', VALUE)]\n"


@pytest.fixture
def family(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HARNESS_CASE_CACHE", raising=False)
    path = tmp_path / "cases.py"
    calls = []

    def load(value: int):
        path.write_text(GENERATOR.format(value=value))
        os.utime(path, ns=(value, value))                # a distinct mtime per version
        name = f"cache_family_{tmp_path.name}"

        def generate():
            calls.append(value)
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module                     # a loaded source, as catalog does
            spec.loader.exec_module(module)
            return module.generate()
        return case_cache.load(path, generate)
    yield load, calls, path
    sys.modules.pop(f"cache_family_{tmp_path.name}", None)


def test_second_load_comes_from_the_cache(family):
    load, calls, _ = family
    assert load(1) == [("case", 1)] and load(1) == [("case", 1)]
    assert calls == [1]


def test_a_changed_source_regenerates(family):
    load, calls, _ = family
    load(1)
    assert load(2) == [("case", 2)]
    assert calls == [1, 2]


def test_a_broken_entry_regenerates(family):
    load, calls, _ = family
    load(1)
    for entry in case_cache.folder().iterdir():
        entry.write_bytes(b"not a pickle")
    assert load(1) == [("case", 1)]
    assert calls == [1, 1]


def test_switched_off(family, monkeypatch):
    load, calls, _ = family
    monkeypatch.setenv("HARNESS_CASE_CACHE", "0")
    load(1), load(1)
    assert calls == [1, 1]
