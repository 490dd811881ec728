"""The harness's layers stay layers: no import cycle among its modules, and the process
environment is read in one configuration module (harness/base/config.py) and in the child's entry
point only. Imports inside functions count, and so do modules named by a string (`__import__`,
importlib, a registry of backends, pytest_plugins): they tie the modules as much as any import."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "harness"
# Reading the environment: get, [], in, items, copies. Writes (setdefault before numpy loads,
# PYOPENGL_PLATFORM before PyOpenGL loads) configure this process and are not reads.
READ = re.compile(r"os\.environ(\.get\(|\[(?!.*\]\s*=[^=])|\.items\(|\.keys\(|\.copy\(|\b(?!\.setdefault|\[))"
                  r"|in os\.environ|os\.getenv\(")
ENVIRONMENT_READERS = {"harness/base/config.py", "harness/executor/child.py",
                       "harness/mesa/fetch.py"}     # stdlib-only: a standalone downloader


# The layers, lowest first: a module may import its own layer's modules and those of any layer
# before it, never one after it (docs/architecture.md draws them).
LAYERS = ["base", "model", "glsl", "oracle", "sources", "backends", "mesa", "executor", "run", "results",
          "report", "history", "scheduler", "explore", "triage", "pytest_adapter", "cli"]
TOP = {"harness": 0, "harness.__main__": len(LAYERS) - 1}       # the package's own files


def layer(module: str) -> int:
    """A module's place in LAYERS."""
    if module in TOP:
        return TOP[module]
    return LAYERS.index(module.split(".")[1])


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a higher layer, as 'importer (layer) -> imported (layer)'."""
    return [f"{a} ({LAYERS[layer(a)]}) -> {b} ({LAYERS[layer(b)]})"
            for a in sorted(edges) for b in sorted(edges[a]) if layer(b) > layer(a)]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The harness modules `path` imports, anywhere in it."""
    found = set()
    own = module_name(path) if PACKAGE in path.parents else "harness.x"
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in modules:
            names = [node.value]            # a module named by a string
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != "harness":
                found.add(name)
    return found


def graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports(p, modules) - {module_name(p)} for p in paths}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle, as the modules around it, or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        stack.pop()
        return []

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_a_module_named_by_a_string_is_an_edge(tmp_path):
    path = tmp_path / "x.py"
    path.write_text('def f():\n    __import__("harness.base.profiling").profiling.child()\n')
    assert imports(path, {"harness.base.profiling", "harness.pytest_adapter.plugin"}) == {"harness.base.profiling"}


def test_the_cycle_finder_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_every_module_is_in_a_layer():
    assert all(m in TOP or m.split(".")[1] in LAYERS for m in graph()), \
        sorted(m for m in graph() if m not in TOP and m.split(".")[1] not in LAYERS)


def test_no_module_imports_from_a_layer_above_it():
    found = upward(graph())
    assert not found, "upward imports:\n" + "\n".join(found)


def test_a_planted_upward_import_is_found(tmp_path):
    """The check on a planted import: the case model importing the run core."""
    planted = tmp_path / "case.py"
    planted.write_text((PACKAGE / "model" / "case.py").read_text() + "\nfrom harness.run import core  # planted\n")
    edges = graph()
    edges["harness.model.case"] = imports(planted, set(edges)) | edges["harness.model.case"]
    assert upward(edges) == ["harness.model.case (model) -> harness.run (run)",      # its __init__ runs too
                             "harness.model.case (model) -> harness.run.core (run)"]


# The families' case builders (tests/<family>/*.py) are loaded by the sources layer (the catalog,
# through harness/model/families.py): they may import the layers below it, never it or one above.
FAMILY_LAYER = LAYERS.index("sources")


def family_imports() -> dict[str, set[str]]:
    """tests/<family>/<module>.py -> the harness modules it imports."""
    from harness.model.families import FAMILIES
    modules = set(graph())
    return {str(p.relative_to(ROOT)): imports(p, modules)
            for family in FAMILIES for p in sorted((ROOT / "tests" / family).glob("*.py"))}


def family_upward(edges: dict[str, set[str]]) -> list[str]:
    return [f"{a} -> {b} ({LAYERS[layer(b)]})" for a in sorted(edges) for b in sorted(edges[a])
            if layer(b) >= FAMILY_LAYER]


def test_no_family_imports_the_sources_layer_or_above():
    edges = family_imports()
    assert "tests/tess/cases.py" in edges and edges["tests/tess/cases.py"], "the families' modules not found"
    found = family_upward(edges)
    assert not found, "a family imports above the layers below sources:\n" + "\n".join(found)


def test_a_planted_family_import_of_the_catalog_is_found(tmp_path):
    planted = tmp_path / "cases.py"
    planted.write_text("from harness.model.case import Case\nfrom harness.sources import catalog  # planted\n")
    edges = {"tests/x/cases.py": imports(planted, set(graph()))}
    assert family_upward(edges) == ["tests/x/cases.py -> harness.sources (sources)",
                                    "tests/x/cases.py -> harness.sources.catalog (sources)"]


def test_no_import_cycle_among_harness_modules():
    found = cycle(graph())
    assert not found, "import cycle: " + " -> ".join(found)


def sibling_imports(folder: Path) -> dict[str, set[str]]:
    """A family's module -> the family's modules it imports (`from . import x`, `from .x import y`)."""
    names = {p.stem for p in folder.glob("*.py")}
    edges: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module} if node.module else {a.name for a in node.names}
        edges[path.stem] = found & names
    return edges


def test_no_import_cycle_within_a_family():
    from harness.model.families import FAMILIES
    found = {f: cycle(sibling_imports(ROOT / "tests" / f)) for f in FAMILIES}
    assert sibling_imports(ROOT / "tests" / "primitives")["cases"], "the families' own imports not found"
    assert not any(found.values()), f"import cycle in a family: { {f: c for f, c in found.items() if c} }"


def test_a_planted_family_cycle_is_found(tmp_path):
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("from .a import make\n")
    assert cycle(sibling_imports(tmp_path)) == ["a", "b", "a"]


@pytest.mark.parametrize("line, reads", [
    ('x = os.environ.get("HARNESS_MESA")', True), ('if "A" in os.environ:', True),
    ("env = dict(os.environ)", True), ("for k, v in os.environ.items():", True),
    ('os.environ["PYOPENGL_PLATFORM"] = "egl"', False), ('os.environ.setdefault("A", "1")', False),
    ('x = os.environ["A"]', True)])
def test_the_environment_reader_pattern(line, reads):
    assert bool(READ.search(line)) is reads


def test_the_environment_is_read_in_the_configuration_module_only():
    from harness.model.families import FAMILIES
    paths = [*PACKAGE.rglob("*.py"), *(p for f in FAMILIES for p in (ROOT / "tests" / f).glob("*.py"))]
    readers = {str(p.relative_to(PACKAGE.parent)) + f":{n}"
               for p in paths for n, line in enumerate(p.read_text().splitlines(), 1)
               if READ.search(line.split("#")[0]) and str(p.relative_to(PACKAGE.parent)) not in ENVIRONMENT_READERS}
    assert not readers, f"os.environ read outside harness/base/config.py: {sorted(readers)}"
