"""Run `python -m harness blame` for each line of triage/blame.tsv and compare its verdict with the
component the line expects (the evidence command must reproduce every triage folder's component).

    .venv/bin/python bench/blame_folders.py [--only FOLDER]

Prints folder | expected | got | agrees and each blame's verdict line; a line whose folder has no case
blame can run (case `-`) is printed as "not run: <note>". Exit 1 when a verdict disagrees, 2 on bad input.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TSV = ROOT / "triage" / "blame.tsv"
sys.path.insert(0, str(ROOT))
from harness.model.blame import VERDICTS  # noqa: E402


@dataclass(frozen=True)
class Line:
    folder: str
    case: str          # '-' where blame cannot run the folder
    args: str          # blame's arguments after the case id, shell-quoted; '-' with no case
    expected: str      # one of VERDICTS; '-' only on a line not run (a component blame has no name for)
    note: str


def read(path: Path = TSV) -> list[Line]:
    lines = []
    for n, text in enumerate(path.read_text().splitlines(), 1):
        if not text.strip() or text.startswith("#"):
            continue
        fields = text.split("\t")
        if len(fields) != 5:
            raise ValueError(f"{path.name}:{n}: {len(fields)} tab-separated fields, expected 5")
        lines.append(Line(*fields))
    return lines


def parse_verdict(output: str) -> tuple[str, str] | None:
    """(component, the whole line) of blame's last `verdict: COMPONENT: reason` line; None without one."""
    for text in reversed(output.splitlines()):
        if text.startswith("verdict: "):
            rest = text[len("verdict: "):]
            component = next((v for v in VERDICTS if rest.startswith(v + ":")), rest.split(":")[0])
            return component, text
    return None


def blame(line: Line) -> tuple[str, str]:
    """(component got, verdict line or what went wrong) of one line's blame run."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    cmd = [sys.executable, "-m", "harness", "blame", line.case, *shlex.split(line.args)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    found = parse_verdict(proc.stdout)
    if found is None:
        tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        return "no verdict", f"blame exit {proc.returncode}: {tail}"
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", metavar="FOLDER", help="one line of triage/blame.tsv (e.g. mesa-25.0.7/tcs-primitive-id-first)")
    opts = parser.parse_args(argv)
    lines = read()
    if opts.only:
        lines = [ln for ln in lines if ln.folder == opts.only.strip("/").removeprefix("triage/")]
        if not lines:
            print(f"blame_folders.py: --only {opts.only}: no such folder in {TSV.relative_to(ROOT)}", file=sys.stderr)
            return 2
    disagree = 0
    print("folder | expected | got | agrees")
    for line in lines:
        if line.case == "-":
            print(f"{line.folder} | {line.expected} | - | not run: {line.note}")
            continue
        got, verdict = blame(line)
        agrees = got == line.expected
        disagree += not agrees
        print(f"{line.folder} | {line.expected} | {got} | {'yes' if agrees else 'NO'}\n    {verdict}", flush=True)
    print(f"{disagree} of {sum(ln.case != '-' for ln in lines)} verdicts disagree with the expected component")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
