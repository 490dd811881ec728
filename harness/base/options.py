"""The run options, each declared once: its flag, the field it fills, its type, default, choices
and help. Every command takes the ones it needs by name, through one adapter for argparse
(`add_arguments`) and one for pytest (`add_options`), and hands their values to one resolver
(harness/executor/settings.py `resolve`), so that a new option is one entry here.

The options marked `setting` are the run's settings (SETTINGS): every command that runs cases
takes the whole group (a self-test builds each command's parser and checks), and `resolve` fills
the RunSettings field of each one's name, so that a new setting reaches every command by its
entry here and the field where its behaviour lives.

A command may give an option another default (`Use`), always with the reason, which its help
then shows, and say what the option means there where that differs (`Use(meaning=...)`, --jobs
of exploration); it may take one that is repeatable elsewhere as one required value (`Use(one=True)`),
or one that takes one value elsewhere as several (`Use(many=...)`).
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from harness.base import config

# The help's "(default ...)" of an option whose default a command has changed: "here: ".
HERE = "here: "


@dataclass(frozen=True)
class Option:
    flag: str
    help: str
    default: Any = None
    type: Callable[[str], Any] | None = None
    choices: tuple[str, ...] | None = None
    action: str | None = None           # "store_true", "append", "extend"
    nargs: str | None = None
    metavar: str | None = None
    hidden: bool = False                # the harness's own, not shown in --help
    setting: bool = False               # a run setting: in SETTINGS, which every command that runs cases takes

    @property
    def dest(self) -> str:
        """Its field: the flag's words joined by '_' (--vk-without: vk_without)."""
        return self.flag.lstrip("-").replace("-", "_")

    def keywords(self) -> dict[str, Any]:
        """argparse's keyword arguments (pytest's addoption takes the same)."""
        words: dict[str, Any] = {"help": argparse.SUPPRESS if self.hidden else self.help, "dest": self.dest}
        if self.action:
            words["action"] = self.action
        if self.action != "store_true":
            words["default"] = list(self.default) if isinstance(self.default, list) else self.default
            for name in ("type", "choices", "nargs", "metavar"):
                if getattr(self, name) is not None:
                    words[name] = getattr(self, name)
        return words


@dataclass(frozen=True)
class Use:
    """How one command takes an option, where it differs from the table."""
    default: Any = None                 # this command's default ...
    why: str = ""                       # ... and why it differs (a default of its own needs one)
    one: bool = False                   # one value, not a list; required unless `why` gives a default
    many: str = ""                      # repeatable here: what several values mean
    meaning: str = ""                   # the help where this command means another thing by the flag

    @property
    def required(self) -> bool:
        return self.one and not self.why

    def applied(self, option: Option) -> Option:
        if not (self.one or self.many or self.why):
            raise ValueError(f"{option.flag}: a command's own default needs its reason")
        if self.meaning:
            option = replace(option, help=self.meaning)
        if self.one:
            option = replace(option, action=None, default=None, nargs=None)
        if self.many:
            option = replace(option, action="append", default=[], nargs=None, help=f"{option.help} ({self.many})")
        if self.why:
            option = replace(option, default=self.default, help=f"{option.help} ({HERE}{self.why})")
        return option


def _paths_help(what: str, paths: str, split: str) -> str:
    return (f"Vulkan backend: {what}: {paths} or auto (zink's choice by the device's features; default). "
            f"The lavapipe-split target is always {split}")


OPTIONS: dict[str, Option] = {o.dest: o for o in (
    Option("--target", "target to run on (repeatable, or T1,T2); default: $HARNESS_TARGETS or every available "
           "local default target", default=[], action="append", metavar="NAME"),
    Option("--mesa", "the Mesa build every Mesa target (llvmpipe, zink, lavapipe, zink-system) loads: an install "
           "prefix or a meson build directory; default $HARNESS_MESA, else the system's", metavar="PATH", setting=True),
    Option("--case-timeout", "wall time after which a case without a result is a hang: 'timeout', its child "
           f"killed and replaced (default {config.CASE_TIMEOUT:g}; the CPU rules come first)",
           default=config.CASE_TIMEOUT, type=float, metavar="SECONDS", setting=True),
    Option("--case-cpu", "CPU seconds a case's child may spend without a result before the case is a hang "
           f"(default {config.CASE_CPU:g}; cases with long cold compiles declare more)",
           default=config.CASE_CPU, type=float, metavar="SECONDS", setting=True),
    Option("--gl-platform", "how GL contexts are made: headless EGL (default) or a hidden GLFW window",
           default=config.GlPlatform.EGL.value, choices=tuple(config.GlPlatform), setting=True),
    Option("--results-dir", "where junit.xml, results.json, results.csv and failures.csv go (default: results)",
           default="results", metavar="DIR"),
    Option("--vk-without", "Vulkan backend: translations to switch off, to show the cases catch the hazard "
           "(passthrough-tcs, base-vertex, draw-id, slot-map, provoking-vertex, list-restart, restart-index, "
           "index-uint8, quads-provoking, polygon-provoking)", default="", metavar="T1,T2", setting=True),
    Option("--vk-path", _paths_help("how direct multi-draws are issued", "native (VK_EXT_multi_draw, "
                                    "DrawIndex), split (single draws, gl_DrawID pushed)", "split"),
           default=config.VkPath.AUTO.value, choices=tuple(config.VkPath), setting=True),
    Option("--vk-patch-path", _paths_help("how a tessellation draw's patch size reaches the driver",
                                          "dynamic (vkCmdSetPatchControlPointsEXT), static (in the pipeline)",
                                          "static"),
           default=config.VkPatchPath.AUTO.value, choices=tuple(config.VkPatchPath), setting=True),
    Option("--vk-vertex-input", _paths_help("how the vertex bindings and attributes reach the driver",
                                            "dynamic (vkCmdSetVertexInputEXT per draw), static (in the pipeline)",
                                            "static"),
           default=config.VkVertexInput.AUTO.value, choices=tuple(config.VkVertexInput), setting=True),
    Option("--vk-point-size", _paths_help("GL's point size where no shader writes gl_PointSize",
                                          "default (no PointSize store, the driver's 1.0 under VK_KHR_maintenance5),"
                                          " written (gl_PointSize = 1.0 in the last vertex stage)", "written"),
           default=config.VkPointSize.AUTO.value, choices=tuple(config.VkPointSize), setting=True),
    Option("--vk-list-restart", _paths_help("restart in a list topology", "native (VK_EXT_primitive_topology_"
                                            "list_restart), split (the runs' whole primitives joined without "
                                            "restart indices)", "split"),
           default=config.VkListRestart.AUTO.value, choices=tuple(config.VkListRestart), setting=True),
    Option("--vk-restart-index", _paths_help("a restart index other than the type's maximum", "native "
                                             "(VK_EXT_primitive_restart_index), rewrite (the index rewritten to the "
                                             "maximum of a type that holds it)", "rewrite"),
           default=config.VkRestartIndex.AUTO.value, choices=tuple(config.VkRestartIndex), setting=True),
    Option("--vk-index-uint8", _paths_help("8-bit indices", "native (VK_EXT_index_type_uint8), widen (rewritten "
                                           "to 16 bits)", "widen"),
           default=config.VkIndexUint8.AUTO.value, choices=tuple(config.VkIndexUint8), setting=True),
    Option("--vk-validation", "Vulkan backend: run under the Khronos validation layer; a validation error fails "
           "the case", action="store_true", setting=True),
    Option("--baseline", "expected failures, 'case-id[target],Fail|Crash|Timeout' lines, or a run's results.csv "
           "(repeatable; a case listed twice is an error). Default auto: the Mesa under test's own "
           "baselines/mesa-<version>.csv and -flakes.txt, found by its Debian version (harness/run/gating.py); "
           "none: ungated", default=[], action="append", metavar="auto|none|FILE"),
    Option("--flakes", "'REGEX STATUS[,STATUS]  # rate' lines: known flaky cases; a failure of one with a listed "
           "status (fail, crash, timeout) is reported as flake (repeatable)",
           default=[], action="append", metavar="FILE"),
    Option("--flake-retries", "re-run a failing case up to N times; if a re-run passes it is a flake (default 0)",
           default=0, type=int, metavar="N"),
    Option("--skips", "regex lines: matching '<case id>[<target>]' are skipped (repeatable)",
           default=[], action="append", metavar="FILE"),
    Option("--junit-limit", "write at most N failures to junit.xml, and one testcase saying how many more "
           "(every one is in failures.csv and results.csv)", type=int, metavar="N"),
    Option("--junit-link", "a link added to each JUnit failure: {id}, {target}, {name} (id[target]) and {stem} "
           "(the failure's repro/ folder name) are substituted, e.g. "
           "'https://ci.example/artifacts/results/repro/{stem}/'", default="", metavar="TEMPLATE"),
    Option("--jobs", "cases in flight: N pytest processes with an executor child each, their results merged "
           "(auto: one per two cores, two from 2 cores on; -n N and -n auto mean the same). Without it, or "
           "with -n 0: this pytest process, with one executor child per core up to 4 (-n 0 --jobs N: N). "
           "harness/scheduler/layout.py", metavar="N|auto"),
    Option("--in-process", "the scheduler's processes: run here, with the layout's children",
           action="store_true", hidden=True),
    Option("--no-spawner", "start each executor child as a new Python process instead of forking it from a "
           "spawner that has imported the child's modules once (harness/executor/spawner.py)",
           action="store_true", setting=True),
    Option("--batch", "run up to K cases one after another in one context (GL targets), each failure confirmed "
           "alone and a seeded share of passes audited alone; a disagreement is order-dependent "
           "(harness/executor/batch.py). Default: a context per case", default=0, type=int, metavar="K", setting=True),
    Option("--audit", f"with --batch: the share of batched passes re-run alone to audit the batches (default "
           f"{config.AUDIT:g}; 1: every pass, so that any leak that makes a case pass is seen; docs/batch.md)",
           default=config.AUDIT, type=float, metavar="FRACTION"),
    Option("--shuffle", "run the cases in a random order drawn from SEED (state-leak hunting)",
           type=int, metavar="SEED"),
    Option("--resume", "run only the cases without a verdict in DIR/results.json (an interrupted run) and "
           "merge the two into --results-dir", metavar="DIR"),
    Option("--case", "run only this case (repeatable): a case id, or '<case id>[<target>]' for one target",
           default=[], action="append", metavar="ID"),
    Option("--shard", "run only every N-th case starting at the K-th (1-based), for CI sharding; default: "
           "$CI_NODE_INDEX/$CI_NODE_TOTAL where the CI sets them (GitLab's parallel:)", default="", metavar="K/N"),
    Option("--shader-tests", "piglit .shader_test files, or folders searched for them: a run also runs them as "
           "cases (without test paths, only these); the other commands look a shader_test/ id's file up in "
           "them first, then in $HARNESS_SHADER_TESTS, then in this checkout's tests/",
           default=[], action="extend", nargs="+", metavar="DIR_OR_FILE"),
)}


# The run settings, in the table's order: what every command that runs cases takes.
SETTINGS: tuple[str, ...] = tuple(name for name, option in OPTIONS.items() if option.setting)


def but(names: Sequence[str], **why: str) -> tuple[str, ...]:
    """`names` less the ones a command deliberately does not take, each with its reason."""
    unknown = sorted(set(why) - set(names))
    if unknown or not all(why.values()):
        raise ValueError(f"left out without a reason, or not there: {', '.join(unknown) or ', '.join(why)}")
    return tuple(name for name in names if name not in why)


def chosen(names: Iterable[str], uses: Mapping[str, Use] | None = None) -> list[Option]:
    """The table's options of these names (fields), as this command takes them."""
    uses = uses or {}
    unknown = sorted(set(uses) - set(names)) + [name for name in names if name not in OPTIONS]
    if unknown:
        raise KeyError(f"not in the option table, or not taken: {', '.join(unknown)}")
    return [uses[name].applied(OPTIONS[name]) if name in uses else OPTIONS[name] for name in names]


class ArgumentParser(Protocol):
    def add_argument(self, *flags: str, **keywords: Any) -> Any: ...


class OptionGroup(Protocol):
    def addoption(self, *flags: str, **keywords: Any) -> None: ...


def add_arguments(parser: ArgumentParser, names: Sequence[str], uses: Mapping[str, Use] | None = None) -> None:
    """The argparse adapter: these options on a command's parser."""
    for option in chosen(names, uses):
        keywords = option.keywords()
        if uses and option.dest in uses and uses[option.dest].required:
            keywords["required"] = True
        parser.add_argument(option.flag, **keywords)


def add_options(group: OptionGroup, names: Sequence[str] | None = None) -> None:
    """The pytest adapter: these options (default: every one) in the plugin's option group."""
    for option in chosen(list(OPTIONS) if names is None else names):
        group.addoption(option.flag, **option.keywords())


def values(source: Any, names: Iterable[str] | None = None) -> dict[str, Any]:
    """The taken options' values by field, from an argparse namespace or pytest's config (its
    getoption); an option a command does not take is left out, and the resolver takes the default."""
    get = getattr(source, "getoption", None)
    found = {}
    for name in OPTIONS if names is None else names:
        if get is not None:
            found[name] = get(name)
        elif hasattr(source, name):
            found[name] = getattr(source, name)
    return found


def changed(found: Mapping[str, Any]) -> dict[str, Any]:
    """Those of these values by field that differ from the table's defaults."""
    return {name: value for name, value in found.items()
            if not (value == OPTIONS[name].default or (OPTIONS[name].action == "store_true" and not value))}


def as_args(found: Mapping[str, Any]) -> list[str]:
    """Options of these values by field, as a command line hands them on (one word each,
    `--flag=value`): those that differ from the table's default, a list's values one by one."""
    words: list[str] = []
    for name, value in changed(found).items():
        option = OPTIONS[name]
        if option.action == "store_true":
            words.append(option.flag)
        else:
            words += [f"{option.flag}={item}" for item in (value if isinstance(value, list) else [value])]
    return words


# Commands' own uses that several share, each with its reason.
ONE = Use(one=True)
TRIAGE_TIMEOUT = Use(config.TRIAGE_CASE_TIMEOUT, f"{config.TRIAGE_CASE_TIMEOUT:g}: triage re-runs a hanging case "
                     "many times over, each costing a timeout (harness/base/config.py TRIAGE_CASE_TIMEOUT)")
BISECT_RETRIES = Use(1, "1: a bisection step re-runs a failure once, so that a flake is not called bad")
VK_PATHS = ("vk_path", "vk_patch_path", "vk_vertex_input", "vk_point_size", "vk_list_restart", "vk_restart_index",
            "vk_index_uint8")
