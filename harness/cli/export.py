"""`python -m harness export CASE_ID --format F [-o DIR]`: a standalone reproducer
(harness/run/export.py), or a test in piglit's own form (harness/run/export_piglit.py)."""
from __future__ import annotations

import argparse
import sys

from pathlib import Path

from harness.base import config, options
from harness.run import export, export_piglit
from harness.sources import catalog

FORMATS = export.FORMATS + ("piglit",)


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("case_id")
    # Not the run settings: an export runs nothing, and its reproducer is the case as the Vulkan
    # layer translates it, which only the translations switched off change.
    options.add_arguments(cmd, ("shader_tests", "vk_without"))
    cmd.add_argument("--format", choices=FORMATS, default="glsl",
                     help="piglit: a .shader_test where shader_runner can run the case, else a C test on "
                          "piglit's framework, under DIR/tests/spec/AREA/, with its CMakeLists.gl.txt line "
                          "and tests/opengl.py entry in DIR")
    cmd.add_argument("--name", default="",
                     help="--format piglit: the test's name (default: the family and a hash of the id)")
    cmd.add_argument("-o", "--output", type=Path, default=Path("."), help="folder (default: the current one)")


def run(args: argparse.Namespace) -> int:
    case = catalog.find(args.case_id, args.shader_tests)
    if args.format == "piglit":
        written = export_piglit.export(case, Path(args.output), args.name)
    else:
        written = export.export(case, args.format, Path(args.output), frozenset(config.split_names(args.vk_without)))
        unchecked = export.shader_test_unsupported(case) if args.format == "shader_test" else ""
        if unchecked:
            print(f"harness export: {written[0]} checks nothing ({unchecked}); --format piglit writes a test "
                  f"that does", file=sys.stderr)
    print("\n".join(str(p) for p in written))
    return 0
