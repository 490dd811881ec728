"""`python -m harness exec TARGET [--mesa PATH] -- PROGRAM [ARGS...]`: a program (piglit's
shader_runner, a reproducer) started as the target's child starts, through its Mesa's loader.
(`harness run`, its old name, is a deprecated alias: harness/cli/commands.py DEPRECATED.)"""
from __future__ import annotations

import argparse
import os
import shutil

from harness.base import config, options
from harness.executor import targets as targets_mod
from harness.mesa import runtime as mesa


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("target")
    # Not the run settings: no case runs here, only the Mesa that a target's environment names.
    options.add_arguments(cmd, ("mesa",))
    cmd.add_argument("program", nargs="*", help="-- PROGRAM [ARGS...]")


def run(args: argparse.Namespace) -> int:
    program_args: list[str] = [*args.program, *args.passthrough]
    if not program_args:
        raise mesa.MesaError("no program to run (harness exec TARGET -- PROGRAM ARGS...)")
    program = shutil.which(program_args[0])         # a loader takes a path, not a name to look up
    if program is None:
        raise mesa.MesaError(f"{program_args[0]}: no such program")
    target = targets_mod.get(args.target)
    build = mesa.chosen(args.mesa)
    base = config.environ()
    argv = target.command([program, *program_args[1:]], base, build)
    os.execve(argv[0], argv, target.environment(base, build))
