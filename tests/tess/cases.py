"""The tessellation family: the primitive generator, TCS-less programs, real TCSs, and programs
that switch between them.

A GL-on-Vulkan layer must inject a TCS for VS + TES programs (Vulkan has no default levels): it
copies every VS output and writes the levels from a push constant updated per draw. Cases ids:
  tess/no-tcs/<domain>/<spacing>/...   one program without a TCS (default levels)
  tess/tcs/<domain>/<spacing>/...      one program with a TCS
  tess/seq/<domain>/<spacing>/...      draw sequences that switch programs (with, without a TCS,
                                       without tessellation; one TES shared by several programs)
What each TES invocation saw goes to transform feedback (or an RGBA32F image for gl_FrontFacing);
expected values come from the case parameters and the reference tessellator
(harness/oracle/tessellator.py), never from a driver.

The family is a package (harness/sources/catalog.py loads this file as its __init__): one module per
sub-family, each rendering its stages from the templates beside it.
"""
from __future__ import annotations

from dataclasses import replace

from harness.model.case import Case

from .control import control_cases
from .coords import coords_cases
from .default_levels import default_level_cases
from .dynamic_inputs import dynamic_input_cases
from .dynamic_levels import dynamic_level_cases
from .facing import facing_cases
from .large_inputs import large_patch_cases
from .many_patches import many_cases
from .patch_outputs import patch_cases
from .sequences import seq_cases
from .sweeps import sweep_cases
from .vertex_types import type_cases


def generate() -> list[Case]:
    cases = default_level_cases()
    cases += (coords_cases() + type_cases() + control_cases() + heavy(patch_cases()) + facing_cases()
              + heavy(many_cases()) + heavy(large_patch_cases()) + heavy(sweep_cases()) + seq_cases()
              + dynamic_level_cases() + heavy(dynamic_input_cases()))
    # Level sets that differ only in levels a domain does not read give the same case: keep one.
    unique: dict[str, Case] = {}
    for case in cases:
        unique.setdefault(case.id, case)
    return list(unique.values())


# Seconds of CPU a case of these sub-families may take in its child before it counts as hung:
# their cold compiles are long (zink 22.3.6 compiled tess/tcs/triangles/equal/large-out/
# out32-27xvec4-patch2xvec4 in 20.9 s of CPU with an empty shader cache; docs/decisions.md#hangs), where every other case stays far under the run's budget.
HEAVY_CPU_SECONDS = 60.0


def heavy(cases: list[Case]) -> list[Case]:
    return [replace(c, requires=replace(c.requires, cpu_seconds=HEAVY_CPU_SECONDS)) for c in cases]
