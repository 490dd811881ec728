"""The value each scalar component of a carried output holds, and the GLSL types broken into
scalar components: shared by the per-vertex (TCS-less) and the per-patch (TCS) type cases.
The formulas themselves are GLSL, in values.glsl; the oracle evaluates that same text."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from harness.glsl.templates import macros
from harness.oracle.glsl_expr import compile_expression

from .common import HERE

VALUES = macros(HERE / "values.glsl")
DOUBLE_FRACTION = 2.0 ** -32             # the low bits of a double component (values.glsl)


@lru_cache(maxsize=None)
def formula(macro: str, *args: str) -> Callable[..., object]:
    """A values.glsl macro as a Python function of the names it was given."""
    return compile_expression(str(getattr(VALUES, macro)(*args)))


def scalar(value: object) -> float:
    """A formula's value where its names are numbers: a Python int or float (GLSL's scalars)."""
    if not isinstance(value, (int, float)):
        raise TypeError(f"a scalar formula gave {value!r}")
    return value


def vector(value: object) -> np.ndarray:
    """A formula's value where it builds a vector, or a name is an array: a numpy array."""
    if not isinstance(value, np.ndarray):
        raise TypeError(f"a vector formula gave {value!r}")
    return value


@lru_cache(maxsize=None)            # pure, and asked for the same few thousand values again and again
def component_value(kind: str, base: int, k: int) -> float:
    """values.glsl's component(kind, base, k), evaluated."""
    return scalar(formula("component", kind, "base", "k")(base=base, k=k))


SCALAR_KIND = {"float": "float", "int": "int", "uint": "uint", "double": "double"}
VECTOR_BASE = {"vec": "float", "ivec": "int", "uvec": "uint", "dvec": "double"}
# The struct every struct case carries: (member, type) in declaration order.
STRUCT_S = (("a", "vec3"), ("b", "float"), ("c", "mat2"), ("d", "int"))


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
        return [(f".{member}{a}", kind) for member, type_ in STRUCT_S for a, kind in scalars_of(type_)]
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


def user(name: str, type_: str, length: int = 0, dynamic: bool = False) -> Carried:
    return Carried(name, type_, length, dynamic)
