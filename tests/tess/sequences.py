"""Sequences of programs: TCS-less, with a TCS, without tessellation; one TES shared by several
programs, some deleted between draws. Ids: tess/seq/<domain>/<spacing>/<sequence>."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from harness.model.case import Case, Draw, DrawEntry, DrawState, Expectation, Readback, RecordGroup, Requirements
from harness.oracle.tessellator import Domain, Spacing

from .common import (DOMAINS, FAMILY, INITIAL, INITIAL_PATCH_VERTICES, LEVELS, SPACINGS, XFB_PRIMITIVE, Levels,
                     as_inner, as_outer, shader, spacing_token, vertices_per_primitive)
from .coords import COORD_CAPTURES, coords_tcs, coords_tese, coords_vs, tess_expectation

SEQ_OFFSETS = (0, 10000, 20000)          # coords.vert offsets of the programs that share a TES


# A sequence's programs. Every tessellating one links the one TES source (one shader object, shared).
@dataclass(frozen=True)
class NoTcs:
    """VS (coords.vert, its vertex ids shifted by `offset`) and TES: the levels are the defaults."""
    offset: int = 0

    def spec(self) -> tuple[str, int]:
        return ("no-tcs", self.offset)


@dataclass(frozen=True)
class WithTcs:
    """VS, a TCS writing `levels` into output patches of `out_vertices`, and TES."""
    out_vertices: int
    levels: Levels

    def spec(self) -> tuple[str, int, Levels]:
        return ("tcs", self.out_vertices, self.levels)


@dataclass(frozen=True)
class Plain:
    """A VS alone: no tessellation."""

    def spec(self) -> tuple[str]:
        return ("plain",)


# spec(): the program as the case descriptions name it, e.g. ("tcs", 4, levels).
Program = NoTcs | WithTcs | Plain


@dataclass(frozen=True)
class SeqStep:
    program: int                         # index into the case's programs
    size: int | None = None              # GL_PATCH_VERTICES set before the draw
    levels: Levels | None = None         # default levels set before the draw
    delete: tuple[int, ...] = ()         # programs deleted before the draw


Shaders = tuple[tuple[str, str], ...]     # (stage, GLSL source): a Case's program


def _shaders(program: Program, tes: str) -> Shaders:
    if isinstance(program, NoTcs):
        return (("vs", coords_vs(program.offset)), ("tes", tes))
    if isinstance(program, WithTcs):
        return (("vs", coords_vs(0)), ("tcs", coords_tcs(program.out_vertices, program.levels)), ("tes", tes))
    return (("vs", shader("plain.vert")),)


def seq_case(domain: Domain, spacing: Spacing, token: str, programs: list[Program], steps: list[SeqStep]) -> Case:
    id_ = f"tess/seq/{domain}/{spacing_token(spacing)}/{token}"
    tes = coords_tese(domain, spacing, "ccw" if domain != "isolines" else "", False)
    built = [_shaders(program, tes) for program in programs]
    draws: list[Draw] = []
    expects: list[Expectation] = []
    size, levels, first = INITIAL_PATCH_VERTICES, INITIAL, 1
    plain_mode = XFB_PRIMITIVE[domain]
    for index, step in enumerate(steps):
        size = step.size or size
        levels = step.levels or levels
        program = programs[step.program]
        state = DrawState(patch_vertices=step.size,
                          default_outer=as_outer(step.levels[0]) if step.levels else None,
                          default_inner=as_inner(step.levels[1]) if step.levels else None)
        deleted = f", after glDeleteProgram of program(s) {', '.join(map(str, step.delete))}" if step.delete else ""
        if isinstance(program, Plain):
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
            if isinstance(program, WithTcs):                 # seen: the patch the TES sees
                tcs, seen, offset, tes_levels = True, program.out_vertices, 0, program.levels
            else:
                tcs, seen, offset, tes_levels = False, size, program.offset, levels
            patches = [(p, first + p * size + offset, size) for p in range(2)]
            exp = tess_expectation(index, domain, spacing, False, "ccw" if domain != "isolines" else "",
                                   tes_levels, patches, tcs)
            if tcs and seen != size:                         # the TCS's output patch, built from the input
                rebuilt: list[RecordGroup] = []
                for group, (_, v0, _) in zip(exp.groups, patches):
                    vertices = [v0 + (i % size) for i in range(seen)]
                    values = tuple((q, (seen, sum(vertices) + 1000 * seen, vertices[0] + 1000))
                                   if q == COORD_CAPTURES[4].quantity else (q, v) for q, v in group.values)
                    rebuilt.append(dataclasses.replace(group, values=values))
                exp = dataclasses.replace(exp, groups=tuple(rebuilt))
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
        description=f"draw sequence {token}: programs {[p.spec() for p in programs]}, {domain}, {spacing}",
        params=(("domain", domain), ("spacing", spacing), ("programs", len(programs))),
    )


def seq_cases() -> list[Case]:
    cases = []
    a, b, c = LEVELS["integer"], LEVELS["fractional"], LEVELS["inner_one"]
    for domain in DOMAINS:
        for spacing in SPACINGS:
            def add(token: str, programs: list[Program], steps: list[SeqStep], domain: Domain = domain,
                    spacing: Spacing = spacing) -> None:
                cases.append(seq_case(domain, spacing, token, programs, steps))
            no_tcs, with_tcs, plain = NoTcs(0), WithTcs(4, b), Plain()
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
            shared: list[Program] = [NoTcs(SEQ_OFFSETS[0]), NoTcs(SEQ_OFFSETS[1]), NoTcs(SEQ_OFFSETS[2])]
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
