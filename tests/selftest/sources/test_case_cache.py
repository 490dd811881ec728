"""The case cache gives back what the generator gave, and never a stale or broken entry."""
from __future__ import annotations

import importlib.util
import os
import pickle
import sys

import pytest

from harness.sources import case_cache

GENERATOR = ("from pathlib import Path\nVALUE = {value}\n\ndef generate():\n"
             "    return [('case', VALUE, (Path(__file__).parent / 'stage.glsl').read_text())]\n")


@pytest.fixture
def family(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HARNESS_CASE_CACHE", raising=False)
    path = tmp_path / "family" / "cases.py"
    path.parent.mkdir()
    template = path.parent / "stage.glsl"
    template.write_text("void main() {}\n")
    calls = []

    def load(value: int):
        path.write_text(GENERATOR.format(value=value))
        # a distinct mtime per version, whole seconds apart: Python's bytecode cache compares a
        # source's mtime in seconds (and its size, the same here), and 3.13 reuses it otherwise
        os.utime(path, (value, value))
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


CASE_1 = [("case", 1, "void main() {}\n")]


def test_second_load_comes_from_the_cache(family):
    load, calls, _ = family
    assert load(1) == CASE_1 and load(1) == CASE_1
    assert calls == [1]


def test_a_changed_source_regenerates(family):
    load, calls, _ = family
    load(1)
    assert load(2) == [("case", 2, "void main() {}\n")]
    assert calls == [1, 2]


def test_a_broken_entry_regenerates(family):
    load, calls, _ = family
    load(1)
    for entry in case_cache.folder().iterdir():
        entry.write_bytes(b"not a pickle")
    assert load(1) == CASE_1
    assert calls == [1, 1]


def test_switched_off(family, monkeypatch):
    load, calls, _ = family
    monkeypatch.setenv("HARNESS_CASE_CACHE", "0")
    load(1), load(1)
    assert calls == [1, 1]


def test_a_changed_template_regenerates(family):
    """A template is read by the generator, never imported; it counts as a source all the same."""
    load, calls, path = family
    load(1)
    template = path.parent / "stage.glsl"
    template.write_text("void main() { }\n")
    os.utime(template, ns=(5, 5))
    assert load(1) == [("case", 1, "void main() { }\n")]
    assert calls == [1, 1]


def test_a_family_entry_covers_its_modules_and_templates(tmp_path, monkeypatch):
    """The tess family is a package of sub-family modules and templates: each one is a source."""
    from harness.sources import catalog
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HARNESS_CASE_CACHE", raising=False)
    cases_py = catalog.ROOT / "tests" / "tess" / "cases.py"

    def import_only():                  # loading the modules is enough; no need for the cases
        catalog.family_module(cases_py)
        return []
    case_cache.load(cases_py, import_only)
    (entry,) = case_cache.folder().iterdir()
    _, sources, _ = pickle.loads(entry.read_bytes())
    family_files = {str(p) for p in cases_py.parent.iterdir() if p.is_file()}
    assert {"coords.py", "vertex_types.py", "coords.tese", "types.vert"} <= {os.path.basename(s) for s in sources}
    assert family_files <= set(sources)
