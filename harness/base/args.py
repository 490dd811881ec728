"""Taking an option out of a command line the harness hands on (pytest's arguments, which the
scheduler, the gate and the release matrix read a few options of and pass the rest on)."""
from __future__ import annotations

from typing import Sequence
from harness.base.errors import UsageError


class ArgsError(UsageError, ValueError):
    """An option given without its value: the message names it."""


def option_values(args: Sequence[str], option: str) -> tuple[list[str], list[str]]:
    """(the arguments less every `option VALUE` / `option=VALUE`, and for a short option `-xVALUE`
    too; the values in order)."""
    short = len(option) == 2 and option[0] == "-" and option[1] != "-"
    rest: list[str] = []
    values: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == option:
            if i + 1 >= len(args):
                raise ArgsError(f"{option} needs a value")
            values.append(args[i + 1])
            i += 2
            continue
        if arg.startswith(option + "="):
            values.append(arg.split("=", 1)[1])
        elif short and arg.startswith(option) and len(arg) > 2:
            values.append(arg[2:])
        else:
            rest.append(arg)
        i += 1
    return rest, values
