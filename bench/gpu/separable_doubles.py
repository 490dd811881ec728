#!/usr/bin/env python3
"""Which difference makes the harness's Vulkan layer on NVIDIA read a separable TES's doubles as 0:
the separable dvec2 case as it is, the same sources linked as one program, and the non-separable
case's sources. Answer (H100, 2026-11-26): none; every variant fails on system-vk, alone or in
any order, the linked case too: the known NVIDIA 64-bit TCS -> TES shift
(baselines/nvidia-h100-580.159.04.csv); system-gl passes all but the separable one without its
gl_PerVertex redeclared, which NVIDIA's GL refuses to link. Run from the repository root on the
GPU machine, after `source bench/gpu/env.sh`:  python3 bench/gpu/separable_doubles.py [TARGET]"""
from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harness.executor import targets  # noqa: E402
from harness.executor.executor import Executor  # noqa: E402
from harness.oracle.verdict import judge  # noqa: E402
from harness.sources import catalog  # noqa: E402

REDECLARED = re.compile(r"// A separable program redeclares.*\n(out|in) gl_PerVertex[^\n]*\n")


def variants():
    sep = catalog.find("tess/no-tcs/quads/equal/types/var/dvec2/separable/pv3")
    plain = catalog.find("tess/no-tcs/quads/equal/types/var/dvec2/pv3")
    yield "separable, as is", sep
    yield "separable sources, one program", replace(sep, separable=False)
    no_redecl = tuple((s, REDECLARED.sub("", src)) for s, src in sep.shaders)
    yield "separable, no gl_PerVertex redeclared", replace(sep, shaders=no_redecl)
    yield "one program, no redeclaration, #version 410", replace(
        plain, shaders=tuple((s, src.replace("#version 400", "#version 410", 1)) for s, src in plain.shaders))
    yield "plain case, as is", plain


def main() -> int:
    """TARGET [reversed]: the variants in one executor child, in order or reversed (does an earlier
    case change a later one's verdict?)."""
    target = sys.argv[1] if len(sys.argv) > 1 else "system-vk"
    order = list(variants())
    if "reversed" in sys.argv[2:]:
        order.reverse()
    ex = Executor(targets.get(target), case_timeout=20)
    try:
        for label, case in order:
            verdict = judge(case, ex.run(case), target)
            print(f"{label:45} {verdict.status.value:6} {(verdict.message.splitlines() or [''])[0][:150]}")
    finally:
        ex.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
