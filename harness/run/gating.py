"""Which baseline gates a run, the same for every front end (pytest with or without xdist,
`harness parallel`, the release matrix, `bisect-run`).

`--baseline auto`, the default, is the Mesa under test's own baseline, found by its Debian
package version: baselines/mesa-<version>.csv and, where it exists, mesa-<version>-flakes.txt.
The version is the system's libgl1-mesa-dri package's (no --mesa), the `.fetched` stamp of a
bin/fetch-mesa folder, or the `debian` field of a bin/build-mesa build's harness-build.json. A
Mesa with no such baseline runs ungated. `--baseline none` runs ungated; `--baseline FILE`
(repeatable) gates on those files alone. `Gate.line` is what the run's first line says.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from harness.base.config import MesaBuild
from harness.model.families import CHECKOUT
from harness.base.errors import UsageError

AUTO = "auto"
NONE = "none"
BASELINES = CHECKOUT / "baselines"
SYSTEM_PACKAGE = "libgl1-mesa-dri"
FETCHED = ".fetched"                    # harness/mesa/fetch.py: '<version> <suite>'
BUILT = "harness-build.json"            # harness/mesa/build.py: its `debian` field


class GateError(UsageError, ValueError):
    """Bad --baseline words: one line for the user."""


@dataclass(frozen=True)
class Gate:
    baselines: tuple[str, ...] = ()     # the baseline files that gate the run
    flakes: tuple[str, ...] = ()        # the flakes files: the user's --flakes, and auto's
    line: str = ""                      # what the run's first line says

    def options(self) -> list[str]:
        """The pytest options that gate a run exactly so (for the processes a front end starts).
        One word each: pytest takes a path given as a word of its own for a test path when it
        chooses the rootdir, and a baseline outside the tree would move it."""
        return ([f"--baseline={path}" for path in self.baselines] or [f"--baseline={NONE}"]) \
            + [f"--flakes={path}" for path in self.flakes]


def system_version() -> str:
    """The system's libgl1-mesa-dri package version, '' without one (or without dpkg)."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", SYSTEM_PACKAGE], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def package_version(build: MesaBuild | None, system: Callable[[], str] = system_version) -> tuple[str, str]:
    """(the Debian version of the Mesa under test, where it was read), or ('', why there is none)."""
    if build is None:
        version = system()
        return (version, f"the system's {SYSTEM_PACKAGE}") if version else \
            ("", f"no {SYSTEM_PACKAGE} package is installed")
    stamp = Path(build.root) / FETCHED
    if stamp.is_file():
        words = stamp.read_text().split()
        return (words[0], f"{_shown(stamp)}") if words else ("", f"{_shown(stamp)} is empty")
    recorded = Path(build.root) / BUILT
    if recorded.is_file():
        try:
            version = json.loads(recorded.read_text()).get("debian") or ""
        except (ValueError, AttributeError):
            return "", f"{_shown(recorded)} is no JSON object"
        return (version, f"{_shown(recorded)}") if version else \
            ("", f"{_shown(recorded)} names no Debian version (a build of a checkout, not of Debian's source)")
    return "", (f"{_shown(build.root)} is neither a bin/fetch-mesa folder ({FETCHED}) nor a bin/build-mesa "
                f"build ({BUILT})")


def mesa_properties(build: MesaBuild | None) -> dict[str, str]:
    """What a run's run.json records of the Mesa under test beyond its version (which each record
    names): the folder --mesa named, and for a bin/build-mesa build its source commit."""
    if build is None:
        return {}
    properties = {"mesa_root": str(build.root)}
    try:
        commit = json.loads((Path(build.root) / BUILT).read_text()).get("commit") or ""
    except (OSError, ValueError, AttributeError):
        commit = ""
    return {**properties, "mesa_commit": commit} if commit else properties


def choose(words: Sequence[str], flakes: Sequence[str], build: MesaBuild | None,
           folder: Path = BASELINES, system: Callable[[], str] = system_version) -> Gate:
    """The gate `--baseline WORD...` (none given: auto) and `--flakes FILE...` ask for."""
    words = list(words) or [AUTO]
    if NONE in words:
        if len(words) > 1:
            raise GateError(f"--baseline {NONE} runs ungated: it cannot be given with "
                            f"{', '.join(w for w in words if w != NONE)}")
        return Gate((), tuple(flakes), f"harness: ungated (--baseline {NONE})")
    files = [w for w in words if w != AUTO]
    extra_flakes: list[str] = []
    said = f"gated on {', '.join(map(_shown, files))} (--baseline)" if files else ""
    if AUTO in words:
        version, source = package_version(build, system)
        base = folder / f"mesa-{version}.csv"
        update = stable_update(version, folder) if version and not base.is_file() else ""
        if update:                  # another stable update of the same Debian release: say so
            source += f"; no baseline for {version} itself, so its stable update {update}'s"
            version, base = update, folder / f"mesa-{update}.csv"
        if version and base.is_file():
            files.append(_shown(base))
            flaky = folder / f"mesa-{version}-flakes.txt"
            extra_flakes = [_shown(flaky)] if flaky.is_file() else []
            found = " and ".join([files[-1]] + extra_flakes)
            said = (said + "; " if said else "") + \
                f"gated on {found} (--baseline {AUTO}: Mesa {version}, from {source})"
        elif version:
            said = said or f"ungated: no baseline for Mesa {version} (from {source}): no {_shown(base)} " \
                           f"(--baseline {AUTO})"
        else:
            said = said or f"ungated: the Mesa under test has no Debian version: {source} (--baseline {AUTO})"
    every = tuple(dict.fromkeys([*flakes, *extra_flakes]))
    return Gate(tuple(files), every, f"harness: {said}")


def stable_update(version: str, folder: Path = BASELINES) -> str:
    """The newest baselined version that is another stable update of VERSION's Debian release
    (22.3.6-1+deb12u2 for 22.3.6-1+deb12u1: the same upstream release and Debian revision,
    another +debNuM), '' if none. An image whose Mesa lags one point release behind its
    registry gates on the baseline of the update rather than running ungated."""
    match = re.fullmatch(r"(.+\+deb\d+u)(\d+)", version)
    if not match:
        return ""
    prefix = f"mesa-{match[1]}"
    updates = [(int(p.stem[len(prefix):]), p.stem[len("mesa-"):]) for p in folder.glob(f"{prefix}*.csv")
               if p.stem[len(prefix):].isdigit()]
    return max(updates)[1] if updates else ""


def _shown(path: str | os.PathLike[str]) -> str:
    """A path as the user would type it: relative to the current folder where it is below it."""
    try:
        return str(Path(path).absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
