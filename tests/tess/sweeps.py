"""One TCS-less program drawn many times: unchanged state, or the patch size and levels changed
before each draw. Ids: tess/no-tcs/<domain>/<spacing>/<repeat24|pv1-to-32|pv32-to-1|alternate>."""
from __future__ import annotations

import math
from typing import Sequence

from harness.model.case import Case, Draw, DrawEntry, DrawState, Readback, Requirements
from harness.oracle.tessellator import Domain, Spacing

from .common import (DOMAINS, FAMILY, INITIAL, INITIAL_PATCH_VERTICES, LEVELS, SPACINGS, SPEC_MAX_LEVEL,
                     Levels, as_inner, as_outer, needs_max_level, spacing_token)
from .coords import COORD_CAPTURES, LEVEL_GRID, coords_tese, coords_vs, tess_expectation

# A draw's patch size and levels (None: leaves them as they are).
SweepStep = tuple[int | None, Levels | None]


def sweep_case(domain: Domain, spacing: Spacing, token: str, steps: Sequence[SweepStep]) -> Case:
    """Draws of one TCS-less program; each step sets a patch size and/or levels (None: leaves them)."""
    id_ = f"tess/no-tcs/{domain}/{spacing_token(spacing)}/{token}"
    shaders = (("vs", coords_vs()), ("tes", coords_tese(domain, spacing, "", True)))
    draws, expects = [], []
    size, levels, first = INITIAL_PATCH_VERTICES, INITIAL, 1
    for index, (new_size, new_levels) in enumerate(steps):
        size = new_size or size
        levels = new_levels or levels
        count = 2 * size
        state = DrawState(patch_vertices=new_size,
                          default_outer=as_outer(levels[0]) if new_levels else None,
                          default_inner=as_inner(levels[1]) if new_levels else None)
        draws.append(Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                          label=f"draw {index} (glDrawArrays(GL_PATCHES, {first}, {count}))"))
        patches = [(p, first + p * size, size) for p in range(2)]
        expects.append(tess_expectation(index, domain, spacing, True, "", levels, patches, False))
    most = max(e.counts[2][1] for e in expects)
    limits = [("GL_MAX_PATCH_VERTICES", ">=", max(s for s, _ in steps if s))] if any(s for s, _ in steps) else []
    if any(needs_max_level(lv) for _, lv in steps if lv):
        limits.append(("GL_MAX_TESS_GEN_LEVEL", "==", SPEC_MAX_LEVEL))
    return Case(
        id=id_, family=FAMILY, shaders=shaders, requires=Requirements(gl_version=(4, 0), limits=tuple(limits)),
        vertices=first + 64, attributes=(), steps=tuple(draws),
        readback=Readback(COORD_CAPTURES, "POINTS", max_records=most + 64),
        expect=tuple(expects),
        description=f"{len(steps)} draws of one TCS-less program ({token}), {domain}, {spacing}, point_mode",
        params=(("domain", domain), ("spacing", spacing), ("draws", len(steps))),
    )


def sweep_cases() -> list[Case]:
    cases = []
    grid = [lv for lv in LEVEL_GRID if not any(math.isnan(x) or x <= 0 for x in lv[0]) and max(lv[0]) < 20]
    for domain in DOMAINS:
        for spacing in SPACINGS:
            # Unchanged state: only the first draw sets anything.
            cases.append(sweep_case(domain, spacing, "repeat24",
                                    [(4, LEVELS["fractional"])] + [(None, None)] * 23))
            # Patch size 1..32 and the levels changed before every draw, then back down.
            up = [(n, grid[n % len(grid)]) for n in range(1, 33)]
            cases.append(sweep_case(domain, spacing, "pv1-to-32", up))
            cases.append(sweep_case(domain, spacing, "pv32-to-1", up[::-1]))
            # Only one of the two changed per draw.
            cases.append(sweep_case(domain, spacing, "alternate",
                                    [(3, grid[1]), (5, None), (None, grid[2]), (2, None), (None, grid[3]),
                                     (None, None), (7, grid[0])]))
    return cases
