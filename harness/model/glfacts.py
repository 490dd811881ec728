"""GL facts the harness shares: shader stages, the draw commands and the arguments each takes,
element index types. Plain data from the OpenGL 4.6 spec (and the names other tools use for
the same things); no GL calls. The case model, the backends, export, the piglit importer and
the draw-parameters oracle all read them here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Stage:
    key: str                    # the case model's name
    shader_type: str            # glCreateShader's type
    pipeline_bit: str           # glUseProgramStages' bit
    vulkan_bit: str             # VkShaderStageFlagBits
    glslang: str                # glslangValidator's -S name and the usual file extension
    piglit_section: str         # shader_runner's section header


# In pipeline order.
STAGES: tuple[Stage, ...] = (
    Stage("vs", "GL_VERTEX_SHADER", "GL_VERTEX_SHADER_BIT", "VK_SHADER_STAGE_VERTEX_BIT",
          "vert", "vertex shader"),
    Stage("tcs", "GL_TESS_CONTROL_SHADER", "GL_TESS_CONTROL_SHADER_BIT",
          "VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT", "tesc", "tessellation control shader"),
    Stage("tes", "GL_TESS_EVALUATION_SHADER", "GL_TESS_EVALUATION_SHADER_BIT",
          "VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT", "tese", "tessellation evaluation shader"),
    Stage("gs", "GL_GEOMETRY_SHADER", "GL_GEOMETRY_SHADER_BIT", "VK_SHADER_STAGE_GEOMETRY_BIT",
          "geom", "geometry shader"),
    Stage("fs", "GL_FRAGMENT_SHADER", "GL_FRAGMENT_SHADER_BIT", "VK_SHADER_STAGE_FRAGMENT_BIT",
          "frag", "fragment shader"),
)
# Not in STAGES (a compute program has no other stage); a case may hold it alone.
COMPUTE = Stage("cs", "GL_COMPUTE_SHADER", "GL_COMPUTE_SHADER_BIT", "VK_SHADER_STAGE_COMPUTE_BIT",
                "comp", "compute shader")
STAGE = {stage.key: stage for stage in STAGES + (COMPUTE,)}
STAGE_KEYS: tuple[str, ...] = tuple(STAGE)
STAGE_BY_PIGLIT_SECTION = {stage.piglit_section: stage for stage in STAGES}


def last_vertex_stage(stages: Iterable[str]) -> str | None:
    """Of the stage keys given, the last before rasterization (GS, else TES, else TCS, else VS):
    the one transform feedback captures and whose primitives are rasterized; None if none."""
    present = set(stages)
    return next((key for key in ("gs", "tes", "tcs", "vs") if key in present), None)


# Drawing commands of section 10.4, in the order the spec introduces them (no "gl" prefix).
COMMANDS: tuple[str, ...] = (
    "DrawArrays", "DrawArraysInstanced", "DrawArraysInstancedBaseInstance",
    "DrawElements", "DrawRangeElements", "DrawElementsBaseVertex",
    "DrawRangeElementsBaseVertex", "DrawElementsInstanced",
    "DrawElementsInstancedBaseVertex", "DrawElementsInstancedBaseInstance",
    "DrawElementsInstancedBaseVertexBaseInstance",
    "MultiDrawArrays", "MultiDrawElements", "MultiDrawElementsBaseVertex",
    "DrawArraysIndirect", "DrawElementsIndirect",
    "MultiDrawArraysIndirect", "MultiDrawElementsIndirect",
    "MultiDrawArraysIndirectCount", "MultiDrawElementsIndirectCount",
)
# The compatibility profile's Begin/End (10.7.4): each vertex of the draw's range through
# ArrayElement between Begin and End. Apart from COMMANDS: it is no vertex-array drawing command.
BEGIN_END = "BeginEnd"
ARRAYS_COMMANDS: frozenset[str] = frozenset(c for c in COMMANDS if "Arrays" in c)
ELEMENTS_COMMANDS: frozenset[str] = frozenset(c for c in COMMANDS if "Elements" in c)
MULTI_COMMANDS: frozenset[str] = frozenset(c for c in COMMANDS if c.startswith("Multi"))
INDIRECT_COMMANDS: frozenset[str] = frozenset(c for c in COMMANDS if "Indirect" in c)
COUNT_COMMANDS: frozenset[str] = frozenset(c for c in COMMANDS if c.endswith("IndirectCount"))


def takes(command: str) -> frozenset[str]:
    """The case.DrawEntry fields `command` passes to GL (its signature, in the model's terms)."""
    if command not in COMMANDS:
        raise ValueError(f"unknown draw command {command!r} (see COMMANDS; no 'gl' prefix)")
    indirect = command in INDIRECT_COMMANDS
    fields = {"count", "first"}      # every command has count and first/firstIndex/offset
    # Instanced commands take instancecount; so do both indirect command structures.
    if "Instanced" in command or indirect:
        fields.add("instance_count")
    # BaseInstance commands take baseinstance; both indirect structures carry baseInstance.
    if "BaseInstance" in command or indirect:
        fields.add("base_instance")
    # Only element commands have basevertex: the BaseVertex ones and
    # DrawElementsIndirectCommand.baseVertex. Arrays commands never do.
    if command in ELEMENTS_COMMANDS and ("BaseVertex" in command or indirect):
        fields.add("base_vertex")
    return frozenset(fields)


@dataclass(frozen=True)
class IndexType:
    name: str                   # the GL type without "GL_"
    size: int                   # bytes per index
    dtype: str                  # numpy's little-endian type

    @property
    def fixed_restart(self) -> int:
        """PRIMITIVE_RESTART_FIXED_INDEX's index for this type: 2^N - 1 (GL 4.6, 10.3.6)."""
        return (1 << (8 * self.size)) - 1


INDEX_TYPES = {t.name: t for t in (IndexType("UNSIGNED_BYTE", 1, "<u1"), IndexType("UNSIGNED_SHORT", 2, "<u2"),
                                   IndexType("UNSIGNED_INT", 4, "<u4"))}


# The GL enums of GLSL types (what GL_UNIFORM_TYPE and GL_TYPE answer), by name: those piglit's
# shader_runner accepts as an expected value (its `all_types`).
GL_TYPE_ENUMS: dict[str, int] = {"GL_" + name: value for name, value in {
    "FLOAT": 0x1406, "FLOAT_VEC2": 0x8b50, "FLOAT_VEC3": 0x8b51, "FLOAT_VEC4": 0x8b52, "DOUBLE": 0x140a,
    "DOUBLE_VEC2": 0x8ffc, "DOUBLE_VEC3": 0x8ffd, "DOUBLE_VEC4": 0x8ffe, "INT": 0x1404, "INT_VEC2": 0x8b53,
    "INT_VEC3": 0x8b54, "INT_VEC4": 0x8b55, "UNSIGNED_INT": 0x1405, "UNSIGNED_INT_VEC2": 0x8dc6,
    "UNSIGNED_INT_VEC3": 0x8dc7, "UNSIGNED_INT_VEC4": 0x8dc8, "INT64_ARB": 0x140e,
    "INT64_VEC2_ARB": 0x8fe9, "INT64_VEC3_ARB": 0x8fea, "INT64_VEC4_ARB": 0x8feb,
    "UNSIGNED_INT64_ARB": 0x140f, "UNSIGNED_INT64_VEC2_ARB": 0x8ff5, "UNSIGNED_INT64_VEC3_ARB": 0x8ff6,
    "UNSIGNED_INT64_VEC4_ARB": 0x8ff7, "BOOL": 0x8b56, "BOOL_VEC2": 0x8b57, "BOOL_VEC3": 0x8b58,
    "BOOL_VEC4": 0x8b59, "FLOAT_MAT2": 0x8b5a, "FLOAT_MAT3": 0x8b5b, "FLOAT_MAT4": 0x8b5c,
    "FLOAT_MAT2x3": 0x8b65, "FLOAT_MAT2x4": 0x8b66, "FLOAT_MAT3x2": 0x8b67, "FLOAT_MAT3x4": 0x8b68,
    "FLOAT_MAT4x2": 0x8b69, "FLOAT_MAT4x3": 0x8b6a, "DOUBLE_MAT2": 0x8f46, "DOUBLE_MAT3": 0x8f47,
    "DOUBLE_MAT4": 0x8f48, "DOUBLE_MAT2x3": 0x8f49, "DOUBLE_MAT2x4": 0x8f4a, "DOUBLE_MAT3x2": 0x8f4b,
    "DOUBLE_MAT3x4": 0x8f4c, "DOUBLE_MAT4x2": 0x8f4d, "DOUBLE_MAT4x3": 0x8f4e, "SAMPLER_1D": 0x8b5d,
    "SAMPLER_2D": 0x8b5e, "SAMPLER_3D": 0x8b5f, "SAMPLER_CUBE": 0x8b60, "SAMPLER_1D_SHADOW": 0x8b61,
    "SAMPLER_2D_SHADOW": 0x8b62, "SAMPLER_1D_ARRAY": 0x8dc0, "SAMPLER_2D_ARRAY": 0x8dc1,
    "SAMPLER_1D_ARRAY_SHADOW": 0x8dc3, "SAMPLER_2D_ARRAY_SHADOW": 0x8dc4, "SAMPLER_2D_MULTISAMPLE": 0x9108,
    "SAMPLER_2D_MULTISAMPLE_ARRAY": 0x910b, "SAMPLER_CUBE_SHADOW": 0x8dc5, "SAMPLER_BUFFER": 0x8dc2,
    "SAMPLER_2D_RECT": 0x8b63, "SAMPLER_2D_RECT_SHADOW": 0x8b64, "INT_SAMPLER_1D": 0x8dc9,
    "INT_SAMPLER_2D": 0x8dca, "INT_SAMPLER_3D": 0x8dcb, "INT_SAMPLER_CUBE": 0x8dcc,
    "INT_SAMPLER_1D_ARRAY": 0x8dce, "INT_SAMPLER_2D_ARRAY": 0x8dcf, "INT_SAMPLER_2D_MULTISAMPLE": 0x9109,
    "INT_SAMPLER_2D_MULTISAMPLE_ARRAY": 0x910c, "INT_SAMPLER_BUFFER": 0x8dd0,
    "INT_SAMPLER_2D_RECT": 0x8dcd, "UNSIGNED_INT_SAMPLER_1D": 0x8dd1, "UNSIGNED_INT_SAMPLER_2D": 0x8dd2,
    "UNSIGNED_INT_SAMPLER_3D": 0x8dd3, "UNSIGNED_INT_SAMPLER_CUBE": 0x8dd4,
    "UNSIGNED_INT_SAMPLER_1D_ARRAY": 0x8dd6, "UNSIGNED_INT_SAMPLER_2D_ARRAY": 0x8dd7,
    "UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE": 0x910a, "UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY": 0x910d,
    "UNSIGNED_INT_SAMPLER_BUFFER": 0x8dd8, "UNSIGNED_INT_SAMPLER_2D_RECT": 0x8dd5,
    "UNSIGNED_INT_ATOMIC_COUNTER": 0x92db
}.items()}
