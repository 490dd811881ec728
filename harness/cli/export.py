"""`python -m harness export CASE_ID --format F [-o DIR]`: a standalone reproducer
(harness/run/export.py)."""
from __future__ import annotations

from pathlib import Path

from harness.base import config, options
from harness.run import export
from harness.sources import catalog

HELP = "write a standalone reproducer of a case"


def add_arguments(cmd) -> None:
    cmd.add_argument("case_id")
    # Not the run settings: an export runs nothing, and its reproducer is the case as the Vulkan
    # layer translates it, which only the translations switched off change.
    options.add_arguments(cmd, ("shader_tests", "vk_without"))
    cmd.add_argument("--format", choices=export.FORMATS, default="glsl")
    cmd.add_argument("-o", "--output", default=".", help="folder (default: the current one)")


def run(args) -> int:
    written = export.export(catalog.find(args.case_id, args.shader_tests), args.format, Path(args.output),
                            frozenset(config.split_names(args.vk_without)))
    print("\n".join(str(p) for p in written))
    return 0
