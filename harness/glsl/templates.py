"""GLSL sources live beside their family as readable templates (Jinja2), rendered per case."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2


@lru_cache(maxsize=None)
def _environment(folder: str) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True, autoescape=False,
                              trim_blocks=True, lstrip_blocks=True)


def render(path: Path, **params) -> str:
    path = Path(path)
    return _environment(str(path.parent)).get_template(path.name).render(**params)


def macros(path: Path):
    """The macros of a template file, callable from Python: a formula kept there as GLSL renders
    into the shader and into the text the oracle evaluates (harness/oracle/glsl_expr.py)."""
    path = Path(path)
    return _environment(str(path.parent)).get_template(path.name).module
