"""`harness blame`'s verdicts (harness/triage/blame_rules.py): the component a failing case's
evidence names, or undecided. One list for the rules, the history's culprits
(harness/history/culprits.py), its KCIDB export (harness/history/kcidb.py) and the triage
folders' records (harness/model/defects.py). Blames are str enums: written and read as their names.
"""
from __future__ import annotations

import enum


class Blame(enum.StrEnum):
    FRONT_END = "GL front end / state tracker"
    LLVMPIPE = "llvmpipe"
    DRAW = "gallium draw module"
    ZINK = "zink"
    LAVAPIPE = "lavapipe"
    LAYER = "harness layer"         # the harness's own Vulkan layer
    UNDECIDED = "undecided"         # blames nothing: the evidence does not tell


VERDICTS = tuple(Blame)                                             # what blame may answer
COMPONENTS = tuple(b for b in Blame if b is not Blame.UNDECIDED)    # what a verdict may blame
