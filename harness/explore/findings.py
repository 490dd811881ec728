"""Findings: the distinct failures of an exploration, each reduced, grouped by signature, and
written out with their reproducers.

RESULTS/findings.json lists them (with the run's seed, budget, target and Mesa); each has a
folder RESULTS/NNN-<status>-<quantity>/ holding the reduced case (case.json, a GLSL folder, a
.shader_test and a VkRunner script where export can express it), the verdicts before and after
reduction, and the commands that re-run, reduce and keep it.
"""
from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from harness.run import export, gpu_hangs
from harness.sources.catalog import prefix as catalog_prefix
from harness.model.case import Case
from harness.explore.signature import FindingKey, finding_key, problem_lines, stages
from harness.model.status import Verdict

SCHEMA = 1
# reduced_by of a finding not reduced (yet): findings.json is rewritten as an exploration goes
PENDING = "not reduced yet: the exploration is still running"
INTERRUPTED = "not reduced: the exploration was interrupted (--continue reduces it)"


def case_size(case: Case) -> dict[str, int]:
    """What reduction makes smaller, counted the same way for every family."""
    draws = case.draws()
    counts = [dict(e.counts) for e in case.expect]
    return {"stages": len(stages(case)), "programs": 1 + len(case.programs), "draws": len(draws),
            "entries": sum(len(d.entries) for d in draws),
            "vertices": sum(e.count * max(e.instance_count, 1) for d in draws for e in d.entries),
            "captured": sum(c.get("xfb_vertices", 0) for c in counts) + sum(len(e.pixels) for e in case.expect),
            "glsl_lines": sum(len(src.splitlines()) for program in (case.shaders,) + case.programs
                              for _, src in program),
            "expected_values": sum(len(e.sequence) + len(e.pixels) + len(e.groups) + len(e.value_sets)
                                   + len(e.counts) for e in case.expect)}


@dataclass
class Finding:
    key: FindingKey                         # signature.finding_key of the reduced case
    reduced: Case
    reduced_outcome: Verdict
    original: Case
    original_outcome: Verdict
    reduced_by: str                         # "hypothesis shrink (N runs)" or why not
    seen: list[str] = field(default_factory=list)   # ids of the explored cases that failed this way
    fixed_also: list[str] | None = None     # failing fixed cases that fail this way (compare.py); None: not compared

    @property
    def unreduced(self) -> bool:
        return self.reduced_by.startswith("not reduced")

    def slug(self, number: int) -> str:
        what = (self.key.get("quantities") or [self.key.get("driver", "")])[0]
        words = re.sub(r"[^A-Za-z0-9]+", "-", what).strip("-")[:40] or "x"
        return f"{number:03d}-{self.key['status']}-{words}"

    def to_json(self, folder: str) -> dict[str, Any]:
        return {"signature": self.key, "reduced_id": self.reduced.id, "original_id": self.original.id,
                "status": self.reduced_outcome.status.value,
                "message": "\n".join(problem_lines(self.reduced_outcome.message)[:4]),
                "reduced_by": self.reduced_by, "unreduced": self.unreduced, "size_before": case_size(self.original),
                "size_after": case_size(self.reduced), "seen": len(self.seen), "examples": self.seen[:5],
                "fixed_also": self.fixed_also, "folder": folder,
                "after_gpu_hang": gpu_hangs.flagged(self.original_outcome.message)
                or gpu_hangs.flagged(self.reduced_outcome.message)}


def merge(findings: list[Finding]) -> list[Finding]:
    """One finding per signature, the first found kept (its reduction is the representative)."""
    out: dict[str, Finding] = {}
    for finding in findings:
        text = json.dumps(finding.key, sort_keys=True)
        if text in out:
            out[text].seen += finding.seen
        else:
            out[text] = finding
    return list(out.values())


# export names files after the case id; a file name holds 255 bytes, with a suffix.
LONGEST_STEM = 200
# (folder, reduced id, original id, vk_without) -> the notes of its reproducers, written there
# already with case.json and original.json: findings.json is rewritten at each new failure, and
# exporting every finding's reproducers again each time was 8% of an exploration's CPU
# (bench/explore_profile.py), writing its two cases' JSON again half of what was left of a
# rewrite. A folder removed forgets its entries.
_EXPORTED: dict[tuple[str, str, str, frozenset[str]], list[str]] = {}


def _export_all(case: Case, folder: Path, vk_without: frozenset[str]) -> list[str]:
    notes = []
    if len(export.file_stem(case.id)) > LONGEST_STEM:
        # The reproducers go under a short alias; case.json beside them keeps the real id.
        alias = f"{catalog_prefix(case.id)}/explore/h-{hashlib.sha1(case.id.encode()).hexdigest()[:12]}"
        notes.append(f"(files named after {alias}, an alias of the id, too long for a file name)")
        case = replace(case, id=alias)
    for fmt in export.FORMATS:
        try:
            for path in export.export(case, fmt, folder / fmt, vk_without if fmt == "vkrunner" else frozenset()):
                notes.append(f"{fmt}: {path.relative_to(folder)}")
        except Exception as exc:            # a format that cannot express this case says why
            notes.append(f"{fmt}: not exported ({type(exc).__name__}: {exc})")
    return notes


def write(results: Path, run: dict[str, Any], findings: list[Finding], command: dict[str, Any]) -> Path:
    """findings.json and one folder per finding; returns findings.json's path.
    `command`: target, mesa, vk_without (as the CLI took them), for the re-run lines."""
    results.mkdir(parents=True, exist_ok=True)
    names = {finding.slug(number) for number, finding in enumerate(findings, 1)}
    for old in results.glob("[0-9][0-9][0-9]-*"):      # an earlier write's folders, renumbered since
        if old.is_dir() and old.name not in names:
            shutil.rmtree(old)
            for key in [k for k in _EXPORTED if k[0] == str(old)]:
                del _EXPORTED[key]
    entries = []
    options = f"--target {command['target']}"
    options += f" --mesa {shlex.quote(command['mesa'])}" if command.get("mesa") else ""
    options += f" --vk-without {','.join(command['vk_without'])}" if command.get("vk_without") else ""
    for number, finding in enumerate(findings, 1):
        folder = results / finding.slug(number)
        folder.mkdir(parents=True, exist_ok=True)
        vk_without = frozenset(command.get("vk_without") or ())
        key = (str(folder), finding.reduced.id, finding.original.id, vk_without)
        notes = _EXPORTED.get(key) if (folder / "README.txt").is_file() else None
        if notes is None:                   # the folder's cases and reproducers, unless written already
            (folder / "case.json").write_text(finding.reduced.to_json())
            (folder / "original.json").write_text(finding.original.to_json())
            notes = _EXPORTED[key] = _export_all(finding.reduced, folder, vk_without)
        entry = finding.to_json(folder.name)
        (folder / "finding.json").write_text(json.dumps(entry, indent=1))
        rid = shlex.quote(finding.reduced.id)
        (folder / "README.txt").write_text("\n".join([
            f"status: {entry['status']}; signature: {json.dumps(finding.key)}",
            f"reduced: {finding.reduced.id}", f"  {finding.reduced.description}",
            f"original: {finding.original.id}", f"reduced by: {finding.reduced_by}",
            f"size before: {entry['size_before']}", f"size after:  {entry['size_after']}",
            "", "verdict of the reduced case:", finding.reduced_outcome.message,
            "", "verdict of the original case:", finding.original_outcome.message,
            "", "reproducers:", *[f"  {n}" for n in notes],
            "", "commands:",
            f"  .venv/bin/python -m harness reduce {rid} {options}      # re-run (and reduce again)",
            f"  .venv/bin/python -m harness explore keep {rid}           # keep it as a fixed case",
        ]) + "\n")
        entries.append(entry)
    path = results / "findings.json"
    part = path.with_suffix(".json.part")              # a kill mid-write leaves the last whole one
    part.write_text(json.dumps({"schema": SCHEMA, **run, "findings": entries}, indent=1))
    part.replace(path)
    return path


def failure_of(case: Case, outcome: Verdict) -> FindingKey:
    """The raw (unreduced) signature of a failing sample: which samples one reduction serves."""
    return finding_key(case, outcome)


def summary(paths: list[Path]) -> str:
    """A markdown table of findings.json files (one per family, target and Mesa): cases run,
    statuses, distinct findings; then each finding with its reduced id and the fixed cases that
    fail the same way (when the run compared with a baseline)."""
    runs = [(path, json.loads(path.read_text())) for path in paths]
    lines = ["| Mesa | target | family | cases | statuses | findings | unreduced | also in fixed list | fixed failures missed |",
             "|---|---|---|---|---|---|---|---|---|"]
    for _, run in runs:
        found = run["findings"]
        compared = run.get("fixed_failures") is not None
        also = sum(1 for f in found if f.get("fixed_also")) if compared else "-"
        missed = len(run.get("fixed_missed") or []) if compared else "-"
        fixed = f"{missed} of {len(run['fixed_failures'])}" if compared else "-"
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(run["statuses"].items()))
        unreduced = sum(1 for f in found if f.get("unreduced"))
        lines.append(f"| {run.get('mesa') or '?'} | {run['target']} | {run['family']}"
                     f"{'' if run.get('complete', True) else ' (unfinished)'} | {run['cases_run']} | "
                     f"{statuses} | {len(found)} | {unreduced} | {also} | {fixed} |")
    lines.append("")
    for _path, run in runs:
        for f in run["findings"]:
            what = ", ".join(f["signature"].get("quantities") or [f["signature"].get("driver", "")])
            also = f.get("fixed_also")
            lines.append(f"- {run.get('mesa') or '?'} {run['target']} {run['family']}: **{f['status']}** "
                         + ("**UNREDUCED** " if f.get("unreduced") else "")
                         + ("**AFTER A GPU HANG: rerun on a fresh machine** " if f.get("after_gpu_hang") else "") +
                         f"({'+'.join(f['signature']['stages'])}) {what[:160]}; reduced `{f['reduced_id']}` "
                         f"({f['reduced_by']}); size {_brief(f['size_before'])} -> {_brief(f['size_after'])}; "
                         f"fixed list: {'not compared' if also is None else (', '.join(also[:3]) + (' ...' if len(also) > 3 else '')) or 'none'}")
    return "\n".join(lines)


def _brief(size: dict[str, int]) -> str:
    keys = ("stages", "draws", "entries", "vertices", "glsl_lines")
    return "/".join(str(size.get(k, "?")) for k in keys)
