"""No tracker numbers in what a reader of the checkout reads: the project's tracker is not theirs, so
a file, comment, docstring, write-up, baseline line or CHANGELOG heading says what was asked or
measured, never which numbered request asked it. The check is
`grep -rniE 'issues? ?#?[0-9]+'` over the files git tracks under these paths."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from conftest import ROOT

PATHS = ("bench", "docs", "harness", "tests", "baselines", "CHANGELOG.md", "README.md")
# The word, then a number: one, several ("and"), with or without a space or a hash.
TRACKER_NUMBER = re.compile(r"issues? ?#?[0-9]+", re.I)


def tracked(root: Path, paths: tuple[str, ...] = PATHS) -> list[Path]:
    """The files git tracks under `paths` (the working tree's text of each, as a reader sees it)."""
    out = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=root, capture_output=True,
                         text=True, check=True, timeout=60).stdout
    return [root / name for name in out.split("\0") if name]


def tracker_numbers(root: Path, files: list[Path]) -> list[str]:
    """'file:line: text' for each line naming a tracker number; files that are not text are skipped."""
    found = []
    for path in files:
        try:
            text = path.read_text()
        except (UnicodeDecodeError, FileNotFoundError):   # a binary fixture; a file deleted, not staged
            continue
        found += [f"{path.relative_to(root)}:{n}: {line.strip()[:120]}"
                  for n, line in enumerate(text.splitlines(), 1) if TRACKER_NUMBER.search(line)]
    return found


def test_no_tracked_file_names_a_tracker_number():
    found = tracker_numbers(ROOT, tracked(ROOT))
    assert not found, "say what was asked or measured instead:\n" + "\n".join(found)


def test_a_planted_tracker_number_is_found(tmp_path):
    word = "Issue"     # split, so that this file stays clean under its own check
    (tmp_path / "notes.md").write_text(f"clean line\nsee {word} 12, item 3\n{word.lower()}s 4 and 5\n")
    (tmp_path / "data.bin").write_bytes(b"\xff\xfe" + f"{word}7".encode())
    found = tracker_numbers(tmp_path, [tmp_path / "notes.md", tmp_path / "data.bin"])
    assert found == [f"notes.md:2: see {word} 12, item 3", f"notes.md:3: {word.lower()}s 4 and 5"]
