"""Old flag names kept for one release: hidden from --help, each use warned of in one line on
stderr, the value stored where the new flag stores it (CHANGELOG.md names each rename)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


def alias(parser: argparse.ArgumentParser, old: str, new: str, **keywords: Any) -> None:
    """`old` as a deprecated spelling of `new` (declared already, with the same keywords)."""
    dest = new.lstrip("-").replace("-", "_")

    class Warned(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
            print(f"{parser.prog}: {old} is deprecated, renamed {new}; the old name goes in the next release",
                  file=sys.stderr)
            setattr(namespace, self.dest, values)

    parser.add_argument(old, dest=dest, action=Warned, help=argparse.SUPPRESS, default=argparse.SUPPRESS,
                        **keywords)
