"""The case id of a .shader_test file: stable, whatever path named the file."""
from __future__ import annotations

import re
from pathlib import Path

from harness.model.case import ID_RE

FAMILY = "shader_test"


def case_id(path: Path) -> str:
    """`shader_test/` + the path below the nearest enclosing folder named `tests` (piglit's tree
    and this project's both have one), without `.shader_test`; where there is none, the file's
    name alone. The id does not depend on how the file was named on the command line.
    Characters a case id cannot hold become `_`."""
    path = Path(path).resolve()
    parts = path.with_suffix("").parts
    anchor = max((i for i, part in enumerate(parts[:-1]) if part == "tests"), default=None)
    below = parts[anchor + 1:] if anchor is not None else parts[-1:]
    tokens = []
    for part in below:
        token = re.sub(r"[^A-Za-z0-9_.+-]", "_", part)
        tokens.append(token if token[:1].isalnum() else "x" + token)
    text = FAMILY + "/" + "/".join(tokens)
    if not ID_RE.match(text):
        raise ValueError(f"{path}: cannot make a case id from it ({text!r})")
    return text
