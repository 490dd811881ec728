"""Gating in the core (harness/run/gating.py): `--baseline auto`, the default of every front end, gates
a run on the Mesa under test's own baseline; plain `pytest -n 2` passes on the known defects of
Mesa 22.3.6 and fails on a planted regression; `--baseline none` runs ungated."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import PINNED_MESA, ROOT
from harness.run import gating

KNOWN = "22.3.6-1+deb12u2"          # baselines/mesa-22.3.6-1+deb12u2.csv
FAILING = "tess/no-tcs/isolines/equal/types/block/struct/pv32"      # listed there on llvmpipe and zink
PASSING = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"
PLANTED = "tess/no-tcs/triangles/equal/pv4/o2_3_4-i6/then/o2.5_1.25_3.75-i3.5"


@dataclass(frozen=True)
class Folder:
    """A --mesa folder as the gate sees it (harness.mesa.runtime.Build's root)."""
    root: Path


def test_the_system_mesa_is_gated_on_its_package_versions_baseline(tmp_path):
    (tmp_path / "mesa-1.2.3-1.csv").write_text("")
    (tmp_path / "mesa-1.2.3-1-flakes.txt").write_text("")
    gate = gating.choose([], ["mine.txt"], None, tmp_path, system=lambda: "1.2.3-1")
    assert gate.baselines == (str(tmp_path / "mesa-1.2.3-1.csv"),)
    assert gate.flakes == ("mine.txt", str(tmp_path / "mesa-1.2.3-1-flakes.txt"))
    assert gate.line == (f"harness: gated on {tmp_path}/mesa-1.2.3-1.csv and {tmp_path}/mesa-1.2.3-1-flakes.txt "
                         f"(--baseline auto: Mesa 1.2.3-1, from the system's libgl1-mesa-dri)")
    assert gate.options() == [f"--baseline={tmp_path / 'mesa-1.2.3-1.csv'}", "--flakes=mine.txt",
                              f"--flakes={tmp_path / 'mesa-1.2.3-1-flakes.txt'}"]


def test_a_fetched_folder_and_a_debian_build_name_their_version(tmp_path):
    (tmp_path / "mesa-9.9.9-2.csv").write_text("")
    fetched, built, checkout = (tmp_path / name for name in ("fetched", "built", "checkout"))
    for folder in (fetched, built, checkout):
        folder.mkdir()
    (fetched / ".fetched").write_text("9.9.9-2 sid\n")
    (built / "harness-build.json").write_text(json.dumps({"debian": "9.9.9-2"}))
    (checkout / "harness-build.json").write_text(json.dumps({"debian": None}))
    for folder in (fetched, built):
        gate = gating.choose(["auto"], [], Folder(folder), tmp_path)
        assert gate.baselines == (str(tmp_path / "mesa-9.9.9-2.csv"),) and gate.flakes == ()
    gate = gating.choose([], [], Folder(checkout), tmp_path)
    assert gate.baselines == () and gate.line.startswith("harness: ungated: the Mesa under test has no Debian version")
    assert "names no Debian version" in gate.line
    gate = gating.choose([], [], None, tmp_path, system=lambda: "8.0.0-1")
    assert gate.baselines == () and f"no {tmp_path}/mesa-8.0.0-1.csv" in gate.line


def test_a_mesa_one_stable_update_behind_gates_on_the_updates_baseline(tmp_path):
    """A machine image with 22.3.6-1+deb12u1 while the project baselines deb12u2: the same
    upstream release and Debian revision, another point release; the first line says so.
    Another Debian release of the same upstream version (a backport) is not taken."""
    for version in ("22.3.6-1+deb12u2", "22.3.6-1+deb12u3", "25.0.7-2+deb13u1"):
        (tmp_path / f"mesa-{version}.csv").write_text("")
    gate = gating.choose([], [], None, tmp_path, system=lambda: "22.3.6-1+deb12u1")
    assert gate.baselines == (str(tmp_path / "mesa-22.3.6-1+deb12u3.csv"),)
    assert "no baseline for 22.3.6-1+deb12u1 itself, so its stable update 22.3.6-1+deb12u3's" in gate.line
    assert gating.stable_update("25.0.7-2~bpo12+1", tmp_path) == ""
    assert gating.stable_update("22.3.6-1+deb11u1", tmp_path) == ""


def test_none_runs_ungated_and_files_gate_alone(tmp_path):
    gate = gating.choose(["none"], ["f.txt"], None, tmp_path, system=lambda: "1.2.3-1")
    assert gate == gating.Gate((), ("f.txt",), "harness: ungated (--baseline none)")
    assert gate.options() == ["--baseline=none", "--flakes=f.txt"]
    assert gating.choose(["a.csv"], [], None, tmp_path).baselines == ("a.csv",)
    with pytest.raises(gating.GateError, match="--baseline none runs ungated: it cannot be given with a.csv"):
        gating.choose(["none", "a.csv"], [], None, tmp_path)


def _mesa_of_known_defects() -> list[str]:
    """--mesa for a Mesa 22.3.6 (whose baseline lists FAILING): the system's, else the pinned one."""
    if gating.system_version() == KNOWN:
        return []
    if (PINNED_MESA / ".fetched").exists():
        # one word: pytest takes a path given as a word of its own for a test path when it chooses
        # the rootdir; a tree outside the checkout then gets the checkout's rootdir, its conftest is
        # left out and nothing is collected (Debian 13, 2026-11-26: "2 workers [0 items]")
        return [f"--mesa={PINNED_MESA}"]
    pytest.skip(f"neither the system's Mesa nor {PINNED_MESA} (bin/fetch-mesa {KNOWN}) is Mesa {KNOWN}")


def _pytest(*args, cwd=ROOT):
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))   # this checkout's harness
    env = {k: v for k, v in os.environ.items() if k not in ("HARNESS_MESA", "CI_NODE_INDEX", "CI_NODE_TOTAL")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, env={**env, "PYTHONPATH": path})


def test_plain_pytest_passes_on_known_defects_and_fails_ungated(tmp_path):
    mesa = _mesa_of_known_defects()
    selection = ["-n", "2", "tests/tess", "-k", f"{FAILING} or {PASSING}", "--target", "llvmpipe", *mesa]
    proc = _pytest(*selection, "--target", "zink", "--results-dir", str(tmp_path / "gated"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    first = proc.stdout.splitlines()[0]     # and its flakes file, where the Mesa has one
    assert first.startswith(f"harness: gated on baselines/mesa-{KNOWN}.csv ") and \
        f"(--baseline auto: Mesa {KNOWN}, from " in first, first
    assert proc.stdout.splitlines()[-1].startswith("=") and "2 expected fail" in proc.stdout.splitlines()[-1]
    manifest = json.loads((tmp_path / "gated" / "manifest.json").read_text())
    assert [entry["path"] for entry in manifest["baseline"]] == [f"baselines/mesa-{KNOWN}.csv"]

    proc = _pytest(*selection, "--baseline", "none", "--results-dir", str(tmp_path / "ungated"))
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert proc.stdout.splitlines()[0] == "harness: ungated (--baseline none)"
    failed = (tmp_path / "ungated" / "failures.csv").read_text().splitlines()[1:]
    assert failed == [f"{FAILING}[llvmpipe],Fail"]


PLANTED_FAMILY = '''
"""The real tess family's known defect and a passing case, and a planted regression: the second
draw of {planted} forgets to set the levels."""
import dataclasses, importlib.util, sys
spec = importlib.util.spec_from_file_location("real_tess", {tess!r} + "/cases.py", submodule_search_locations=[{tess!r}])
tess = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = tess
spec.loader.exec_module(tess)

def generate():
    cases = {{c.id: c for c in tess.generate()}}
    planted = cases[{planted!r}]
    draws = list(planted.steps)
    draws[1] = dataclasses.replace(draws[1], state=dataclasses.replace(
        draws[1].state, default_outer=None, default_inner=None))
    return [cases[{failing!r}], cases[{passing!r}], dataclasses.replace(planted, steps=tuple(draws))]
'''


def test_plain_pytest_fails_on_a_planted_regression(tmp_path):
    mesa = _mesa_of_known_defects()
    (tmp_path / "tests" / "tess").mkdir(parents=True)
    (tmp_path / "tests" / "tess" / "cases.py").write_text(PLANTED_FAMILY.format(
        tess=str(ROOT / "tests" / "tess"), planted=PLANTED, failing=FAILING, passing=PASSING))
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["harness.pytest_adapter.plugin"]\n')
    proc = _pytest("-n", "2", "tests/tess", "--target", "llvmpipe", *mesa, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.splitlines()[0].startswith(f"harness: gated on {ROOT}/baselines/mesa-{KNOWN}.csv")
    assert "1 failed, 1 passed, 1 expected fail" in proc.stdout.splitlines()[-1]
    entries = json.loads((tmp_path / "results" / "results.json").read_text())["results"]
    assert sorted((e["id"], e["status"], e["report"]) for e in entries) == [
        (FAILING, "fail", "skipped"), (PASSING, "pass", "passed"), (PLANTED, "fail", "failed")]
