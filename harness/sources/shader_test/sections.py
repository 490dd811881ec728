"""A shader_test file split into its sections: `[require]`, one per shader stage, `[vertex data]`
and `[test]`. Comments (`#` to the end of the line, and C comment blocks in [require]) and blank
lines are dropped outside shader sources; a section the importer cannot run is noted, not read."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.model.glfacts import COMPUTE, STAGES

STAGE_SECTIONS = {stage.piglit_section: stage.key for stage in STAGES + (COMPUTE,)}
PASSTHROUGH_VS = "vertex shader passthrough"
OTHER_SECTIONS = ("require", "vertex data", "test")


@dataclass
class Script:
    """A shader_test split into its sections (line numbers are 1-based, for messages)."""
    require: list[tuple[int, str]] = field(default_factory=list)
    shaders: list[tuple[str, str, int]] = field(default_factory=list)     # (stage, source, line)
    passthrough_vs: bool = False
    vertex_data: list[tuple[int, str]] = field(default_factory=list)
    test: list[tuple[int, str]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)                 # sections we cannot run


@dataclass
class _Section:
    """The section being read: its name, and for a shader its text so far and first line."""
    name: str | None = None
    body: list[str] = field(default_factory=list)
    start: int = 0


def split(text: str) -> Script:
    script = Script()
    section = _Section()
    in_comment = False
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        head = re.match(r"^\[([^\]]+)\]\s*$", line)
        if head:
            _close(script, section)
            section = _Section(head[1].strip(), [], number + 1)
            if section.name == PASSTHROUGH_VS:
                script.passthrough_vs = True
            elif section.name not in STAGE_SECTIONS and section.name not in OTHER_SECTIONS:
                script.unsupported.append(f"section [{section.name}] (line {number})")
            continue
        if section.name in STAGE_SECTIONS:
            section.body.append(line)
            continue
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        if section.name == "require" and (content.startswith(("/*", "*")) or in_comment):
            in_comment = "*/" not in content                 # a C comment block: text, not a requirement
            continue
        if section.name == "require":
            script.require.append((number, content))
        elif section.name == "vertex data":
            script.vertex_data.append((number, content))
        elif section.name == "test":
            script.test.append((number, content))
    _close(script, section)
    return script


def _close(script: Script, section: _Section) -> None:
    if section.name in STAGE_SECTIONS:
        script.shaders.append((STAGE_SECTIONS[section.name], "".join(section.body), section.start))
