"""Runs a Case through Vulkan with the layer's translations, reading back what the GL runner does.

The backend (VKBackend) holds the device, the objects every case shares (resources.Shared) and the
pipeline cache (pipelines.py); a case's run (_CaseRun) makes its resources (resources.py), carries
GL state from step to step, and records each draw (recording.py) and reads back what it observed.
The vertex input (bindings and attributes) is, as zink's on the device, either recorded per draw
(vkCmdSetVertexInputEXT) or baked into the pipeline (paths.py); the patch size likewise. Image rows
are put back into GL's bottom-up order.
"""
from __future__ import annotations

import dataclasses
import traceback
from dataclasses import replace
from typing import Any, Mapping

import numpy as np
import vulkan as vk

from harness.backends import BackendError, DeviceLost, Skip, check_requirements, readback_bytes
from harness.backends.vk import assembly, paths, recording
from harness.backends.vk.device import Buffer, Device
from harness.backends.vk.pipelines import PipelineSpec, Pipelines, check_topology, provoking_mode, raster_of
from harness.backends.vk.resources import CaseResources, Shared
from harness.base.config import VkPatchPath, VkPath, VkPointSize, VkVertexInput
from harness.base.errors import LayerFault
from harness.backends.vk.quads_gs import quads_gs
from harness.backends.vk.tcs import passthrough_tcs
from harness.backends.vk.program import check_translations
from harness.backends.vk.translate import Program, locations_used, translate
from harness.model import glfacts
from harness.model.facts import Facts, Profile
from harness.model.case import (CallList, Case, Clear, DeleteList, Dispatch, Draw, Link, NewList, Read, SetState,
                                Step as CaseStep, step_label, step_state)
from harness.model.observation import XFB_VERTICES, Observation, Step, record_dtype

# GL_ARB_shader_draw_parameters and GL_ARB_base_instance only where the device has
# shaderDrawParameters, as zink (zink_screen.c: start_instance = draw_parameters =
# shaderDrawParameters || VK_KHR_shader_draw_parameters); the builtins below need its SPIR-V
# capability (gl_InstanceID is translated to gl_InstanceIndex - gl_BaseInstance).
DRAW_PARAMETERS = ("gl_BaseVertex", "gl_BaseInstance", "gl_DrawID", "gl_InstanceID")
GL_EXTENSIONS = ("GL_ARB_draw_indirect",
                 "GL_ARB_multi_draw_indirect", "GL_ARB_enhanced_layouts", "GL_ARB_separate_shader_objects",
                 "GL_ARB_compatibility", "GL_ARB_tessellation_shader")


def uses_draw_parameters(case: Case) -> bool:
    """Whether a stage names a builtin the layer reads through SPIR-V's DrawParameters capability."""
    return any(name in source for shaders in (case.shaders,) + case.programs for _, source in shaders
               for name in DRAW_PARAMETERS)


class VKBackend:
    def __init__(self, without: frozenset[str] = frozenset(), validation: bool = False, path: str = "auto",
                 patch_path: str = "auto", vertex_input: str = "auto", point_size: str = "auto",
                 list_restart: str = "auto", restart_index: str = "auto", index_uint8: str = "auto"):
        self.without = check_translations(without)
        self.dev = Device(validation)
        # A path the device cannot take is bad input (paths.PathError, a UsageError), not the driver's failure.
        self.path = paths.choose(path, self.dev.has("multi_draw"), self.dev.has("shader_draw_parameters"))
        self.patch_path = paths.choose_patch_size(patch_path, self.dev.has("patch_control_points_dynamic"))
        self.vertex_input = paths.choose_vertex_input(vertex_input, self.dev.has("vertex_input_dynamic"),
                                                      self.dev.has("extended_dynamic_state2"))
        self.point_size = paths.choose_point_size(point_size, self.dev.has("maintenance5"))
        self.assembly = (paths.choose_list_restart(list_restart, self.dev.has("list_restart")),
                         paths.choose_restart_index(restart_index, self.dev.has("restart_index")),
                         paths.choose_index_uint8(index_uint8, self.dev.has("uint8_indices")))
        self.shared = Shared(self.dev.device)
        # Shader modules and pipelines, kept across cases and trimmed between them.
        self.pipelines = Pipelines(self.dev.device, self.shared.layout)
        self.facts = self._facts()

    # -- what this "GL" offers -------------------------------------------------------------

    @classmethod
    def from_options(cls, options: Any) -> "VKBackend":
        chosen = options.vk_paths
        return cls(frozenset(options.vk_without), options.vk_validation, chosen.multi_draw, chosen.patch_size,
                   chosen.vertex_input, chosen.point_size, chosen.list_restart, chosen.restart_index, chosen.index_uint8)

    @property
    def assembly_paths(self) -> assembly.Paths:
        list_restart, restart_index, uint8 = self.assembly
        return assembly.Paths(list_restart.path, restart_index.path, uint8.path, self.without)

    def _facts(self) -> Profile:
        d, lim = self.dev, self.dev.limits
        p = d.properties
        api = f"{p.apiVersion >> 22}.{(p.apiVersion >> 12) & 0x3FF}"
        extensions = list(GL_EXTENSIONS)
        if d.has("draw_indirect_count"):
            extensions.append("GL_ARB_indirect_parameters")
        if d.has("fp64"):
            extensions.append("GL_ARB_gpu_shader_fp64")
        if d.has("shader_draw_parameters"):
            extensions += ["GL_ARB_shader_draw_parameters", "GL_ARB_base_instance"]
        # Vulkan counts the gl_PerVertex block (position, point size, clip and cull distance)
        # against the stages' limits; GL does not count builtins, so keep room for them.
        per_vertex = 8
        varying = min(lim.maxVertexOutputComponents - per_vertex, lim.maxFragmentInputComponents)
        limits = {
            "GL_MAX_VARYING_COMPONENTS": varying, "GL_MAX_VERTEX_OUTPUT_COMPONENTS": lim.maxVertexOutputComponents,
            "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS": lim.maxTessellationControlPerVertexInputComponents - per_vertex,
            "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS": lim.maxTessellationControlPerVertexOutputComponents - per_vertex,
            "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS": lim.maxTessellationEvaluationInputComponents - per_vertex,
            "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS": lim.maxTessellationEvaluationOutputComponents,
            "GL_MAX_GEOMETRY_INPUT_COMPONENTS": lim.maxGeometryInputComponents - per_vertex,
            "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS": lim.maxGeometryOutputComponents,
            "GL_MAX_FRAGMENT_INPUT_COMPONENTS": lim.maxFragmentInputComponents,
            "GL_MAX_PATCH_VERTICES": lim.maxTessellationPatchSize,
            "GL_MAX_TESS_GEN_LEVEL": lim.maxTessellationGenerationLevel,
            "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS": 64,
            "GL_MAX_CLIP_DISTANCES": lim.maxClipDistances, "GL_MAX_VERTEX_ATTRIBS": lim.maxVertexInputAttributes,
            "GL_MAX_TEXTURE_COORDS": 8, "GL_MAX_GEOMETRY_OUTPUT_VERTICES": lim.maxGeometryOutputVertices,
            "GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION": assembly.QUADS_FOLLOW,
        }
        return Profile(renderer=f"harness Vulkan layer on {p.deviceName} (Vulkan {api})",
                       vendor="gl-layer-harness", version=f"4.6 (harness Vulkan layer, Vulkan {api})",
                       driver_info=d.driver_info,
                       version_number=(4, 6), glsl_version="4.60", limits=limits,
                       extensions=tuple(sorted(extensions)))

    def info(self) -> Facts:
        facts = replace(self.facts, extensions=None)
        without = ", ".join(sorted(self.without)) or "none"
        return Facts(renderer=facts.renderer, vendor=facts.vendor, version=facts.version,
                     driver_info=facts.driver_info,
                     vk_paths={"vk_path": self.path.path, "vk_patch_path": self.patch_path.path,
                               "vk_vertex_input": self.vertex_input.path, "vk_point_size": self.point_size.path,
                               **{f"vk_{c.area.replace('-', '_')}": c.path for c in self.assembly}},
                     platform=f"Vulkan, {self.path.describe()}, {self.patch_path.describe()}, "
                              f"{self.vertex_input.describe()}, {self.point_size.describe()}, "
                              f"{', '.join(c.describe() for c in self.assembly)}, "
                              f"translations switched off: {without}",
                     profiles={"core": facts, "compat": facts})

    # -- running a case -----------------------------------------------------------------------
    def run(self, case: Case) -> Observation:
        check_requirements(case, self.facts)
        self._check_features(case)
        self.dev.validation_messages.clear()
        self.pipelines.trim()
        when = "before the first step"
        try:
            run = _CaseRun(self, case)
            try:
                observation = Observation()
                for n, step in enumerate(case.steps):
                    when = f"during step {n}: {step_label(case.steps, n)}"
                    observation.steps.append(run.step(step))
                when = "after the last step"
            except vk.VkErrorDeviceLost:
                raise
            except vk.VkError as exc:
                raise BackendError(f"Vulkan error {type(exc).__name__} while running the case") from None
            finally:
                run.destroy()               # waits for the device: on a lost one, reports it again
        except vk.VkErrorDeviceLost as exc:     # the driver's failure, wherever the device reports it
            raise DeviceLost(f"Vulkan device lost (VK_ERROR_DEVICE_LOST) in {_failed_call(exc)} {when}") from None
        if self.dev.validation_messages:
            raise LayerFault("Vulkan validation error(s) in its own calls:\n" + "\n".join(self.dev.validation_messages[:5]))
        return observation

    def _check_features(self, case: Case) -> None:
        if case.readback.atomic_counters:
            raise Skip("the Vulkan backend does not support atomic counters")
        if case.readback.gl_error:
            raise Skip("the Vulkan backend does not make GL's error checks, so it cannot report a GL error")
        if any(d.command == glfacts.BEGIN_END for d in case.draws()):
            raise Skip("the Vulkan backend has no glBegin/glEnd")
        if case.readback.statistics:
            raise Skip("the Vulkan backend reads no submission queries (GL_VERTICES_SUBMITTED, "
                       "GL_PRIMITIVES_SUBMITTED)")
        if any(isinstance(s, (NewList, CallList, DeleteList)) for s in case.steps):
            raise Skip("display lists (glNewList/glCallList) are not supported by the Vulkan backend")
        states = [step_state(s) for s in case.steps]
        if any(u.stage or u.name[:1].isdigit() for state in states for u in state.uniforms):
            raise Skip("uniforms set by location or on a separable program through glActiveShaderProgram "
                       "are not supported by the Vulkan backend")
        if any("vs" not in dict(shaders) for shaders in (case.shaders,) + case.programs):
            raise Skip("the Vulkan backend has no fixed-function vertex stage (a program without a vertex shader)")
        if any(a.array for a in case.attributes):
            arrays = sorted({a.array for a in case.attributes if a.array})
            raise Skip(f"the Vulkan backend has no fixed-function vertex arrays ({', '.join(arrays)})")
        if any(a.divisor > 1 for a in case.attributes):
            raise Skip("the Vulkan backend supports attribute divisors 0 and 1 only")
        if any(t.target != "2D" for state in states for t in state.textures):
            raise Skip("the Vulkan backend makes no 1D or 3D textures")
        needs = []
        stages = dict(case.shaders)
        reads = [s for s in case.steps if isinstance(s, Read)]
        if "cs" in stages or any(isinstance(s, Dispatch) for s in case.steps) or any(r.storage for r in reads) \
                or any(state.storage_buffers for state in states):
            raise Skip("the Vulkan backend runs no compute shaders or shader storage buffers")
        if any(r.queries for r in reads):
            raise Skip("the Vulkan backend has no GL program introspection (active uniform, "
                       "program_interface_query)")
        if case.readback.captures:
            needs.append("transform_feedback")
        if "tes" in stages:
            needs.append("tessellation")
        if uses_draw_parameters(case):
            needs.append("shader_draw_parameters")        # the SPIR-V DrawParameters capability
        if "gs" in stages:
            needs.append("geometry")
        draws = case.draws()
        needs += assembly.needs(case, self.assembly_paths)
        if any(d.command.endswith("IndirectCount") for d in draws):
            needs.append("draw_indirect_count")
        if any(d.command.startswith("Multi") and "Indirect" in d.command for d in draws):
            needs.append("multi_draw_indirect")
        missing = [n for n in needs if not self.dev.has(n)]
        if missing:
            raise Skip(f"the Vulkan device lacks {', '.join(missing)}")


class _CaseRun:
    """One case: its programs translated, its resources, the GL state carried from step to step
    (patch parameters, uniform values), and its steps in order."""

    def __init__(self, backend: VKBackend, case: Case):
        self.b, self.case, self.dev = backend, case, backend.dev
        # Every program of the case, translated up front (GL links them all before the first
        # draw); deleting one in GL leaves the others, and their pipelines, untouched.
        self.programs = [Program(dict(shaders), backend.without,
                                 captures=tuple((c.varying, c.type) for c in case.readback.captures),
                                 attributes={a.name: a.location for a in case.attributes if a.name},
                                 separable=case.separable, fixed_function_fs=bool(case.readback.image),
                                 native_draw_id=backend.path.path is VkPath.NATIVE,
                                 point_size_written=backend.point_size.path is VkPointSize.WRITTEN)
                         for shaders in (case.shaders,) + case.programs]
        self.translated = [translate(program) for program in self.programs]
        for program in self.programs:
            self._check_link(program, backend.facts.limits)
        self.patch_vertices, self.outer, self.inner = 3, (1.0,) * 4, (1.0, 1.0)
        self.uniform_values: dict[str, tuple[str, Any]] = {}            # glUniform* values set so far
        self.res = CaseResources(self.dev, backend.shared, case)
        if self.res.keep:
            self.dev.one_shot(lambda cmd: recording.clear(cmd, self.res.image, (0.0, 0.0, 0.0, 0.0), first=True))

    def _check_link(self, program: Program, limits: Mapping[str, int]) -> None:
        """The GL link-time limit: varyings (the layer's legacy slots included) must fit."""
        used = 4 * locations_used(program)
        if used > limits["GL_MAX_VARYING_COMPONENTS"]:
            why = f"{used} varying components, GL_MAX_VARYING_COMPONENTS is {limits['GL_MAX_VARYING_COMPONENTS']}"
            if self.case.requires.link_failure_allowed:
                raise Skip(f"{self.case.requires.link_failure_allowed}; the program did not link: {why}")
            raise BackendError(f"program failed to link: {why}")

    def destroy(self) -> None:
        self.res.destroy()

    def _set_state(self, state: Any) -> None:
        """The state a step sets that outlives it: patch parameters and uniform values."""
        self.patch_vertices = state.patch_vertices or self.patch_vertices
        self.outer = state.default_outer or self.outer
        self.inner = state.default_inner or self.inner
        for uniform in state.uniforms:
            self.uniform_values[uniform.name] = (uniform.type, uniform.values)

    # -- pipelines ---------------------------------------------------------------------------
    def _dynamic_vertex_input(self) -> bool:
        return self.b.vertex_input.path is VkVertexInput.DYNAMIC

    def _dynamic_patch(self, draw: Draw) -> bool:
        """The draw's patch size is dynamic state (the patch-size path `dynamic`, a program with a TES)."""
        return self.b.patch_path.path is VkPatchPath.DYNAMIC and "tes" in self.translated[draw.program]

    def _assembly(self, draw: Draw) -> tuple[str, assembly.Assembly]:
        """The draw's provoking-vertex mode and its assembly (assembly.py)."""
        stages = self.translated[draw.program]
        # GL's provoking-vertex convention as pipeline state (VK_EXT_provoking_vertex), as zink
        # sets it; each draw is a render pass of its own, so provokingVertexModePerPipeline
        # does not matter. Switched off (`provoking-vertex`): Vulkan's first-vertex convention.
        provoking = provoking_mode(draw.state, paths.provokes(stages, draw.mode),
                                   self.dev.has("provoking_vertex_last"),
                                   faithful="provoking-vertex" not in self.b.without)
        outline = draw.state.polygon_mode == "LINE" and draw.state.polygon_mode_back in ("", "LINE")
        index_type = self.case.index_type_of(draw)
        if draw.restart_fixed:          # GL_PRIMITIVE_RESTART_FIXED_INDEX: the maximum of the draw's type
            draw = dataclasses.replace(draw, restart_index=draw.restart(index_type), restart_fixed=False)
        return provoking, assembly.plan(draw, self.case.elements(index_type), index_type, self.b.assembly_paths,
                                        first=provoking != "LAST", outline=outline)

    def _pipeline(self, draw: Draw, provoking: str, asm: assembly.Assembly) -> Any:
        """The draw's pipeline: its program's translated stages (a TES without a TCS gets the
        layer's passthrough TCS, GL_QUADS and a polygon's outline the layer's GS), its topology,
        and the state the pipeline bakes."""
        stages = dict(self.translated[draw.program])
        if "tes" in stages and "tcs" not in stages:
            stages["tcs"] = passthrough_tcs(stages["vs"], self.patch_vertices,
                                            faithful="passthrough-tcs" not in self.b.without)
        primitive = paths.primitive_of(stages, draw.mode)       # GL's primitives, before the layer's GS
        if asm.gs:
            stages["gs"] = quads_gs(stages["vs"], asm.gs, asm.provoking)
        check_topology(asm.topology)
        raster = raster_of(draw.state, bool(self.dev.features.features.fillModeNonSolid), provoking,
                           primitive, discard=bool(self.case.readback.captures))
        # The patch-size path (paths.py): dynamic, the size is recorded per draw and a program with a
        # TCS has one pipeline for every size (a TCS-less one differs in its injected TCS anyway).
        # The vertex-input path: dynamic, one pipeline for every vertex layout (recorded per draw).
        spec = PipelineSpec(tuple(sorted(stages.items())), asm.topology, asm.restart,
                            None if self._dynamic_patch(draw) else self.patch_vertices,
                            None if self._dynamic_vertex_input() else self.res.vertex_layout,
                            bool(self.case.readback.captures), self.res.format, raster, order=tuple(stages))
        return self.b.pipelines.get(spec, self.res.render_pass)

    # -- one step ------------------------------------------------------------------------------
    def step(self, step: CaseStep) -> Step:
        """Run one step (the list, compute and query steps were refused by _check_features)."""
        if isinstance(step, Link):                      # no GL link-time checks here: no link_failed
            return Step()
        if isinstance(step, Clear):
            self.dev.one_shot(lambda cmd: recording.clear(cmd, self.res.image, step.color))
            return Step()
        if isinstance(step, SetState):
            recording.enables(step.state)               # refuses what it cannot set
            self._set_state(step.state)
            return Step()
        if isinstance(step, Read) and not step.image:   # the rest of a Read was refused
            return Step()
        if isinstance(step, Read):
            copy = self.res.image_copy()

            def record(cmd: Any) -> None:
                recording.full_barrier(cmd)
                recording.copy_image(cmd, self.res.image, self.res.keep, copy, (self.res.width, self.res.height))
            self.dev.one_shot(record)
            return Step(image=self.res.image_bytes(copy))
        assert isinstance(step, Draw)
        return self.draw(step)

    def draw(self, draw: Draw) -> Step:
        """One GL draw: its pipeline and inputs, recorded and submitted, then its counts,
        transform-feedback records and image read back."""
        readback, res = self.case.readback, self.res
        self._set_state(draw.state)
        flags = recording.enables(draw.state)
        provoking, asm = self._assembly(draw)
        pipeline = self._pipeline(draw, provoking, asm)
        uniform_set = res.uniform_set(self.programs[draw.program].uniforms, self.uniform_values, draw)
        stride = record_dtype(readback.captures).itemsize
        xfb = res.buffer(stride * readback.max_records, vk.VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT) \
            if readback.captures else None
        copy = res.image_copy() if readback.image and not res.keep else None
        queries = None
        if xfb is not None or self.dev.has("primitives_generated"):
            # xfb: the stream query gives primitives written and needed (generated); without
            # xfb, VK_EXT_primitives_generated_query gives GL's GL_PRIMITIVES_GENERATED.
            queries = res.query_pool(vk.VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT if xfb is not None
                                     else vk.VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT)
        calls = recording.calls(asm.draw, self.b.path.path is VkPath.NATIVE, res.buffer, self.dev.ext)
        self.dev.one_shot(lambda cmd: recording.record_draw(cmd, recording.DrawPass(
            res.render_pass, res.framebuffer, (res.width, res.height), readback.clear, res.keep, pipeline,
            self.b.shared.layout, self.dev.ext, calls, flags, (self.outer, self.inner),
            patch_vertices=self.patch_vertices if self._dynamic_patch(draw) else None,
            vertex_input=res.vertex_layout if self._dynamic_vertex_input() else None,
            uniform_set=uniform_set, vertex_buffers=[b.handle for b in res.attributes],
            indices=self._indices(asm), restart_index=asm.restart_index,
            queries=queries, xfb=xfb, image=res.image, copy=copy)))
        return self._observed(queries, xfb, stride, copy)

    def _indices(self, asm: assembly.Assembly) -> tuple[Any, str] | None:
        """The index buffer the draw binds and the type Vulkan reads it as: the case's, or the
        assembly's own; read as a wider type (the `index-uint8` hazard), padded with zeros so that
        no read passes its end."""
        if asm.indices is None and asm.bind_as == asm.index_type:
            return None if self.res.indices is None else (self.res.indices.handle, asm.index_type)
        values = self.case.elements(asm.index_type) if asm.indices is None else asm.indices
        data = np.asarray(values, dtype=glfacts.INDEX_TYPES[asm.index_type].dtype).tobytes()
        data += bytes(len(values) * glfacts.INDEX_TYPES[asm.bind_as].size - len(data))
        return self.res.buffer(len(data), vk.VK_BUFFER_USAGE_INDEX_BUFFER_BIT, data).handle, asm.bind_as

    def _observed(self, queries: Any, xfb: Buffer | None, stride: int, copy: Buffer | None) -> Step:
        observed = Step()
        if queries is not None:
            generated, written = recording.query_counts(self.dev.device, queries, xfb is not None)
            observed.counts = {"primitives_generated": generated}
            if xfb is not None:
                vertices = written * XFB_VERTICES[self.case.readback.xfb_primitive]
                observed.counts |= {"xfb_primitives_written": written, "xfb_vertices": vertices}
                observed.xfb = xfb.read(readback_bytes(vertices, stride, xfb.size))
        if copy is not None:
            observed.image = self.res.image_bytes(copy)
        return observed


def _failed_call(exc: BaseException) -> str:
    """The Vulkan call that reported a lost device: the innermost vk* frame of the first report
    (the clean-up's vkDeviceWaitIdle reports it again, with the first as its context)."""
    while isinstance(exc.__context__, vk.VkErrorDeviceLost):
        exc = exc.__context__
    calls = [frame.name for frame in traceback.extract_tb(exc.__traceback__) if frame.name.startswith("vk")]
    return calls[-1] if calls else "a Vulkan call"
