"""Sequences of programs: TCS-less, with a TCS, without tessellation; one TES shared by several
programs, some deleted between draws. Ids: tess/seq/<domain>/<spacing>/<sequence>."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from harness.model.case import Case, Draw, DrawEntry, DrawState, Expectation, Readback, RecordGroup, Requirements

from .common import (DOMAINS, FAMILY, INITIAL, INITIAL_PATCH_VERTICES, LEVELS, SPACINGS, XFB_PRIMITIVE, shader,
                     spacing_token, vertices_per_primitive)
from .coords import COORD_CAPTURES, coords_tcs, coords_tese, coords_vs, tess_expectation

SEQ_OFFSETS = (0, 10000, 20000)          # coords.vert offsets of the programs that share a TES


@dataclass(frozen=True)
class SeqStep:
    program: int                         # index into the case's programs
    size: int | None = None              # GL_PATCH_VERTICES set before the draw
    levels: tuple | None = None          # default levels set before the draw
    delete: tuple[int, ...] = ()         # programs deleted before the draw


def seq_case(domain: str, spacing: str, token: str, programs: list[tuple[str, ...]],
             steps: list[SeqStep]) -> Case:
    """`programs`: each a tuple of ("no-tcs", offset) / ("tcs", out_vertices, levels) / ("plain",).
    Every tessellating program links the one TES source (one shader object, shared)."""
    id_ = f"tess/seq/{domain}/{spacing_token(spacing)}/{token}"
    tes = coords_tese(domain, spacing, "ccw" if domain != "isolines" else "", False)
    built = []
    for spec in programs:
        if spec[0] == "no-tcs":
            built.append((("vs", coords_vs(spec[1])), ("tes", tes)))
        elif spec[0] == "tcs":
            built.append((("vs", coords_vs(0)), ("tcs", coords_tcs(spec[1], spec[2])), ("tes", tes)))
        else:
            built.append((("vs", shader("plain.vert")),))
    draws, expects = [], []
    size, levels, first = INITIAL_PATCH_VERTICES, INITIAL, 1
    plain_mode = XFB_PRIMITIVE[domain]
    for index, step in enumerate(steps):
        size = step.size or size
        levels = step.levels or levels
        spec = programs[step.program]
        state = DrawState(patch_vertices=step.size,
                          default_outer=tuple(map(float, step.levels[0])) if step.levels else None,
                          default_inner=tuple(map(float, step.levels[1])) if step.levels else None)
        deleted = f", after glDeleteProgram of program(s) {', '.join(map(str, step.delete))}" if step.delete else ""
        if spec[0] == "plain":
            per = vertices_per_primitive(domain, False)
            count = 2 * per
            label = f"draw {index} (program {step.program}: glDrawArrays(GL_{plain_mode}, {first}, {count}), " \
                    f"no tessellation{deleted})"
            draws.append(Draw("DrawArrays", plain_mode, (DrawEntry(count, first=first),), state=state,
                              label=label, program=step.program, delete_programs=step.delete))
            groups = tuple(RecordGroup("gl_PrimitiveID", -1 - v, f"vertex {v} (no tessellation)",
                                       (("gl_TessLevelOuter", (-1.0,) * 4),
                                        (COORD_CAPTURES[4].quantity, (0, v, v))))
                           for v in range(first, first + count))
            expects.append(Expectation(index, counts=(
                ("primitives_generated", 2), ("xfb_primitives_written", 2), ("xfb_vertices", count)),
                groups=groups))
        else:
            count = 2 * size
            label = f"draw {index} (program {step.program}: glDrawArrays(GL_PATCHES, {first}, {count}){deleted})"
            draws.append(Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                              label=label, program=step.program, delete_programs=step.delete))
            tcs = spec[0] == "tcs"
            seen = spec[1] if tcs else size                  # the patch the TES sees
            offset = 0 if tcs else spec[1]
            patches = [(p, first + p * size + offset, size) for p in range(2)]
            exp = tess_expectation(index, domain, spacing, False, "ccw" if domain != "isolines" else "",
                                   spec[2] if tcs else levels, patches, tcs)
            if tcs and seen != size:                         # the TCS's output patch, built from the input
                groups = []
                for group, (_, v0, _) in zip(exp.groups, patches):
                    vertices = [v0 + (i % size) for i in range(seen)]
                    values = tuple((q, (seen, sum(vertices) + 1000 * seen, vertices[0] + 1000))
                                   if q == COORD_CAPTURES[4].quantity else (q, v) for q, v in group.values)
                    groups.append(dataclasses.replace(group, values=values))
                exp = dataclasses.replace(exp, groups=tuple(groups))
            expects.append(exp)
        first += count + 1
    most = max(e.counts[2][1] for e in expects)
    limits = [("GL_MAX_PATCH_VERTICES", ">=", 32)]
    return Case(
        id=id_, family=FAMILY, shaders=built[0], programs=tuple(built[1:]),
        requires=Requirements(gl_version=(4, 0), limits=tuple(limits)),
        vertices=first, attributes=(), steps=tuple(draws),
        readback=Readback(COORD_CAPTURES, XFB_PRIMITIVE[domain], max_records=most + 64),
        expect=tuple(expects),
        description=f"draw sequence {token}: programs {programs}, {domain}, {spacing}",
        params=(("domain", domain), ("spacing", spacing), ("programs", len(programs))),
    )


def seq_cases() -> list[Case]:
    cases = []
    a, b, c = LEVELS["integer"], LEVELS["fractional"], LEVELS["inner_one"]
    for domain in DOMAINS:
        for spacing in SPACINGS:
            def add(token, programs, steps, domain=domain, spacing=spacing):
                cases.append(seq_case(domain, spacing, token, programs, steps))
            no_tcs, with_tcs, plain = ("no-tcs", 0), ("tcs", 4, b), ("plain",)
            # TCS-less, then a real TCS with the same TES, then TCS-less again (state unchanged,
            # then changed): the injected TCS must neither replace nor outlive the real one.
            add("no-tcs-tcs-no-tcs", [no_tcs, with_tcs], [SeqStep(0, 3, a), SeqStep(1), SeqStep(0)])
            add("no-tcs-tcs-no-tcs/changed", [no_tcs, with_tcs],
                [SeqStep(0, 3, a), SeqStep(1, 5), SeqStep(0, 2, c), SeqStep(1, 1), SeqStep(0, None, a)])
            add("tcs-no-tcs-tcs", [with_tcs, no_tcs], [SeqStep(0, 4), SeqStep(1, None, a), SeqStep(0, 7)])
            # TCS-less, then no tessellation at all (and back).
            add("no-tcs-plain", [no_tcs, plain], [SeqStep(0, 3, a), SeqStep(1)])
            add("no-tcs-plain-no-tcs", [no_tcs, plain], [SeqStep(0, 3, a), SeqStep(1), SeqStep(0, 4, b)])
            add("plain-no-tcs", [plain, no_tcs], [SeqStep(0), SeqStep(1, 4, c)])
            add("tcs-plain-no-tcs", [with_tcs, plain, no_tcs], [SeqStep(0, 3), SeqStep(1), SeqStep(2, None, a)])
            # One TES in three TCS-less programs; draw each, delete one, draw the others again.
            shared = [("no-tcs", SEQ_OFFSETS[0]), ("no-tcs", SEQ_OFFSETS[1]), ("no-tcs", SEQ_OFFSETS[2])]
            draw_all = [SeqStep(0, 3, a), SeqStep(1, None, b), SeqStep(2, 5, c)]
            for gone in range(3):
                rest = [p for p in range(3) if p != gone]
                add(f"shared-tes-x3/delete{gone}", shared,
                    draw_all + [SeqStep(rest[0], 4, a, delete=(gone,)), SeqStep(rest[1], None, b),
                                SeqStep(rest[0], 2, None)])
            add("shared-tes-x3/delete01", shared,
                draw_all + [SeqStep(2, 4, b, delete=(0, 1)), SeqStep(2, 3, a)])
            # The same, with a TCS program among them.
            add("shared-tes-x3+tcs/delete0", shared + [with_tcs],
                draw_all + [SeqStep(3, 3), SeqStep(1, 4, a, delete=(0,)), SeqStep(3), SeqStep(2)])
    return cases
