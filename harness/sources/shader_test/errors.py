"""The one way the importer gives up on a file."""
from __future__ import annotations

from harness.base.errors import CaseOutcome


class Unsupported(CaseOutcome):
    """A line the importer cannot turn into harness terms; the case is skipped naming it."""
