"""Alembic migrations of the results history's schema (harness/history/store.py runs them), and
how a store's schema is compared with harness/history/schema.py's (by `alembic revision
--autogenerate` and `alembic check` through env.py, and by tests/selftest/history/test_schema.py)."""
from __future__ import annotations

import re
from typing import TypedDict

_CAST = re.compile(r"::[a-z ]+$")           # PostgreSQL's ''::character varying


def _plain(default: str | None) -> str | None:
    if default is None:
        return None
    text = _CAST.sub("", default.strip())
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":       # Alembic renders the metadata's '' unquoted
        text = text[1:-1]
    return text


def same_default(_context: object, _inspected_column: object, _metadata_column: object,
                 inspected_default: str | None, _metadata_default: object,
                 rendered_metadata_default: str | None) -> bool | None:
    """Alembic's server-default comparison, less its false alarm: it reads SQLite's `DEFAULT ('')`
    as differing from the '' that made it. False (no change) where the two are the same text once
    parentheses, quotes and PostgreSQL's cast are set aside; None: Alembic's own comparison decides."""
    if _plain(inspected_default) == _plain(rendered_metadata_default):
        return False
    return None


class Comparison(TypedDict):
    """The options of Alembic's comparison (context.configure's keywords of that name)."""
    compare_type: bool
    compare_server_default: object


COMPARE: Comparison = {"compare_type": True, "compare_server_default": same_default}
