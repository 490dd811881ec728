"""The value each scalar component of a carried output holds, and the GLSL types broken into
scalar components: shared by the per-vertex (TCS-less) and the per-patch (TCS) type cases."""
from __future__ import annotations

from dataclasses import dataclass

DOUBLE_FRACTION = 2.0 ** -32


def component_value(kind: str, base: int, k: int) -> float:
    r = base * 64 + k + 1
    if kind == "float":
        return r * 0.25
    if kind == "int":
        return -r
    if kind == "uint":
        return r + 256
    if kind == "colour":                 # stays in [0, 1]: legacy colours may be clamped
        return (base * 16 + k + 1) / 4096.0
    if kind == "double":
        return r + (k + 1) * DOUBLE_FRACTION
    raise ValueError(kind)


def component_glsl(kind: str, base: str, k: str) -> str:
    r = f"({base} * 64 + {k} + 1)"
    return {"float": f"float{r} * 0.25", "int": f"-{r}", "uint": f"uint{r} + 256u",
            "colour": f"float({base} * 16 + {k} + 1) / 4096.0",
            "double": f"double{r} + double({k} + 1) * 2.3283064365386963e-10LF"}[kind]


SCALAR_KIND = {"float": "float", "int": "int", "uint": "uint", "double": "double"}
VECTOR_BASE = {"vec": "float", "ivec": "int", "uvec": "uint", "dvec": "double"}
STRUCT_S = "struct S { vec3 a; float b; mat2 c; int d; };"


def scalars_of(glsl_type: str) -> list[tuple[str, str]]:
    """(accessor, kind) of every scalar component of a GLSL type, in a fixed order."""
    if glsl_type in SCALAR_KIND:
        return [("", SCALAR_KIND[glsl_type])]
    for prefix, kind in sorted(VECTOR_BASE.items(), key=lambda kv: -len(kv[0])):
        if glsl_type.startswith(prefix) and glsl_type[len(prefix):].isdigit():
            return [("." + "xyzw"[c], kind) for c in range(int(glsl_type[len(prefix):]))]
    for prefix, kind in (("dmat", "double"), ("mat", "float")):
        if glsl_type.startswith(prefix):
            shape = glsl_type[len(prefix):]
            cols, rows = (int(shape), int(shape)) if "x" not in shape else map(int, shape.split("x"))
            return [(f"[{c}][{r}]", kind) for c in range(cols) for r in range(rows)]
    if glsl_type == "S":
        return ([(".a." + c, "float") for c in "xyz"] + [(".b", "float")]
                + [(f".c[{c}][{r}]", "float") for c in range(2) for r in range(2)] + [(".d", "int")])
    raise ValueError(glsl_type)


@dataclass(frozen=True)
class Carried:
    """One VS output the TES reads per vertex: a user varying or a legacy/SPIR-V builtin."""
    name: str                      # GLSL name (user varyings get v_ prefixes per form)
    type: str                      # GLSL element type
    length: int = 0                # array length; 0: not an array
    dynamic: bool = False          # arrays written and read in loops (dynamic indices)
    builtin: bool = False          # written as gl_*, read through gl_in[]
    kind: str = ""                 # overrides the component kind (legacy colours)

    def elements(self) -> list[tuple[str, str]]:
        inner = scalars_of(self.type)
        if self.kind:
            inner = [(a, self.kind) for a, _ in inner]
        if not self.length:
            return inner
        return [(f"[{j}]{a}", kind) for j in range(self.length) for a, kind in inner]

    @property
    def flat(self) -> bool:
        return any(kind in ("int", "uint") for _, kind in scalars_of(self.type)) and not self.builtin


@dataclass(frozen=True)
class TypeSet:
    token: str                     # id token
    carried: tuple[Carried, ...]
    compat: bool = False
    forms: tuple[str, ...] = ("var", "block")


def user(name, type_, length=0, dynamic=False) -> Carried:
    return Carried(name, type_, length, dynamic)
