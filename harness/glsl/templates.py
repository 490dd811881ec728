"""GLSL sources live beside their family as readable templates (Jinja2), rendered per case."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import jinja2
from jinja2.environment import TemplateModule


# The templates are part of the checkout: they do not change under a running harness, so each
# is compiled once a process. auto_reload=False: Jinja would otherwise stat a template's file
# on every lookup (a render's, and each {% import %} in it), a third of a render's CPU.


@lru_cache(maxsize=None)
def _environment(folder: str) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True, autoescape=False,
                              trim_blocks=True, lstrip_blocks=True, auto_reload=False)


@lru_cache(maxsize=None)
def _template(path: str) -> jinja2.Template:
    """A template file by its path (lru_cache on a pure function of the path, as above)."""
    folder, name = os.path.split(path)
    return _environment(folder).get_template(name)


# Parameters of these exact types only: values of one type that are equal render alike (unlike
# 1 and True, or 0.0 and -0.0, which a cache keyed on the values alone would confuse).
_PLAIN = (str, bool, int, type(None))


def render(path: Path | str, **params: object) -> str:
    """The template at `path`, filled with `params`. A template's text is a function of its
    parameters alone, so where every parameter is a plain str, bool, int or None the text is
    remembered: a family renders the same few stages for many cases (a tess TES of a domain,
    spacing and winding)."""
    if all(type(value) in _PLAIN for value in params.values()):
        return _rendered(str(path), tuple((name, type(value), value) for name, value in sorted(params.items())))
    return _template(str(path)).render(**params)


# A cache on a pure function of plain values, bounded (every catalog case and 6,000 draws: 196 texts).
@lru_cache(maxsize=1024)
def _rendered(path: str, params: tuple[tuple[str, type, object], ...]) -> str:
    return _template(path).render(**{name: value for name, _, value in params})


def macros(path: Path | str) -> TemplateModule:
    """The macros of a template file, callable from Python: a formula kept there as GLSL renders
    into the shader and into the text the oracle evaluates (harness/oracle/glsl_expr.py)."""
    return _template(str(path)).module
