"""Hangs on a GPU, remembered for the machine's boot: a failure after one is flagged.

A hang can leave a GPU in a state where later processes, with fresh shader caches, fail cases
that pass on a fresh machine (zink on NVIDIA's driver, after a device lost: the evidence is in
bench/results/2026-11-26-gpu-evidence.md and docs/gpu.md). A verdict must depend on the case
alone, and on such a machine it does not: so a hang or a lost device on a hardware renderer is
noted in a file of the harness's cache home with the machine's boot id, and every later failure
on a hardware renderer, in any process until the machine restarts, says so in its message. The
verdict itself stands: the failure may be real, but it is to be rerun on a fresh machine before it
is triaged (docs/gpu.md).
"""
from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from harness.base.config import cache_home
from harness.model.status import Status

SOFTWARE = ("llvmpipe", "softpipe", "SwiftShader")   # renderers of CPU drivers (zink over lavapipe names llvmpipe)
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
FILE = "gpu-hangs.jsonl"
FLAG = "[after a hang on this machine's GPU: "


@dataclass(frozen=True)
class Hang:
    case_id: str
    target: str
    renderer: str
    at: float                        # seconds since the epoch


def hardware(renderer: str) -> bool:
    return bool(renderer) and not any(name in renderer for name in SOFTWARE)


def poisons(status: Status, message: str) -> bool:
    """A verdict after which the GPU is not to be trusted: a hang, or a device lost under the case."""
    return status is Status.TIMEOUT or (status.blames_driver() and "DEVICE_LOST" in message.replace(" ", "_").upper())


def _boot() -> str:
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return ""


def note(hang: Hang, environ: Mapping[str, str] | None = None, boot: str | None = None) -> None:
    path = cache_home(environ) / FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as f:
            f.write(json.dumps({"boot": _boot() if boot is None else boot, **hang.__dict__}) + "\n")
    except OSError:
        pass                         # a read-only home: the flag is lost, the verdicts are not


def first_since_boot(environ: Mapping[str, str] | None = None, boot: str | None = None) -> Hang | None:
    """The first hang noted on this boot of the machine (other boots' lines are left out)."""
    boot = _boot() if boot is None else boot
    try:
        lines = (cache_home(environ) / FILE).read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        try:
            data = json.loads(line)
            if data.pop("boot") == boot:
                return Hang(**data)
        except (ValueError, KeyError, TypeError):
            continue
    return None


def flag(message: str, hang: Hang) -> str:
    when = time.strftime("%H:%M:%S", time.localtime(hang.at))
    return (f"{message}\n{FLAG}{hang.case_id} on {hang.target} at {when} "
            f"({hang.renderer}); a GPU may stay wrong after one: rerun on a fresh machine before triage, "
            f"docs/gpu.md]")


def flagged(message: str) -> bool:
    return FLAG in message


def after(status: Status, message: str, case_id: str, target: str, renderer: str,
          environ: Mapping[str, str] | None = None,
          boot: str | None = None, now: float | None = None) -> str:
    """The message of a finished case on `renderer`: flagged where a hang came before it on this
    boot; and this case noted where it is one."""
    if not hardware(renderer) or not status.blames_driver():
        return message
    earlier = first_since_boot(environ, boot)
    if poisons(status, message):
        note(Hang(case_id, target, renderer, time.time() if now is None else now), environ, boot)
    return flag(message, earlier) if earlier is not None else message
