"""Winding through gl_FrontFacing, and gl_PrimitiveID in the FS without a GS, read from an image.
Ids: tess/<tcs|no-tcs>/<domain>/<spacing>/<winding>/<front-facing|fs-primitive-id|fs-only-primitive-id>/<levels>.
`fs-primitive-id`: the TES places each patch by its gl_PrimitiveID, and the FS reads it too;
`fs-only-primitive-id`: the TES places it by its first vertex's number, and only the FS reads
gl_PrimitiveID. The pair tells apart a driver that hands the FS gl_PrimitiveID only when the TES
reads it (triage folder gallium-draw-tes-primitive-id-to-fs: the draw module's needs_primid())."""
from __future__ import annotations

from harness.model.case import Case, Draw, DrawEntry, DrawState, Expectation, ExpectedPixel, Readback, Requirements
from harness.oracle.tessellator import Domain, Spacing

from .common import (FAMILY, LEVELS, SPACINGS, WINDINGS, Levels, as_inner, as_outer, level_token, per_patch, shader,
                     spacing_token)
from .coords import coords_tcs, coords_vs

FACING_SIZE = (8, 4)


def facing_case(tcs: bool, domain: Domain, spacing: Spacing, winding: str, levels: Levels, primitive_id: bool = False,
                tes_reads_id: bool = True) -> Case:
    """Patches side by side filling the viewport, drawn without a GS. Front-facing cases check
    gl_FrontFacing at every pixel; primitive-id cases check the FS gl_PrimitiveID, with one
    triangle per patch so that the two readings of the spec agree (the GL spec counts the
    primitives the rasterizer saw, the GLSL spec takes the TES's value: both are the patch)."""
    token = ("fs-primitive-id" if tes_reads_id else "fs-only-primitive-id") if primitive_id else "front-facing"
    id_ = "/".join(("tess", "tcs" if tcs else "no-tcs", domain, spacing_token(spacing), winding,
                    token, level_token(domain, levels)))
    outer, inner = levels
    size, first = 3, 0
    patches = 4 if primitive_id else 2
    shaders = [("vs", coords_vs())]
    if tcs:
        shaders.append(("tcs", coords_tcs(size, levels)))
    shaders += [("tes", shader("facing.tese", domain=domain, spacing=spacing, winding=winding,
                               patches=patches, size=size, tes_reads_id=tes_reads_id)),
                ("fs", shader("facing.frag"))]
    width, height = FACING_SIZE
    front = 1.0 if winding == "ccw" else -1.0      # GL's initial glFrontFace is GL_CCW
    pixels = []
    for y in range(height):
        for x in range(width):
            xn, yn = (x + 0.5) / width * 2 - 1, (y + 0.5) / height * 2 - 1
            patch = int((xn + 1) / 2 * patches)
            u, v = (xn + 1) / 2 * patches - patch, (yn + 1) / 2
            if domain == "triangles" and not (u > 0.05 and v > 0.05 and u + v < 0.95):
                continue                            # outside the triangle, or on its edge
            where = f"pixel ({x}, {y})"
            base = (y * width + x) * 4
            if primitive_id:
                pixels.append(ExpectedPixel(base + 1, f"{where}: FS gl_PrimitiveID (patch {patch})", float(patch)))
            else:
                pixels.append(ExpectedPixel(base, f"{where}: gl_FrontFacing (1 front, -1 back)", front))
    count = patches * size
    state = DrawState(patch_vertices=size, default_outer=None if tcs else as_outer(outer),
                      default_inner=None if tcs else as_inner(inner))
    draw = Draw("DrawArrays", "PATCHES", (DrawEntry(count, first=first),), state=state,
                label=f"draw 0 (glDrawArrays(GL_PATCHES, {first}, {count}))")
    each = per_patch(domain, spacing, False, outer, inner)
    assert not primitive_id or each == 1, id_
    return Case(
        id=id_, family=FAMILY, shaders=tuple(shaders), requires=Requirements(gl_version=(4, 0)),
        vertices=count, attributes=(), steps=(draw,),
        readback=Readback(image=FACING_SIZE),
        expect=(Expectation(0, counts=(("primitives_generated", each * patches),), pixels=tuple(pixels)),),
        description=(f"{patches} patches of one triangle each, {spacing}: FS gl_PrimitiveID without a GS"
                     + ("" if tes_reads_id else ", the TES not reading it")
                     if primitive_id else
                     f"{winding} triangles from {domain}, {spacing}: gl_FrontFacing with glFrontFace(GL_CCW)"),
        params=(("domain", domain), ("spacing", spacing), ("winding", winding), ("tcs", tcs)),
    )


def facing_cases() -> list[Case]:
    cases = [facing_case(tcs, domain, spacing, winding, LEVELS[name])
             for tcs in (False, True) for domain in ("triangles", "quads") for spacing in SPACINGS
             for winding in WINDINGS for name in ("integer", "fractional")]
    cases += [facing_case(tcs, "triangles", spacing, "ccw", LEVELS["ones"], primitive_id=True, tes_reads_id=tes_reads_id)
              for tes_reads_id in (True, False) for tcs in (False, True)
              for spacing in ("equal_spacing", "fractional_odd_spacing")]
    return cases
