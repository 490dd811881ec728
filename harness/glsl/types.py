"""GLSL's basic types by name: scalar kind, components a column, columns."""
from __future__ import annotations

from dataclasses import dataclass

SCALARS = {"float": "float", "int": "int", "uint": "uint", "bool": "bool", "double": "double"}
VECTOR_PREFIX = {"": "float", "i": "int", "u": "uint", "b": "bool", "d": "double"}


@dataclass(frozen=True)
class Basic:
    scalar: str          # float, int, uint, bool, double
    rows: int            # components of a vector or of a matrix column
    columns: int         # 1 unless a matrix

    @property
    def components(self) -> int:
        return self.rows * self.columns


def basic(name: str) -> Basic | None:
    """`vec3` -> Basic("float", 3, 1), `dmat2x3` -> Basic("double", 3, 2); None for other names."""
    if name in SCALARS:
        return Basic(name, 1, 1)
    for prefix, scalar in VECTOR_PREFIX.items():
        rest = name[len(prefix):] if name.startswith(prefix) else None
        if rest is None:
            continue
        if rest[:3] == "vec" and rest[3:] in ("2", "3", "4"):
            return Basic(scalar, int(rest[3:]), 1)
        if rest[:3] == "mat" and scalar in ("float", "double"):
            size = rest[3:].split("x")
            if len(size) in (1, 2) and all(s in ("2", "3", "4") for s in size):
                return Basic(scalar, int(size[-1]), int(size[0]))
    return None


def element_count(dims: tuple[str, ...]) -> int:
    """Elements of an array with these sizes: ("3", "2") -> 6; unsized or non-literal sizes count 1."""
    total = 1
    for size in dims:
        total *= int(size) if size.isdigit() else 1
    return total


def locations(name: str, structs: dict[str, list[tuple[str, tuple[str, ...]]]]) -> int:
    """Locations one value of a type takes at a shader interface: a column a location, doubles of
    three or four components two (GLSL 4.50, 4.4.1); a struct the sum of its members."""
    if name in structs:
        return sum(locations(t, structs) * element_count(dims) for t, dims in structs[name])
    b = basic(name)
    if b is None:
        return 1
    return b.columns * (2 if b.scalar == "double" and b.rows > 2 else 1)
