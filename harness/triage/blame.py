"""`python -m harness blame CASE_ID [--mesa PATH]...`: run one case on every setup that tells the
components apart, print the evidence table and the verdict of harness/triage/blame_rules.py.

Setups, per Mesa: llvmpipe; zink over lavapipe with the Khronos validation layer loaded into its
process (its errors go to a log file, read after the case: zink's invalid SPIR-V shows there even
when the driver then crashes); zink over another Vulkan driver (`zink-system`) where the machine has
one; with two Mesas or more, zink of this Mesa over each other Mesa's lavapipe (harness/mesa/mix.py);
the harness's Vulkan layer on lavapipe in each multi-draw path under the validation layer. Rows
gathered on another machine (a GPU's, `--save-evidence` there) join with `--evidence`.
"""
from __future__ import annotations

import json
import re
import tempfile
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from harness.triage import blame_rules
from harness.executor import targets as targets_mod
from harness.triage.blame_rules import Row
from harness.mesa import mix
from harness.mesa.runtime import Build, MesaError
from harness.model.case import Case
from harness.base import config
from harness.base.config import RunSettings, VkPath, VkPaths
from harness.executor.settings import settings
from harness.executor.executor import Executor
from harness.executor.probe import probe
from harness.model.facts import Facts
from harness.model.status import Reply
from harness.oracle.verdict import judge

# The settings of a blame run by default: a triage command's timeout.
TRIAGE = settings(case_timeout=config.TRIAGE_CASE_TIMEOUT)
VALIDATION_PREFIX = "harness layer: Vulkan validation error(s)"   # harness/backends/vk/runner.py: a LayerFault
INVALID_SPIRV = re.compile(r"VUID-VkShaderModuleCreateInfo-pCode-(01379|08737)")
OUTDATED = re.compile(r"Invalid capability operand|unknown VkStructureType|not supported by Vulkan")
# Read by the validation layer of every release (vk_layer_settings.txt): errors only, to a file.
SETTINGS = ("khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n"
            "khronos_validation.report_flags = error\n"
            "khronos_validation.log_filename = {log}\n")


@dataclass(frozen=True)
class Setup:
    name: str                       # a blame_rules.SETUPS name
    target: targets_mod.Target
    overrides: tuple[tuple[str, Any], ...] = ()        # RunSettings fields: (("vk_validation", True), ...)
    zink_validation: bool = False   # load the validation layer into the GL process
    mesa: Build | None = None       # a mixed build (harness/mesa/mix.py) run instead of the row's Mesa
    refused: str = ""               # why the setup cannot run (a mix the loader cannot resolve)


def _zink_watched(target: targets_mod.Target, folder: Path) -> targets_mod.Target:
    """The zink target with the validation layer in its process, logging errors to folder."""
    (folder / "vk_layer_settings.txt").write_text(SETTINGS.format(log=folder / "validation.log"))
    env = target.env + (("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation"),
                        ("VK_LAYER_SETTINGS_PATH", str(folder / "vk_layer_settings.txt")))
    return replace(target, env=env)


def _other_vulkan(build: Build | None) -> bool:
    """Whether zink-system reaches a Vulkan driver other than lavapipe on this machine."""
    result = probe(targets_mod.get("zink-system"), mesa=build)
    return result.status is Reply.OK and "llvmpipe" not in (result.info or Facts()).renderer


def setups(build: Build | None, others: tuple[Build | None, ...] = ()) -> list[Setup]:
    """The setups of one Mesa; `others`: the other Mesas of the run, whose lavapipe this Mesa's
    zink also runs over (harness/mesa/mix.py)."""
    get = targets_mod.get
    found = [Setup("llvmpipe", get("llvmpipe")), Setup("zink/lavapipe", get("zink"), zink_validation=True)]
    if _other_vulkan(build):
        found.append(Setup("zink/other", get("zink-system"), zink_validation=True))
    for other in others:
        if build is None or other is None or other.version == build.version:
            continue                # the system's Mesa is no folder to mix
        name = f"{blame_rules.MIXED}{other.version}"
        try:
            found.append(Setup(name, get("zink"), mesa=mix.mixed(build, other)))
        except MesaError as e:
            found.append(Setup(name, get("zink"), refused=str(e)))
    found += [Setup(f"layer/{path}", get("lavapipe"), (("vk_paths", VkPaths(multi_draw=path)), ("vk_validation", True)))
              for path in (VkPath.NATIVE, VkPath.SPLIT)]
    return found


def _run(case: Case, setup: Setup, build: Build | None, base: RunSettings, layer_path: str = "", runs: int = 1) -> Row:
    """One row. zink's status comes from a run without the validation layer (a layer older than the
    driver can abort the process), its validation from a second run under the layer.
    `layer_path`: a folder of layer JSON files (a newer validation layer than the system's) the
    Vulkan loader of every setup also searches. `runs`: runs without the layer, each in a new
    process; the row fails when one of them does (an intermittent crash), and says how many did."""
    row = _repeated(case, setup, build, base, layer_path, runs)
    if setup.zink_validation and row.status != "error":
        with tempfile.TemporaryDirectory(prefix="harness-blame-") as tmp:
            folder = Path(tmp)
            _once(case, _zink_watched(setup.target, folder), setup, build, base, layer_path)
            log = folder / "validation.log"
            row = replace(row, validation=_first_error(log.read_text(errors="replace")) if log.exists() else "")
    return row


def _repeated(case: Case, setup: Setup, build: Build | None, base: RunSettings, layer_path: str, runs: int) -> Row:
    rows: list[Row] = []
    while len(rows) < runs and not (rows and rows[0].status == "error"):    # a setup that did not start
        rows.append(_once(case, setup.target, setup, build, base, layer_path))
    failed = [r for r in rows if r.status in blame_rules.FAILING]
    if len(rows) == 1:
        return rows[0]
    if not failed:
        return replace(rows[0], message=f"{rows[0].message} ({len(rows)} runs)".strip())
    return replace(failed[0], message=f"{failed[0].message} ({len(failed)} of {runs} runs)")


def _once(case: Case, target: targets_mod.Target, setup: Setup, build: Build | None, base: RunSettings,
          layer_path: str) -> Row:
    if setup.refused:
        return Row(setup.name, build.version if build else "system", "error", f"did not start: {setup.refused}")
    row_mesa = build.version if build else "system"
    build = setup.mesa or build
    if layer_path:
        target = replace(target, env=target.env + (("VK_ADD_LAYER_PATH", layer_path),))
    # each run in a new process (no spawner), on this row's Mesa
    executor = Executor(target, replace(base, fork=False, mesa=build), **dict(setup.overrides))
    try:
        info = executor.info()
        if info.status is not Reply.OK:
            first = (info.message or info.status.value).splitlines()[0]
            return Row(setup.name, row_mesa, "error", f"did not start: {first}")
        facts = info.info or Facts()
        verdict = judge(case, executor.run(case), setup.target.name)
    finally:
        executor.close()
    message, validation = verdict.message, ""
    if message.startswith(VALIDATION_PREFIX):       # the layer's own rows: --vk-validation failed the case
        validation = message.splitlines()[1] if len(message.splitlines()) > 1 else message
    return Row(setup.name, facts.mesa or row_mesa, verdict.status.value,
               _first_line(message), validation[:300], renderer=facts.renderer)


def _first_line(message: str) -> str:
    lines = [line for line in message.splitlines() if line.strip()]
    return lines[0][:160] if lines else ""


def _first_error(log: str) -> str:
    """The validation layer's first report of invalid SPIR-V in its log file (what spirv-val inside
    the layer finds: VUID-VkShaderModuleCreateInfo-pCode-08737 in 1.4 layers, "SPIR-V module not
    valid" in 1.3 ones), on one line. Left out: what a layer older than the driver reports of
    everything it does not know (structures, capabilities, SPIR-V extensions), which says nothing
    of the driver; give such a process a newer layer (--validation-layer-path)."""
    messages = [" ".join(m.split()) for m in re.split(r"\n(?=\S+\(ERROR)", log) if m.strip()]
    for message in messages:
        if OUTDATED.search(message):
            continue
        if INVALID_SPIRV.search(message.split(" | ")[0]) or "SPIR-V module not valid" in message:
            return message[:300]
    return ""


def layer_paths(builds: list[Build | None], layer_path: str) -> tuple[list[str], list[str]]:
    """Per Mesa, the layer folder its processes search: `layer_path` where that Mesa's process loads
    the layer in it (the harness's layer on lavapipe starts under it), else '' (the system's layer);
    and one line for each Mesa where it does not load (a layer built for a newer C library than the
    process has: sid's layer in a Debian 12 process, VkErrorLayerNotPresent)."""
    if not layer_path:
        return [""] * len(builds), []
    paths, notes = [], []
    for build in builds:
        target = targets_mod.get("lavapipe")
        result = probe(replace(target, env=target.env + (("VK_ADD_LAYER_PATH", layer_path),)),
                       mesa=build, vk_validation=True)
        loads = result.status is Reply.OK
        paths.append(layer_path if loads else "")
        if not loads:
            why = (result.message or result.status.value).splitlines()[0]
            notes.append(f"the validation layer in {layer_path} does not load in Mesa "
                         f"{build.version if build else 'system'}'s processes ({why}): the system's watches there")
    return paths, notes


@dataclass(frozen=True)
class MesaPlan:
    """One Mesa's part of a blame run, the same for every case: its setups and what they need."""
    build: Build | None             # None: the system's Mesa
    layer_path: str                 # the folder of the validation layer its processes search ('': the system's)
    zinks_path: str                 # the multi-draw path zink takes on its lavapipe
    setups: tuple[Setup, ...]


def plan(builds: list[Build | None], layers: list[str] | None = None, only: tuple[str, ...] = blame_rules.SETUPS) -> list[MesaPlan]:
    """Every setup (of `only`) on every Mesa (None: the system's), each Mesa's processes searching
    its folder of `layers` (layer_paths) for the validation layer; probed and mixed once, before
    the first case. A layer row is in zink's path when the layer, asked for zink's choice on the
    device (auto), takes that path."""
    mixes = tuple(builds) if "zink/mixed" in only else ()
    return [MesaPlan(build, layer_path, _zinks_path(build),
                     tuple(s for s in setups(build, mixes) if s.name in only or s.name.startswith(blame_rules.MIXED)))
            for build, layer_path in zip(builds, layers or [""] * len(builds))]


def gather(case: Case, plans: list[MesaPlan], base: RunSettings = TRIAGE, runs: int = 1) -> list[Row]:
    """The case on every setup of every Mesa's plan, each run `runs` times with the `base` settings
    (the command's: executor.settings resolve), its Mesa the plan's and the setup's own fields over."""
    return [replace(_run(case, setup, p.build, base, p.layer_path, runs),
                    zinks_path=setup.name == f"layer/{p.zinks_path}")
            for p in plans for setup in p.setups]


def _zinks_path(build: Build | None) -> str:
    result = probe(targets_mod.get("lavapipe"), mesa=build, vk_paths=VkPaths())
    return (result.info or Facts()).vk_paths.get("vk_path", "") if result.status is Reply.OK else ""


def save(path: Path, evidence: dict[str, list[Row]]) -> None:
    """Write each case's rows for `recorded` to read on another machine (zink over a GPU's Vulkan
    driver, gathered where that GPU is)."""
    cases = {case_id: [asdict(r) for r in rows] for case_id, rows in evidence.items()}
    path.write_text(json.dumps({"blame_evidence": 1, "cases": cases}, indent=1) + "\n")


def recorded(path: Path) -> dict[str, list[Row]]:
    """The rows `save` wrote, per case id; ValueError names what is wrong with the file."""
    try:
        data = json.loads(path.read_text())
        return {case_id: [replace(Row(**r), recorded=str(path)) for r in rows]
                for case_id, rows in data["cases"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{path}: not evidence written by blame --save-evidence ({type(e).__name__}: {e})") from None


def merge(rows: list[Row], others: list[Row]) -> tuple[list[Row], list[Row]]:
    """(table, left out): rows recorded elsewhere join this machine's for a setup that gave no verdict
    here (not run, skipped, erred) on the same Mesa version; the others are left out (another Mesa,
    a setup this machine told, or a recorded row without a verdict)."""
    told = {(r.mesa, r.setup) for r in rows if r.status in blame_rules.FAILING + ("pass",)}
    mesas = {r.mesa for r in rows}
    joined = [r for r in others if r.mesa in mesas and (r.mesa, r.setup) not in told
              and r.status in blame_rules.FAILING + ("pass",)]
    kept = [r for r in rows if (r.mesa, r.setup) not in {(j.mesa, j.setup) for j in joined}]
    return kept + joined, [r for r in others if r not in joined]


def table(rows: list[Row]) -> str:
    head = ("Mesa", "setup", "status", "first line", "validation layer")
    body = [(r.mesa, r.setup + (" (zink's path)" if r.zinks_path else "")
             + (f" [{r.renderer}; recorded in {r.recorded}]" if r.recorded else ""),
             r.status, r.message, r.validation or "-") for r in rows]
    widths = [max(len(str(x[i])) for x in [head] + body) for i in range(4)]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(line[:4], widths)) + "  " + line[4]
                     for line in [head] + body)


def report(case_id: str, rows: list[Row], failure: str = "") -> tuple[str, blame_rules.Verdict]:
    """`failure`: the failure under triage (blame_rules.set_aside): rows failing otherwise are set aside."""
    verdict = blame_rules.judge(rows, failure)
    return f"{case_id}\n{table(rows)}\nverdict: {verdict.component}: {verdict.reason}", verdict
