"""pytest plugin: collects every family's cases x every selected target, runs each through the
target's executor, and writes results/junit.xml and results/results.json.

One canonical id per case: the pytest item is named `<case id>[<target>]`, so `-k` filters on
case ids, and JUnit, results.json and the terminal all show the same string.
"""
from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from harness import baseline
from harness import targets as targets_mod
from harness.executor import Executor, probe
from harness.verdict import judge

FAMILIES = ("tess", "draw_params", "varyings")
POOL = pytest.StashKey["ExecutorPool"]()
BASELINE = pytest.StashKey[dict]()
TARGETS = pytest.StashKey[list]()


def pytest_addoption(parser):
    group = parser.getgroup("harness", "GL/Vulkan conformance harness")
    group.addoption("--target", action="append", default=[], metavar="NAME",
                    help="target to run on (repeatable); default: $HARNESS_TARGETS or every "
                         "available local default target")
    group.addoption("--case-timeout", type=float, default=60.0, metavar="SECONDS",
                    help="a case running longer is 'timeout' and its child is replaced (default 60)")
    group.addoption("--gl-platform", choices=("egl", "glfw"), default="egl",
                    help="how GL contexts are made: headless EGL (default) or a hidden GLFW window")
    group.addoption("--results-dir", default="results", metavar="DIR",
                    help="where junit.xml, results.json, results.csv and failures.csv go (default: results)")
    group.addoption("--vk-without", default="", metavar="T1,T2",
                    help="Vulkan backend: translations to switch off, to show the cases catch the hazard "
                         "(passthrough-tcs, base-vertex, draw-id, slot-map)")
    group.addoption("--vk-validation", action="store_true",
                    help="Vulkan backend: run under the Khronos validation layer; a validation error fails the case")
    group.addoption("--baseline", action="append", default=[], metavar="FILE",
                    help="expected failures, 'case-id[target],Fail|Crash|Timeout' lines (repeatable)")


def _selected_targets(config) -> list[str]:
    names = config.getoption("target")
    if not names and os.environ.get("HARNESS_TARGETS"):
        names = os.environ["HARNESS_TARGETS"].split(",")
    explicit = bool(names)
    try:
        names = targets_mod.parse_list(",".join(names)) if names else targets_mod.default_names()
    except targets_mod.UnknownTarget as exc:
        raise pytest.UsageError(str(exc)) from None
    chosen = []
    for name in dict.fromkeys(names):
        target = targets_mod.get(name)
        why = target.unavailable or _probe(config, target)
        if not why:
            chosen.append(name)
        elif explicit:
            raise pytest.UsageError(f"target {name} is not available: {why}")
        else:
            config.issue_config_time_warning(
                pytest.PytestConfigWarning(f"default target {name} skipped: {why}"), stacklevel=2)
    return chosen


def _probe(config, target) -> str:
    """'' if the target's child made a context, else the first line of why not."""
    result = probe(target, config.getoption("gl_platform"), config.getoption("vk_without"))
    if result.status == "ok":
        return ""
    return (result.message or result.status).splitlines()[0]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    for family in FAMILIES:
        config.addinivalue_line("markers", f"{family}: cases of the {family} conformance family")
    config.addinivalue_line("markers", "conformance: every conformance case")
    if hasattr(config, "workerinput"):                 # an xdist worker: the controller chose
        config.stash[TARGETS] = config.workerinput["harness_targets"]
    elif _collects_cases(config):
        config.stash[TARGETS] = _selected_targets(config)
    else:
        config.stash[TARGETS] = []
    config.stash[POOL] = ExecutorPool(config)
    try:
        config.stash[BASELINE] = baseline.load(config.getoption("baseline"))
    except baseline.BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None
    if config.stash[TARGETS] and not hasattr(config, "workerinput"):
        results = Path(config.getoption("results_dir"))
        if not config.option.xmlpath:
            # The default report; this hook runs before junitxml's own configure reads the option.
            config.option.xmlpath = str(results / "junit.xml")
        config.pluginmanager.register(ResultsWriter(results / "results.json"), "harness-results")


def _collects_cases(config) -> bool:
    """Whether any command-line path reaches a family's cases.py (avoids probing for self-tests)."""
    args = config.args or [str(config.rootpath)]
    for arg in args:
        path = Path(arg.split("::")[0]).resolve()
        for family in FAMILIES:
            cases = (config.rootpath / "tests" / family / "cases.py").resolve()
            if cases == path or path in cases.parents:
                return True
    return False


def pytest_configure_node(node):
    node.workerinput["harness_targets"] = node.config.stash[TARGETS]


def pytest_report_header(config):
    names = config.stash.get(TARGETS, [])
    return [f"harness targets: {', '.join(names) if names else '(none)'}"] if names else []


def pytest_collect_file(file_path: Path, parent):
    if file_path.name == "cases.py" and file_path.parent.name in FAMILIES \
            and file_path.parent.parent.name == "tests":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        name = f"harness_family_{self.path.parent.name}"
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, self.path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module            # dataclasses look their module up there
            spec.loader.exec_module(module)
        for case in module.generate():
            for target in self.config.stash[TARGETS]:
                item = CaseItem.from_parent(self, name=f"{case.id}[{target}]", case=case, target=target)
                item.add_marker(case.family)
                item.add_marker("conformance")
                yield item


class CaseFailure(Exception):
    pass


class CaseItem(pytest.Item):
    def __init__(self, *, case, target, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.target = target
        self.user_properties += [("case_id", case.id), ("target", target)]

    def runtest(self):
        executor = self.config.stash[POOL].get(self.target)
        result = executor.run(self.case)
        info = executor.info().observation or {}
        renderer = info.get("renderer", "?")
        self.user_properties += [("renderer", renderer), ("gl_version", info.get("version", "?")),
                                 ("platform", info.get("platform", "?"))]
        verdict = judge(self.case, result, f"{self.target}: {renderer}, {info.get('version', '?')}")
        self.user_properties += [("status", verdict.status), ("case_duration", f"{result.duration:.4f}")]
        expected = baseline.lookup(self.config.stash[BASELINE], self.case.id, self.target)
        if expected:
            self.user_properties.append(("expected", expected))
            if baseline.STATUS_NAMES.get(verdict.status) == expected:
                # An expected failure passes the run; JUnit shows it as skipped, with the reason.
                pytest.skip(f"expected {expected} (baseline): {verdict.message.splitlines()[0]}")
            if verdict.status == "pass":
                raise CaseFailure(f"unexpected pass: the baseline expects {expected}; update the baseline")
        if verdict.status == "skip":
            pytest.skip(verdict.message)
        if verdict.status != "pass":
            raise CaseFailure(f"{verdict.status}: {verdict.message}"
                              + (f"\n(the baseline expects {expected})" if expected else ""))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.case.id} on {self.target}\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.case.id}[{self.target}]"


class ExecutorPool:
    """One executor per target in this pytest process, closed when the session ends."""

    def __init__(self, config):
        self._config = config
        self._executors: dict[str, Executor] = {}

    def get(self, name: str) -> Executor:
        if name not in self._executors:
            self._executors[name] = Executor(targets_mod.get(name),
                                             case_timeout=self._config.getoption("case_timeout"),
                                             gl_platform=self._config.getoption("gl_platform"),
                                             vk_without=self._config.getoption("vk_without"),
                                             extra_env={"HARNESS_VK_VALIDATION": "1"}
                                             if self._config.getoption("vk_validation") else None)
        return self._executors[name]

    def close(self):
        for executor in self._executors.values():
            executor.close()
        self._executors.clear()


class ResultsWriter:
    """Controller-side: one entry per case and target in results.json, whatever the outcome."""

    def __init__(self, path: Path):
        self.path = path
        self.entries: list[dict] = []

    def pytest_runtest_logreport(self, report):
        props = dict(report.user_properties)
        # The call phase has the verdict; a setup that failed or skipped has no call phase.
        if "case_id" not in props or not (report.when == "call" or
                                          (report.when == "setup" and not report.passed)):
            return
        longrepr = report.longrepr
        if isinstance(longrepr, tuple):                 # a skip: (path, line, reason)
            message = longrepr[2].removeprefix("Skipped: ")
        else:
            message = "" if report.passed else str(longrepr or "")
        status = props.get("status") or ("skip" if report.skipped else "error")
        self.entries.append({
            "id": props["case_id"], "target": props["target"], "status": status,
            "expected": props.get("expected", ""),
            "duration": round(float(props.get("case_duration", report.duration)), 4),
            "renderer": props.get("renderer", ""), "message": message})

    def pytest_sessionfinish(self, session):
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps({"results": self.entries}, indent=1) + "\n")
        rows = ["id,status,duration"] + [f"{e['id']}[{e['target']}],{e['status']},{e['duration']}"
                                          for e in self.entries]
        (folder / "results.csv").write_text("\n".join(rows) + "\n")
        failures = [baseline.failure_line(e["id"], e["target"], e["status"]) for e in self.entries]
        (folder / "failures.csv").write_text(
            "# failures of this run, in --baseline format\n" + "".join(f"{f}\n" for f in failures if f))


def pytest_sessionfinish(session, exitstatus):
    session.config.stash[POOL].close()
