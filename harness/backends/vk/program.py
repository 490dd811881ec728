"""What the layer knows of one GL program as it translates it (translate.py): its stages'
sources and models (harness/glsl), the switches that shape the translation, and the varying
locations that locations.py assigns; the constants every part of the layer agrees on."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.base.errors import LayerFault, UsageError
from harness.glsl.model import Declaration, ParseError, Shader, parse
from harness.glsl.preprocess import PreprocessError, preprocess
from harness.glsl.tokens import tokenize
from harness.model.glfacts import STAGE_KEYS

# The switchable translations (`--vk-without`); `provoking-vertex` is pipeline state
# (pipelines.provoking_mode), not a rewrite of the GLSL.
TRANSLATIONS = ("passthrough-tcs", "base-vertex", "draw-id", "slot-map", "provoking-vertex")
# The wrong paths the layer can plant in primitive assembly (assembly.py)
ASSEMBLY_HAZARDS = ("list-restart", "restart-index", "index-uint8", "quads-provoking", "polygon-provoking")


class UnknownTranslation(UsageError, ValueError):
    """A `--vk-without` name that is no translation: one line for the user."""


def check_translations(names: Any) -> frozenset[str]:
    """The names as a set; UnknownTranslation names the unknown ones and the known."""
    known = TRANSLATIONS + ASSEMBLY_HAZARDS
    unknown = set(names) - set(known)
    if unknown:
        raise UnknownTranslation(f"--vk-without: unknown translation(s) {', '.join(sorted(unknown))}; "
                                 f"known: {', '.join(known)}")
    return frozenset(names)

CLIP_PLANES = 4

# The push constants every translated stage declares (std430: 112 bytes, planes at offset 48).
LAYER_BLOCK = (f"layout(push_constant) uniform Layer {{ vec4 outer; vec2 inner; int indexed; int draw_id;"
               f" int two_side; int clip_enabled; vec4 planes[{CLIP_PLANES}]; }} _layer;")

# Legacy builtins that need a location; fixed order, so every stage agrees on it.
TEXCOORDS = 8                                   # gl_MaxTextureCoords
LEGACY = ("FrontColor", "FrontSecondaryColor", "BackColor", "BackSecondaryColor", "FogFragCoord",
          *(f"TexCoord{i}" for i in range(TEXCOORDS)), "ClipVertex")
LEGACY_TYPE = {"FogFragCoord": "float"}
COLOURS = ("FrontColor", "FrontSecondaryColor", "BackColor", "BackSecondaryColor")
# gl_PerVertex members that only the compatibility profile has: the layer's varyings instead.
COMPAT_MEMBERS = {f"gl_{n}" for n in COLOURS} | {"gl_TexCoord", "gl_FogFragCoord", "gl_ClipVertex"}
# FS inputs: the builtin the FS reads -> the legacy output it comes from.
FS_READS = {"gl_Color": "FrontColor", "gl_SecondaryColor": "FrontSecondaryColor", "gl_FogFragCoord": "FogFragCoord"}

STAGE_ORDER = STAGE_KEYS
ARRAYED_INPUTS = ("tcs", "tes", "gs")


class TranslationError(LayerFault):
    """GLSL the layer cannot take: the harness's fault, never the driver's (status `error`)."""

    def __init__(self, what: str):
        super().__init__(f"cannot translate the GLSL: {what}")


@dataclass
class Varying:
    """A user varying (one declarator) or block at one stage interface."""
    stage: str
    direction: str                 # in, out
    name: str                      # variable name, or block name for blocks
    decl: Declaration
    dims: tuple[str, ...] = ()     # the declarator's array sizes, outermost first

    @property
    def explicit_location(self) -> int | None:
        return self.decl.location


@dataclass
class Program:
    """What the translation of one program needs to know, and what it produced."""
    shaders: dict[str, str]
    without: frozenset[str]
    captures: tuple[tuple[str, str], ...] = ()          # (varying, glsl type) in capture order
    attributes: dict[str, int] = field(default_factory=dict)   # attribute name -> location
    separable: bool = False
    fixed_function_fs: bool = False     # no FS: GL's fixed-function fragment processing (a rendered image)
    native_draw_id: bool = False        # the native multi-draw path (paths.py): gl_DrawID is DrawIndex alone
    point_size_written: bool = True     # the point-size path (paths.py): False, `default`, no store injected
    # Locations per interface: interface i joins the i-th stage present to the next one.
    locations: dict[tuple[int, str], int] = field(default_factory=dict)
    legacy: dict[int, tuple[int, tuple[str, ...]]] = field(default_factory=dict)   # i -> (base, names)
    legacy_used: tuple[str, ...] = ()                     # in any stage
    texcoord_array: int = 0        # gl_TexCoord[] indexed by a variable somewhere: its size, else 0
    structs: dict[str, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    models: dict[str, Shader] = field(default_factory=dict)   # each stage, preprocessed and parsed
    # The uniform block (see uniforms.py): default-block uniforms, projection, clip planes.
    uniforms: dict[str, Any] = field(default_factory=dict)


# -- the model of each stage ------------------------------------------------------------------

# GL's fragment processing without an FS, as far as the harness's state goes: texturing, fog and
# the colour sum are off, so the fragment's colour is the rasterized primary colour.
FIXED_FUNCTION_FS = "#version 110\nvoid main()\n{\n    gl_FragColor = gl_Color;\n}\n"


def models(program: Program) -> dict[str, Shader]:
    if program.fixed_function_fs and "fs" not in program.shaders:
        program.shaders["fs"] = FIXED_FUNCTION_FS
    if not program.models:
        for stage, source in program.shaders.items():
            try:
                tokens = tokenize(source)
                text = preprocess(stage, source, tokens)
                program.models[stage] = parse(text, tokens if text is source else None)
            except (ParseError, PreprocessError) as e:
                raise TranslationError(f"{stage.upper()}: {e}") from None
    return program.models

