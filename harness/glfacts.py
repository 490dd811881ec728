"""GL facts the harness shares: shader stages, the draw commands and the arguments each takes,
element index types. Plain data from the OpenGL 4.6 spec (and the names other tools use for
the same things); no GL calls. The case model, the backends, export, the piglit importer and
the draw-parameters oracle all read them here.
"""
from __future__ import annotations

from dataclasses import dataclass


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
STAGE = {stage.key: stage for stage in STAGES}
STAGE_KEYS: tuple[str, ...] = tuple(STAGE)
STAGE_BY_PIGLIT_SECTION = {stage.piglit_section: stage for stage in STAGES}


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
