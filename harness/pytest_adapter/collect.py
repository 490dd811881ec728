"""pytest collection of piglit `.shader_test` files: `--shader-tests DIR_OR_FILE...`.

Each file is one Case (harness/sources/shader_test/), run on every selected target as a
`harness.pytest_adapter.items.CaseItem` named `<case id>[<target>]`, exactly like a family's case: -k,
baselines, JUnit, results.json and --resume all see the same id. Directories are searched for
`*.shader_test` files, in sorted order, so every xdist worker collects the same items.

When --shader-tests is given and no test paths are, pytest collects only those files (not the
ini's testpaths); test paths given as well are collected beside them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from harness.sources import shader_test
from harness.pytest_adapter.items import CaseItem, case_items

SEEN = pytest.StashKey[dict[str, Path]]()              # case id -> the file that made it (duplicates are errors)


def shader_test_files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.shader_test") if p.is_file())
        elif path.is_file():
            found.append(path)
        else:
            raise pytest.UsageError(f"--shader-tests {text}: no such file or directory")
    return list(dict.fromkeys(p.resolve() for p in found))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shader_test: cases imported from piglit .shader_test files")
    config.stash[SEEN] = {}
    paths = config.getoption("shader_tests", None)
    if not paths:
        return
    files = [str(p) for p in shader_test_files(paths)]
    explicit = config.args_source == pytest.Config.ArgsSource.ARGS
    config.args[:] = (list(config.args) if explicit else []) + files


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ShaderTestFile | None:
    if file_path.suffix == ".shader_test" and parent.config.getoption("shader_tests", None):
        return ShaderTestFile.from_parent(parent, path=file_path)
    return None


class ShaderTestFile(pytest.File):
    def collect(self) -> Iterator[CaseItem]:
        try:
            case = shader_test.load(self.path)
        except (OSError, ValueError) as exc:          # an unreadable file, a path no id can be made of
            raise self.CollectError(f"{self.path}: cannot import: {exc}") from None
        seen = self.config.stash[SEEN]
        other = seen.setdefault(case.id, self.path)
        if other != self.path:
            raise self.CollectError(f"{self.path}: case id {case.id} is also the id of {other}")
        yield from case_items(self, case)
