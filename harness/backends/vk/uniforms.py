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

import re
import struct
from dataclasses import dataclass

from harness.backends import Skip

CLIP_PLANES = 8
BLOCK = "_HarnessUniforms"
DECL = re.compile(r"^[ \t]*(?:layout\s*\([^)]*\)\s*)?uniform\s+(?:(?:lowp|mediump|highp)\s+)*(?P<type>\w+)\s+"
                  r"(?P<rest>[^;{]*);[ \t]*(?://[^\n]*)?$", re.M)
BLOCK_DECL = re.compile(r"^[ \t]*(?:layout\s*\([^)]*\)\s*)?uniform\s+\w+\s*\{", re.M)
BASE = {"float": ("<f", 4), "vec": ("<f", 4), "int": ("<i", 4), "ivec": ("<i", 4), "bool": ("<i", 4),
        "bvec": ("<i", 4), "uint": ("<I", 4), "uvec": ("<I", 4), "double": ("<d", 8), "dvec": ("<d", 8)}
# Names the layer gives the compatibility state inside the block.
PROJECTION, PLANES = "_hl_projection", "_hl_clip_planes"
LEGACY_MATRICES = {
    "gl_ModelViewProjectionMatrix": PROJECTION, "gl_ProjectionMatrix": PROJECTION,
    "gl_ModelViewMatrix": "mat4(1.0)", "gl_ModelViewMatrixInverse": "mat4(1.0)",
    "gl_NormalMatrix": "mat3(1.0)", "gl_TextureMatrix[0]": "mat4(1.0)",
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
    m = re.fullmatch(r"(d?)mat(\d)(?:x(\d))?", type_)
    if m:
        fmt, size = BASE["double" if m[1] else "float"]
        return fmt, size, int(m[3] or m[2]), int(m[2])
    m = re.fullmatch(r"(float|int|uint|bool|double)|([iubd]?vec)([234])", type_)
    if not m:
        raise Skip(f"the Vulkan backend does not support uniforms of type {type_}")
    fmt, size = BASE[m[1] or m[2]]
    return fmt, size, int(m[3] or 1), 1


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


def declared(source: str) -> list[tuple[str, str, int]]:
    """(name, type, array length) of each default-block uniform a stage declares."""
    if BLOCK_DECL.search(source):
        raise Skip("the Vulkan backend does not support uniform blocks in imported programs")
    found = []
    for m in DECL.finditer(source):
        type_ = m["type"]
        if re.match(r"^[iu]?(sampler|image)", type_):
            raise Skip(f"the Vulkan backend does not support {type_} uniforms (textures, images)")
        if "=" in m["rest"]:
            raise Skip(f"the Vulkan backend does not support initialised uniforms ({m[0].strip()})")
        for part in m["rest"].split(","):
            d = re.fullmatch(r"\s*(\w+)\s*(?:\[\s*(\d+)\s*\])?\s*", part)
            if not d:
                raise Skip(f"the Vulkan backend cannot read the uniform declaration {m[0].strip()!r}")
            found.append((d[1], type_, int(d[2]) if d[2] else 0))
    return found


def uses_projection(source: str) -> bool:
    return re.search(r"\b(gl_ModelViewProjectionMatrix|gl_ProjectionMatrix|ftransform)\b", source) is not None


def layout(shaders: dict[str, str], clip_vertex: bool) -> dict[str, Member]:
    """Every uniform of the program, and the compatibility state it reads, at std140 offsets."""
    wanted: dict[str, tuple[str, int]] = {}
    for source in shaders.values():
        for name, type_, length in declared(source):
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


def rewrite(source: str, members: dict[str, Member]) -> str:
    """A stage with its uniform declarations replaced by the block (its own members only) and
    the compatibility matrices by the block's or by the identity."""
    own = [name for name, _, _ in declared(source)]
    for builtin, replacement in LEGACY_MATRICES.items():
        source = re.sub(re.escape(builtin) + (r"\b" if not builtin.endswith("]") else ""), replacement, source)
    source = re.sub(r"\bftransform\s*\(\s*\)", f"({PROJECTION} * gl_Vertex)", source)
    used = own + [n for n in (PROJECTION, PLANES) if n in members and re.search(rf"\b{n}\b", source)]
    if not used:
        return source
    block = (f"layout(std140, set = 0, binding = 0) uniform {BLOCK} {{ "
             + " ".join(members[n].declaration for n in used) + " };")
    first = DECL.search(source)
    if first is None:
        return block + "\n" + source
    source = source[:first.start()] + block + "\n" + DECL.sub("", source[first.start():])
    return source


def pack(members: dict[str, Member], values: dict[str, tuple[str, tuple]], projection, planes) -> bytes:
    """The block's bytes: each glUniform* value so far, the projection matrix, the planes."""
    data = bytearray(size(members))
    for name, (type_, vals) in values.items():
        base, index = re.fullmatch(r"(\w+)(?:\[(\d+)\])?", name).groups() if re.fullmatch(
            r"\w+(?:\[\d+\])?", name) else (None, None)
        member = members.get(base)
        if member is None:
            raise Skip(f"uniform {name!r}: the Vulkan backend cannot set it (not a plain uniform of the program)")
        fmt, scalar, rows, columns = shape(member.type)
        index = int(index or 0)
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
