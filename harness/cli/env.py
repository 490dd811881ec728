"""`python -m harness env TARGET [--mesa PATH]`: the target's environment, as shell exports."""
from __future__ import annotations

import argparse
import shlex

from harness.base import config, options
from harness.executor import targets as targets_mod
from harness.mesa import runtime as mesa


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("target")
    # Not the run settings: no case runs here, only the Mesa that a target's environment names.
    options.add_arguments(cmd, ("mesa",))


def run(args: argparse.Namespace) -> int:
    """Exports, and HARNESS_RUN: the loader a --mesa build's programs start under (its libraries
    are never put in LD_LIBRARY_PATH, which the shell's other programs would inherit)."""
    target = targets_mod.get(args.target)
    build = mesa.chosen(args.mesa)
    base = config.environ()
    env = target.environment(base, build)
    env["HARNESS_RUN"] = shlex.join(target.command([], base, build))
    print("\n".join(f"export {name}={shlex.quote(value)}" for name, value in env.items()
                     if base.get(name) != value))
    if env["HARNESS_RUN"]:
        print("# start programs that load this Mesa as: $HARNESS_RUN shader_runner FILE -auto")
    return 0
