"""triage/blame.tsv and bench/blame_folders.py without a driver: every triage folder has a line, each
expected component is a blame verdict, each case id resolves, and the verdict line of a recorded run parses."""
from __future__ import annotations

import importlib.util
import sys

from harness.sources import catalog
from harness.model.blame import VERDICTS

from conftest import ROOT
spec = importlib.util.spec_from_file_location("blame_folders", ROOT / "bench" / "blame_folders.py")
blame_folders = importlib.util.module_from_spec(spec)
sys.modules["blame_folders"] = blame_folders      # dataclasses look their module up
spec.loader.exec_module(blame_folders)
LINES = blame_folders.read()

# the end of blame's output for mesa-26.2.6/zink-draw-params-pushconst-invalid-spirv, recorded 2026-11-26
# (bench/results/2026-11-26-blame-folders.md): its reason has colons of its own
RECORDED = """26.2.6-1  layer/split                 pass
verdict: zink: on Mesa 26.2.6-1: the validation layer reports zink's Vulkan use on zink/lavapipe: Validation \
Error: [ VUID-VkShaderModuleCreateInfo-pCode-08737 ] | MessageID = 0xa5625282 vkCreateShaderModule(): pCreateInfo->pCode \
(spirv-val produced an error): The <id> passed to OpAccessChain to index '43[%43]' into a structure must be an OpConstant.
"""


def test_every_triage_folder_has_one_line():
    folders = sorted(str(p.parent.relative_to(ROOT / "triage")) for p in (ROOT / "triage").glob("*/*/README.md"))
    listed = [line.folder for line in LINES]
    assert sorted(listed) == folders, f"triage folders without a line: {sorted(set(folders) - set(listed))}, " \
                                      f"lines without a folder: {sorted(set(listed) - set(folders))}"


def test_each_expected_component_is_a_verdict():
    for line in LINES:
        allowed = VERDICTS + ("-",) if line.case == "-" else VERDICTS
        assert line.expected in allowed, f"{line.folder}: expected component {line.expected!r} not in {allowed}"


def test_each_case_id_resolves_and_a_line_not_run_says_why():
    for line in LINES:
        if line.case == "-":
            assert line.args == "-" and line.note, f"{line.folder}: a line not run has no arguments and a note"
        else:
            assert catalog.find(line.case).id == line.case, f"{line.folder}: case id {line.case}"


def test_the_verdict_line_parses():
    component, text = blame_folders.parse_verdict(RECORDED)
    assert component == "zink"
    assert text.startswith("verdict: zink: on Mesa 26.2.6-1: the validation layer reports") and text.endswith("OpConstant.")
    assert blame_folders.parse_verdict("no verdict here\n") is None


def test_an_unknown_folder_is_one_line_and_exit_2(capsys):
    assert blame_folders.main(["--only", "mesa-0.0/none"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["blame_folders.py: --only mesa-0.0/none: no such folder in triage/blame.tsv"]
