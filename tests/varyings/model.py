"""The varyings family's vocabulary: the legacy builtins, the user varyings and their types, the
GLSL dialects, and a case's plan (what cases.py builds a case from)."""
from __future__ import annotations

from dataclasses import dataclass

# -- builtins ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Builtin:
    written: str                 # what the VS (and stages after it) write
    read: str                    # what the FS reads; "" if the FS cannot read it
    components: int
    colour: bool = False         # values clamped to [0, 1]: use fractions


TEXCOORDS = {f"tex{i}": Builtin(f"gl_TexCoord[{i}]", f"gl_TexCoord[{i}]", 4) for i in range(8)}
BUILTINS = {
    "color": Builtin("gl_FrontColor", "gl_Color", 4, colour=True),
    "secondary": Builtin("gl_FrontSecondaryColor", "gl_SecondaryColor", 4, colour=True),
    **TEXCOORDS,
    "fog": Builtin("gl_FogFragCoord", "gl_FogFragCoord", 1),
}
BACK = {"color": "gl_BackColor", "secondary": "gl_BackSecondaryColor"}
# Builtins that do have SPIR-V builtins, as controls: their slots must not move the others.
CONTROLS = ("pointsize", "clipdist")

# -- user varyings ----------------------------------------------------------------------------

# type -> (scalar type, columns, rows); vectors have columns == 1
TYPES = {
    "float": ("float", 1, 1), "vec2": ("float", 1, 2), "vec3": ("float", 1, 3), "vec4": ("float", 1, 4),
    "int": ("int", 1, 1), "ivec2": ("int", 1, 2), "ivec3": ("int", 1, 3), "ivec4": ("int", 1, 4),
    "uint": ("uint", 1, 1), "uvec2": ("uint", 1, 2), "uvec3": ("uint", 1, 3), "uvec4": ("uint", 1, 4),
    "mat2": ("float", 2, 2), "mat3": ("float", 3, 3), "mat4": ("float", 4, 4),
    "mat2x3": ("float", 2, 3), "mat3x2": ("float", 3, 2), "mat2x4": ("float", 2, 4),
    "mat4x2": ("float", 4, 2), "mat3x4": ("float", 3, 4), "mat4x3": ("float", 4, 3),
    "double": ("double", 1, 1), "dvec2": ("double", 1, 2), "dvec3": ("double", 1, 3),
    "dvec4": ("double", 1, 4), "dmat2": ("double", 2, 2),
}
SWIZZLE = "xyzw"
# A struct varying (GLSL 1.50+): member name -> type, in declaration order.
STRUCTS = {"S": (("a", "vec3"), ("b", "float"), ("c", "mat2"))}


@dataclass(frozen=True)
class Varying:
    name: str
    type: str
    qualifier: str = ""          # flat, noperspective, smooth, centroid, sample
    array: int = 0               # 0: not an array
    location: int | None = None
    component: int | None = None

    @property
    def scalar(self) -> str:
        return "float" if self.type in STRUCTS else TYPES[self.type][0]

    def needs_flat(self) -> bool:
        return self.scalar != "float"

    @property
    def interpolation(self) -> str:
        return self.qualifier or ("flat" if self.needs_flat() else "")

    def groups(self) -> list[tuple[str, list[str]]]:
        """(assignable GLSL name, accessors of its scalars) per array element, scalars in
        constructor order: column, then row."""
        if self.type in STRUCTS:
            return [(self.name, [a for m, t in STRUCTS[self.type] for a in Varying(f"{self.name}.{m}", t).elements()])]
        _, cols, rows = TYPES[self.type]
        out = []
        for a in range(self.array or 1):
            head = self.name + (f"[{a}]" if self.array else "")
            if cols > 1:
                out.append((head, [f"{head}[{c}][{r}]" for c in range(cols) for r in range(rows)]))
            else:
                out.append((head, [head] if rows == 1 else [f"{head}.{SWIZZLE[r]}" for r in range(rows)]))
        return out

    def elements(self) -> list[str]:
        return [accessor for _, accessors in self.groups() for accessor in accessors]

    @property
    def components(self) -> int:
        return len(self.elements())


def constructor(type_: str, values: list[float]) -> str:
    """A GLSL expression of `type_` made of `values`, in the order groups() lists scalars."""
    if type_ in STRUCTS:
        parts, rest = [], list(values)
        for _, member in STRUCTS[type_]:
            n = Varying("m", member).components
            parts.append(constructor(member, rest[:n]))
            rest = rest[n:]
        return f"{type_}({', '.join(parts)})"
    scalar = TYPES[type_][0]
    if len(values) == 1:
        return literal(scalar, values[0])
    return f"{type_}({', '.join(literal(scalar, v) for v in values)})"


def literal(scalar: str, value: float) -> str:
    if scalar == "int":
        return str(int(value))
    if scalar == "uint":
        return f"{int(value)}u"
    if scalar == "double":
        return f"{value:.1f}lf"
    return f"{value!r}" if value != int(value) else f"{value:.1f}"


# -- GLSL versions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Dialect:
    version: int
    compat: bool

    @property
    def line(self) -> str:
        if self.version < 150:
            return f"#version {self.version}"
        return f"#version {self.version} {'compatibility' if self.compat else 'core'}"

    @property
    def modern(self) -> bool:             # in/out, flat, ints as varyings
        return self.version >= 130

    @property
    def gl_version(self) -> tuple[int, int]:
        return {110: (2, 0), 120: (2, 1), 130: (3, 0), 140: (3, 1), 150: (3, 2)}.get(
            self.version, (self.version // 100, self.version % 100 // 10))

    @property
    def token(self) -> str:
        return f"glsl{self.version}{'compat' if self.compat else 'core'}"


# -- a case's plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    dialect: Dialect
    chain: str                               # vs-fs, vs-gs-fs, vs-tes-fs, vs-tcs-tes-fs, vs-tcs-tes-gs-fs
    builtins: tuple[str, ...] = ()           # keys of BUILTINS
    controls: tuple[str, ...] = ()
    users: tuple[Varying, ...] = ()
    face: str = "front"                      # front, back (one-sided), two-side-front, two-side-back
    clip_vertex: bool = False
    separable: bool = False
    reverse_consumer: bool = False           # the FS declares its inputs in the opposite order
    fs_users: tuple[str, ...] | None = None  # separable: the FS reads only these (by name)
    limit: tuple[int, str] | None = None     # (GL_MAX_VARYING_COMPONENTS, "at" | "over"): limit cases
    tag: str = ""                            # names what the user varyings are, in the id


def components(plan: Plan) -> int:
    """What the FS receives, counted as the GL spec counts varying components: every legacy
    builtin the FS reads takes a vec4 slot."""
    return 4 * len(plan.builtins) + sum(v.components for v in plan.users)
