"""The harness's exceptions, under one root, in branches that say whose fault it is and what follows.

    HarnessError
    ├── UsageError      bad input (an argument, a file, a case id, a Mesa tree): one line on
    │                   stderr, exit 2; `bisect-run` exits 128 so that `git bisect run` stops
    ├── HarnessFault    the harness's own fault: a case it hits is `error`, never `fail`, and
    │   │               no baseline may list it; a command it ends prints the traceback, exit 3
    │   │               (128 for bisect-run)
    │   └── LayerFault  the harness's GL-on-Vulkan layer (harness/backends/vk): GLSL it cannot
    │                   translate, its output refused by glslang, a validation report on its
    │                   own Vulkan calls (docs/decisions.md#a-fail-on-a-lavapipe-target)
    └── CaseOutcome     neither: what a case or a search came to (a skip, the driver's failure,
                        a dead child), raised to end it early and judged by whoever catches it

A class that callers already catch by a builtin type (ValueError, LookupError, KeyError) keeps it
as a second base. Only the standard library here: harness/mesa/fetch.py imports this module
before a virtual environment exists.
"""
from __future__ import annotations


class HarnessError(Exception):
    """The root: every exception the harness defines."""


class UsageError(HarnessError):
    """Bad input: the message is one line for the user, and the command exits 2."""


class HarnessFault(HarnessError):
    """The harness's own fault: nothing in it says anything about the driver."""


class LayerFault(HarnessFault):
    """The harness's Vulkan layer failed a case (translation, glslang, its own calls refused by
    the validation layer): status `error`. `what` says which and why."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what

    def __str__(self) -> str:
        return f"harness layer: {self.what}"

    def on(self, case_id: str) -> str:
        """The message for a case's verdict: the fault, then the case (the verdict adds the target)."""
        return f"{self}\n[case {case_id}]"


class CaseOutcome(HarnessError):
    """How a case (or a search) ended, raised to stop it early: not a fault of the input or of
    the harness; the catcher turns it into a verdict (skip, fail, crash) or a result."""
