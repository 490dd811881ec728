"""How a case fails, read from its verdict: what reduction must keep and what findings group by.

A failing verdict's message has one line per wrong quantity (harness/oracle/verdict.py):
`<where>: <quantity> = <value>, expected <value>` (or `<quantity>: n of m expected values never
seen`, a count, a stray record...), then `[<target: renderer>]`. The quantity, with the stage the
location names (TES, GS, FS...), is what went wrong; numbers are normalised away so that
`gl_TexCoord[2].y` and `gl_TexCoord[5].x` read the same. A crash, timeout or error is its first
line (`child process died: killed by SIGSEGV`) and the driver's last stderr line, normalised.

- `reduction_key`: what a reduced case must still show: the same status and, for a failure, the
  first wrong quantity of the original (the verdict lists counts before values, so this is the
  most basic thing wrong); for a crash or timeout, the same first line.
- `finding_key`: status, the stage set of the (reduced) case, the wrong quantities, the driver's
  message: two failures with the same key are one finding.

A compile or link failure (`GS failed to compile:` or `program failed to link:`, then the
driver's log) has one quantity, `build_failure`: the stage and the first error line of the log,
normalised (numbers, hex ids and addresses out). The rest of the log (NVIDIA's GL appends its
whole assembly listing) is not part of the signature: one bad line is one finding.
"""
from __future__ import annotations

import re
from typing import NotRequired, TypedDict

from harness.model.case import Case
from harness.model.status import Status, Verdict

_STAGE = re.compile(r"\b(VS|TCS|TES|GS|FS)\b")
_NUMBER = re.compile(r"0x[0-9a-fA-F]+|\d+(\.\d+)?")
_STATUS_PREFIX = re.compile(r"^(pass|skip|flake|fail|timeout|crash|error): ")
# `VS failed to compile:`, `GS (translated) failed to compile:`, `program failed to link:`,
# `program 1 failed to link:` (harness/backends/gl/programs.py, vk/spirv.py, vk/runner.py).
_BUILD_HEADER = re.compile(r"\b(?:(?P<stage>VS|TCS|TES|GS|FS|CS)(?: \(translated\))? failed to compile"
                           r"|failed to link)\b")
# Where a link log names its stage in words (NVIDIA: "assembly compile error for geometry shader").
_STAGE_WORDS = (("tessellation control", "TCS"), ("tessellation evaluation", "TES"), ("geometry", "GS"),
                ("fragment", "FS"), ("vertex", "VS"), ("compute", "CS"))


def normalise(text: str) -> str:
    return _NUMBER.sub("#", text).strip()


def problem_lines(message: str) -> list[str]:
    """The message's lines that name a problem: not the [target] line, not '... and n more',
    not the stderr tail's header."""
    lines = [line for line in _STATUS_PREFIX.sub("", message).splitlines() if line.strip()]
    return [line for line in lines if not (line.startswith("[") and line.endswith("]"))
            and not line.startswith("... and ")]


def quantity(line: str) -> str:
    """`TES gl_TessLevelOuter` from `draw 0, patch 1, TES: gl_TessLevelOuter = (1, 1), expected ...`."""
    where, sep, rest = line.partition(": ")
    if not sep:
        return normalise(line)[:80]
    stages = _STAGE.findall(where)
    if " records captured, expected " in rest:
        name = "record count"
    elif "which the draw should not produce" in rest:
        name = "stray records"
    elif rest.startswith("triangle ") and " in (u, v), expected " in rest:
        name = "winding"
    else:
        # The quantity is the part before " = " (a location may hold ": ", as "pixel (2, 0): ", and
        # " = " inside parentheses); a value set's "<quantity>: n of m expected values never seen"
        # has no " = ".
        parts = rest.split(": ")
        name = next((part.split(" = ")[0] for part in parts if " = " in part), parts[0])
        name = _essence(name)
    return normalise(" ".join(stages[-1:] + [name]))


def _essence(name: str) -> str:
    """A read-back pixel's quantity by what it is, not which lane shows it: `row 1 (clipped by
    gl_ClipVertex), FS input gl_Color.x (gl_BackColor.x)` is the clipped row; `row 0, FS input
    u7.y` is FS input u7 (the varying; its source in parentheses and its component dropped)."""
    if name.startswith("row ") and ", FS input " in name:
        row, _, what = name.partition(", FS input ")
        if "(clipped by" in row:
            return row.split(" ", 2)[2].strip("()")
        what = re.sub(r" \(.*\)$", "", what)
        return "FS input " + re.sub(r"\.[xyzw]$", "", what)
    return name


def build_failure(message: str) -> str:
    """'GS compile error: <first error line>' for a compile or link failure, '' for anything else.
    The first error line is the log's first line that says "error" (else its first line)."""
    lines = problem_lines(message)
    found = next(((i, header) for i, line in enumerate(lines) if (header := _BUILD_HEADER.search(line))), None)
    if found is None:
        return ""
    at, header = found
    kind = "compile" if header.group("stage") else "link"
    log = []
    for line in lines[at + 1:]:
        if line.startswith("--- "):                 # the translated source after a Vulkan compile log
            break
        log.append(line.strip())
    first = next((line for line in log if "error" in line.lower()), log[0] if log else "")
    stage = header.group("stage")
    if stage is None:
        before = " ".join(log[:log.index(first) + 1] if first else []).lower()
        stage = next((key for words, key in _STAGE_WORDS if words in before), "program")
    return f"{stage} {kind} error: {normalise_log_line(first)}"


def normalise_log_line(line: str) -> str:
    """A driver's log line without what differs between two runs of the same fault: numbers,
    hex ids and addresses (`0:12(3)`, `%123`, `R12`, `0x7f3a...`, all `#`)."""
    return normalise(line)[:160]


def quantities(message: str) -> tuple[str, ...]:
    built = build_failure(message)
    if built:
        return (built,)
    # "<where>: nor is it <alternative>" only adds to the line before it (a value set the spec
    # allows in more than one form): no quantity of its own.
    return tuple(dict.fromkeys(quantity(line) for line in problem_lines(message) if ": nor is it " not in line))


def driver_line(message: str) -> str:
    """A crash's, timeout's or error's words: its first line and the last line of the driver's
    stderr, normalised."""
    lines = problem_lines(message)
    if not lines:
        return ""
    first = lines[0]
    tail = [line for line in lines[1:] if not line.startswith("---")]
    return normalise(first + (" | " + tail[-1] if tail else ""))[:200]


ReductionKey = tuple[str, str]         # (status, first wrong quantity or first line)


class FindingKey(TypedDict):
    """finding_key: what two failures that are one finding share (findings.json's signature)."""
    status: str
    stages: list[str]
    quantities: NotRequired[list[str]]      # a failure's wrong quantities, sorted
    driver: NotRequired[str]                # anything else: driver_line


def reduction_key(outcome: Verdict) -> ReductionKey:
    if outcome.status is Status.FAIL:
        found = quantities(outcome.message)
        return (outcome.status.value, found[0] if found else "")
    lines = problem_lines(outcome.message)
    return (outcome.status.value, normalise(lines[0]) if lines else "")


def same_failure(original: ReductionKey, outcome: Verdict) -> bool:
    """Whether `outcome` fails the way the reduction key `original` says."""
    if outcome.status.value != original[0]:
        return False
    if outcome.status is Status.FAIL:
        return original[1] in quantities(outcome.message)
    return reduction_key(outcome) == original


def stages(case: Case) -> tuple[str, ...]:
    found = {stage for program in (case.shaders,) + case.programs for stage, _ in program}
    return tuple(s for s in ("vs", "tcs", "tes", "gs", "fs", "cs") if s in found)


def finding_key(case: Case, outcome: Verdict) -> FindingKey:
    key: FindingKey = {"status": outcome.status.value, "stages": list(stages(case))}
    if outcome.status is Status.FAIL:
        key["quantities"] = sorted(quantities(outcome.message))
    else:
        key["driver"] = driver_line(outcome.message)
    return key


def is_finding(outcome: Verdict) -> bool:
    """A verdict worth a finding: a failure of any kind (skips and passes are not)."""
    return outcome.status.is_failure()
