"""`python -m harness run TARGET [--mesa PATH] -- PROGRAM [ARGS...]`: a program (piglit's
shader_runner, a reproducer) started as the target's child starts."""
from __future__ import annotations

import os
import shutil

from harness.base import config, options
from harness.executor import targets as targets_mod
from harness.mesa import runtime as mesa

HELP = "run a program (piglit's shader_runner, a reproducer) with the target's environment, through its " \
       "Mesa's loader as its child starts"


def add_arguments(cmd) -> None:
    cmd.add_argument("target")
    # Not the run settings: no case runs here, only the Mesa that a target's environment names.
    options.add_arguments(cmd, ("mesa",))
    cmd.add_argument("program", nargs="*", help="-- PROGRAM [ARGS...]")


def run(args) -> int:
    if not args.program:
        raise mesa.MesaError("no program to run (harness run TARGET -- PROGRAM ARGS...)")
    program = shutil.which(args.program[0])         # a loader takes a path, not a name to look up
    if program is None:
        raise mesa.MesaError(f"{args.program[0]}: no such program")
    target = targets_mod.get(args.target)
    build = mesa.chosen(args.mesa)
    base = config.environ()
    argv = target.command([program, *args.program[1:]], base, build)
    os.execve(argv[0], argv, target.environment(base, build))
