"""Default-block uniforms and the compatibility state that shaders read, as one uniform buffer.

Vulkan GLSL has no default-block uniforms and no fixed-function state. A layer moves every
`uniform <type> <name>;` of a program into one std140 block (set 0, binding 0), with explicit
member offsets so that each stage declares just its own members, and the layer writes the
values the GL program would hold (glUniform* calls, zero before the first) into a buffer per
draw. The same block carries what compatibility shaders read from GL state: the projection
matrix (`gl_ModelViewProjectionMatrix`, `gl_ProjectionMatrix`, `ftransform()`; the model-view
matrix is the identity, as the harness never changes it) and the user clip planes that
`gl_ClipVertex` is clipped against.

Unsupported here (the case is skipped, naming it): struct-typed or initialised uniforms,
samplers and images, uniform blocks, array sizes that are not literals.
"""
from __future__ import annotations

import struct
from typing import Any
from dataclasses import dataclass

from harness.backends import Skip
from harness.glsl import types
from harness.glsl.model import Editor, Shader

CLIP_PLANES = 8
BLOCK = "_HarnessUniforms"
FORMATS = {"float": ("<f", 4), "int": ("<i", 4), "bool": ("<i", 4), "uint": ("<I", 4), "double": ("<d", 8)}
# Names the layer gives the compatibility state inside the block.
PROJECTION, PLANES = "_hl_projection", "_hl_clip_planes"
LEGACY_MATRICES = {
    "gl_ModelViewProjectionMatrix": PROJECTION, "gl_ProjectionMatrix": PROJECTION,
    "gl_ModelViewMatrix": "mat4(1.0)", "gl_ModelViewMatrixInverse": "mat4(1.0)",
    "gl_NormalMatrix": "mat3(1.0)", "gl_TextureMatrix": "mat4[8](" + ", ".join(["mat4(1.0)"] * 8) + ")",
}
@dataclass(frozen=True)
class Member:
    name: str
    type: str
    length: int                  # array elements; 0: not an array
    offset: int
    stride: int                  # bytes one element takes (between array elements)

    @property
    def declaration(self) -> str:
        array = f"[{self.length}]" if self.length else ""
        return f"layout(offset = {self.offset}) {self.type} {self.name}{array};"


def shape(type_: str) -> tuple[str, int, int, int]:
    """(struct format, scalar size, components a column, columns) of a GLSL type."""
    basic = types.basic(type_)
    if basic is None:
        raise Skip(f"the Vulkan backend does not support uniforms of type {type_}")
    fmt, size = FORMATS[basic.scalar]
    return fmt, size, basic.rows, basic.columns


def _std140(type_: str, length: int) -> tuple[int, int, int]:
    """std140 (alignment, bytes an array element takes, bytes between matrix columns). Arrays and
    matrix columns are rounded up to a vec4, as std140 says."""
    _, scalar, rows, columns = shape(type_)
    column_size = scalar * rows
    column_align = scalar * (1, 2, 4, 4)[rows - 1]
    if columns > 1 or length:
        column_stride = -(-column_size // 16) * 16
        return max(16, column_align), column_stride * columns, column_stride
    return column_align, column_size, column_size


def declared(shader: Shader) -> list[tuple[str, str, int]]:
    """(name, type, array length) of each default-block uniform a stage declares."""
    if shader.blocks("uniform"):
        raise Skip("the Vulkan backend does not support uniform blocks in imported programs")
    structs = {d.type for d in shader.structs()}
    if any(d.storage == "uniform" for d in shader.structs()) or \
            any(d.type in structs for d in shader.variables("uniform")):
        raise Skip("the Vulkan backend does not support struct-typed uniforms")
    found = []
    for d in shader.variables("uniform"):
        if d.type.lstrip("iu").startswith(("sampler", "image")):
            raise Skip(f"the Vulkan backend does not support {d.type} uniforms (textures, images)")
        for x in d.declarators:
            if x.initializer is not None:
                raise Skip(f"the Vulkan backend does not support initialised uniforms ({x.name} = {x.initializer})")
            dims = x.dims + d.type_dims
            if len(dims) > 1 or (dims and not dims[0].isdigit()):
                raise Skip(f"the Vulkan backend cannot read the uniform declaration of {x.name}{x.array}")
            found.append((x.name, d.type, int(dims[0]) if dims else 0))
    return found


def uses_projection(shader: Shader) -> bool:
    return any(shader.uses(n) for n in ("gl_ModelViewProjectionMatrix", "gl_ProjectionMatrix", "ftransform"))


def layout(shaders: dict[str, Shader], clip_vertex: bool) -> dict[str, Member]:
    """Every uniform of the program, and the compatibility state it reads, at std140 offsets."""
    wanted: dict[str, tuple[str, int]] = {}
    for shader in shaders.values():
        for name, type_, length in declared(shader):
            if wanted.setdefault(name, (type_, length)) != (type_, length):
                raise Skip(f"uniform {name} is declared differently in two stages")
    if any(uses_projection(s) for s in shaders.values()):
        wanted[PROJECTION] = ("mat4", 0)
    if clip_vertex:
        wanted[PLANES] = ("vec4", CLIP_PLANES)
    members, offset = {}, 0
    for name, (type_, length) in wanted.items():
        align, element, _ = _std140(type_, length)
        offset = -(-offset // align) * align
        members[name] = Member(name, type_, length, offset, element)
        offset += element * max(length, 1)
    return members


def size(members: dict[str, Member]) -> int:
    end = max((m.offset + m.stride * max(m.length, 1) for m in members.values()), default=0)
    return max(16, -(-end // 16) * 16)


def rewrite(shader: Shader, edit: Editor, members: dict[str, Member], prelude: list[str], vertex: str) -> None:
    """A stage's uniform declarations removed, the block (its own members only) added to the
    prelude, and the compatibility matrices replaced by the block's or by the identity;
    `vertex`: what gl_Vertex is called in the stage (for ftransform())."""
    own = [name for name, _, _ in declared(shader)]
    for d in shader.variables("uniform"):
        edit.replace(d.span, "")
    t = shader.tokens
    projection = False
    for i in shader.code():
        token = t[i]
        if token.kind != "ident" or t[i - 1].is_("."):
            continue
        if token.text in LEGACY_MATRICES:
            edit.replace((token.start, token.end), LEGACY_MATRICES[token.text])
            projection |= LEGACY_MATRICES[token.text] == PROJECTION
        elif token.text == "ftransform" and i + 2 < len(t) and t[i + 1].is_("(") and t[i + 2].is_(")"):
            edit.replace((token.start, t[i + 2].end), f"({PROJECTION} * {vertex})")
            projection = True
    planes = any(PLANES in p for p in prelude if not p.startswith("layout(std140")) or \
        any(PLANES in p for p in edit.new_text())
    used = own + [n for n, wanted in ((PROJECTION, projection), (PLANES, planes)) if wanted and n in members]
    if used:
        prelude.append(f"layout(std140, set = 0, binding = 0) uniform {BLOCK} {{ "
                       + " ".join(members[n].declaration for n in used) + " };")


def _element(name: str) -> tuple[str, int] | None:
    """A uniform's name as shader_runner gives it: "tint" -> ("tint", 0), "c[2]" -> ("c", 2)."""
    base, _, rest = name.partition("[")
    if not base.isidentifier() or (rest and not (rest.endswith("]") and rest[:-1].isdigit())):
        return None
    return base, int(rest[:-1]) if rest else 0


def pack(members: dict[str, Member], values: dict[str, tuple[str, Any]], projection: Any, planes: Any) -> bytes:
    """The block's bytes: each glUniform* value so far, the projection matrix, the planes."""
    data = bytearray(size(members))
    for name, (_type, vals) in values.items():
        base, index = _element(name) or (None, 0)
        member = members.get(base) if base is not None else None
        if member is None:
            raise Skip(f"uniform {name!r}: the Vulkan backend cannot set it (not a plain uniform of the program)")
        fmt, scalar, rows, columns = shape(member.type)
        if index >= max(member.length, 1):
            raise Skip(f"uniform {name!r}: index outside the array")
        _, element, column_stride = _std140(member.type, member.length)
        at = member.offset + index * element
        cast = float if fmt in ("<f", "<d") else int
        for c in range(columns):
            for r in range(rows):
                struct.pack_into(fmt, data, at + c * column_stride + r * scalar, cast(vals[c * rows + r]))
    if PROJECTION in members:
        matrix = projection or (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        for c in range(4):
            struct.pack_into("<4f", data, members[PROJECTION].offset + 16 * c, *matrix[4 * c:4 * c + 4])
    if PLANES in members:
        for i, plane in enumerate(planes[:CLIP_PLANES]):
            struct.pack_into("<4f", data, members[PLANES].offset + 16 * i, *plane)
    return bytes(data)
