"""The harness as an installed tool: pyproject.toml's wheel holds every harness package and every
family (tests/<family>: its modules, GLSL templates and kept findings, as harness/bundled/tests/
<family>), and names the console script. The wheel itself, installed into a fresh venv and run
outside the checkout, is bench/wheel.sh (its pip install needs the package index)."""
from __future__ import annotations

import fnmatch
import tomllib

import pytest

from conftest import ROOT
from harness.model import families

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PROJECT["tool"]["setuptools"]


def test_the_console_script_is_the_module_entry_point():
    assert PROJECT["project"]["scripts"] == {"gl-layer-harness": "harness.__main__:main"}


def test_every_harness_package_is_in_the_wheel():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "harness").rglob("__init__.py")}
    assert found <= set(SETUPTOOLS["packages"]), f"add to pyproject's packages: {sorted(found - set(SETUPTOOLS['packages']))}"


def test_every_file_beside_the_harness_code_is_in_the_wheel():
    """Templates the harness renders (the report's, the C reproducer's repro.c.j2) are package data."""
    files = [p.relative_to(ROOT / "harness").as_posix() for p in (ROOT / "harness").rglob("*")
             if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert "run/templates/repro.c.j2" in files
    globs = SETUPTOOLS["package-data"]["harness"]
    left_out = [f for f in files if not any(fnmatch.fnmatch(f, g) for g in globs)]
    assert not left_out, f"add to pyproject's package-data for harness: {left_out}"


@pytest.mark.parametrize("family", families.FAMILIES)
def test_every_file_of_a_family_is_in_the_wheel(family):
    package = f"harness.bundled.tests.{family}"
    assert package in SETUPTOOLS["packages"] and SETUPTOOLS["package-dir"][package] == f"tests/{family}"
    globs = SETUPTOOLS["package-data"][package]
    files = [p for p in (ROOT / "tests" / family).iterdir() if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert files
    left_out = [p.name for p in files if not any(fnmatch.fnmatch(p.name, g) for g in globs)]
    assert not left_out, f"add to pyproject's package-data for {package}: {left_out}"


def test_a_missing_family_is_one_line_saying_where_families_must_be(tmp_path):
    with pytest.raises(families.NoSuchCase) as error:
        families.family_module(tmp_path / "tests" / "tess" / "cases.py")
    message = str(error.value)
    assert "\n" not in message and message.startswith(f"the tess family is missing: no {tmp_path}")
    assert "a checkout's tests/<family>/" in message and str(families.BUNDLED / "tests") in message
