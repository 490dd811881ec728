"""pytest plugin: collects every family's cases x every selected target, runs each through the
target's executor, and writes results/junit.xml and results/results.json.

One canonical id per case: the pytest item is named `<case id>[<target>]`, so `-k` filters on
case ids, and JUnit, results.json and the terminal all show the same string.
"""
from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness import __version__, baseline, catalog, export, ids, mesa, policy, results, shader_cache, terminal
from harness import targets as targets_mod
from harness.executor import Executor, ExecutorGroup, probe
from harness.case import Case, CaseError
from harness.status import Reply, Status
from harness.verdict import judge

FAMILIES = catalog.FAMILIES
POOL = pytest.StashKey["ExecutorPool"]()
BASELINE = pytest.StashKey[dict]()
PATTERNS = pytest.StashKey[dict]()          # "skips": [(regex, "file:line")], "flakes": baseline.load_flakes
SHARD = pytest.StashKey[tuple]()
HARNESS = pytest.StashKey[dict]()           # harness version and git describe, JUnit properties
DONE = pytest.StashKey[dict]()              # --resume: "<id>[<target>]" -> the entry already there
TARGETS = pytest.StashKey[list]()
OUTCOME = pytest.StashKey[str]()            # a case item's outcome label (policy.Outcome.label)
MESA = pytest.StashKey[object]()            # the --mesa build (harness.mesa.Build), or None
ORDER = pytest.StashKey[dict]()             # without xdist: each item's place in the run order
pytest_plugins = ["harness.importers.collect"]          # --shader-tests: piglit files as cases


def pytest_addoption(parser):
    group = parser.getgroup("harness", "GL/Vulkan conformance harness")
    group.addoption("--target", action="append", default=[], metavar="NAME",
                    help="target to run on (repeatable); default: $HARNESS_TARGETS or every "
                         "available local default target")
    group.addoption("--mesa", default=None, metavar="PATH",
                    help="the Mesa build every Mesa target (llvmpipe, zink, lavapipe, zink-system) loads: an "
                         "install prefix or a meson build directory; default $HARNESS_MESA, else the system's")
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
    group.addoption("--skips", action="append", default=[], metavar="FILE",
                    help="regex lines: matching '<case id>[<target>]' are skipped (repeatable)")
    group.addoption("--flakes", action="append", default=[], metavar="FILE",
                    help="'REGEX STATUS[,STATUS]  # rate' lines: known flaky cases; a failure of one with a "
                         "listed status (fail, crash, timeout) is reported as flake (repeatable)")
    group.addoption("--flake-retries", type=int, default=0, metavar="N",
                    help="re-run a failing case up to N times; if a re-run passes it is a flake")
    group.addoption("--children", type=int, default=0, metavar="N",
                    help="executor children per target in each pytest process, each running the cases "
                         "queued in it (default: 1 under xdist, else one per core up to 4)")
    group.addoption("--no-spawner", action="store_true",
                    help="start each executor child as a new Python process instead of forking it from "
                         "a spawner that has imported the child's modules once (harness/spawner.py)")
    group.addoption("--shuffle", type=int, default=None, metavar="SEED",
                    help="run the cases in a random order drawn from SEED (state-leak hunting)")
    group.addoption("--resume", default=None, metavar="DIR",
                    help="run only the cases without a verdict in DIR/results.json (an interrupted "
                         "run) and merge the two into --results-dir")
    group.addoption("--case", action="append", default=[], metavar="ID",
                    help="run only this case (repeatable): a case id, or '<case id>[<target>]' for "
                         "one target")
    group.addoption("--shard", default="", metavar="K/N",
                    help="run only every N-th case starting at the K-th (1-based), for CI sharding")
    group.addoption("--shader-tests", nargs="+", action="extend", default=[], metavar="DIR_OR_FILE",
                    help="also run these piglit .shader_test files (directories searched) as cases "
                         "(harness/importers); without test paths, only these")


def _selected_targets(config) -> list[str]:
    names = config.getoption("target")
    if not names and os.environ.get("HARNESS_TARGETS"):
        names = os.environ["HARNESS_TARGETS"].split(",")
    explicit = bool(names)
    try:
        names = targets_mod.parse_list(",".join(names)) if names else targets_mod.default_names()
    except targets_mod.UnknownTarget as exc:
        raise HarnessUsageError(str(exc)) from None
    names = list(dict.fromkeys(names))
    if any(targets_mod.get(name).shader_cache_slot for name in names):
        shader_cache.seed(_concurrent_children(config))       # before any child claims a slot
    # Each probe starts a child and waits for its driver (0.6 s for a Mesa target here): at once.
    with ThreadPoolExecutor(max_workers=len(names) or 1) as pool:
        whys = list(pool.map(lambda name: _why_unavailable(config, targets_mod.get(name)), names))
    chosen = []
    for name, why in zip(names, whys):
        if not why:
            chosen.append(name)
        elif explicit:
            raise HarnessUsageError(f"target {name} is not available: {why}")
        else:
            config.issue_config_time_warning(
                pytest.PytestConfigWarning(f"default target {name} skipped: {why}"), stacklevel=2)
    return chosen


def _why_unavailable(config, target) -> str:
    """'' if the target's child made a context, else the first line of why not."""
    if target.unavailable:
        return target.unavailable
    result = probe(target, config.getoption("gl_platform"), config.getoption("vk_without"), config.stash[MESA])
    if result.status is Reply.OK:
        return ""
    return (result.message or result.status).splitlines()[0]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if not config.pluginmanager.is_registered(terminal):
        config.pluginmanager.register(terminal, "harness-terminal")      # the terminal's names for outcomes
    try:
        _configure(config)
    except HarnessUsageError as exc:
        pytest.exit(f"ERROR: {exc}", returncode=2)       # usage errors: one line, exit status 2


def _configure(config):
    for family in FAMILIES:
        config.addinivalue_line("markers", f"{family}: cases of the {family} conformance family")
    config.addinivalue_line("markers", "conformance: every conformance case")
    config.stash[MESA] = _mesa_build(config)
    if hasattr(config, "workerinput"):                 # an xdist worker: the controller chose
        config.stash[TARGETS] = config.workerinput["harness_targets"]
    elif _collects_cases(config):
        config.stash[TARGETS] = _selected_targets(config)
    else:
        config.stash[TARGETS] = []
    config.stash[POOL] = ExecutorPool(config)
    try:
        config.stash[BASELINE] = baseline.load(config.getoption("baseline"))
        config.stash[PATTERNS] = {"skips": baseline.load_patterns(config.getoption("skips")),
                                  "flakes": baseline.load_flakes(config.getoption("flakes"))}
    except baseline.BaselineError as exc:
        raise HarnessUsageError(str(exc)) from None
    config.stash[SHARD] = _shard(config.getoption("shard"))
    config.stash[HARNESS] = {"harness_version": __version__, "harness_git": _git_describe()}
    config.stash[DONE] = _resumed(config)
    if config.stash[TARGETS] and not hasattr(config, "workerinput"):
        results_dir = Path(config.getoption("results_dir"))
        _check_writable(results_dir)
        if not config.option.xmlpath:
            # The default report; this hook runs before junitxml's own configure reads the option.
            config.option.xmlpath = str(results_dir / "junit.xml")
        config.pluginmanager.register(ResultsWriter(results_dir, config), "harness-results")


def _mesa_build(config):
    try:
        return mesa.chosen(config.getoption("mesa"))
    except mesa.MesaError as exc:
        raise HarnessUsageError(str(exc)) from None


def _shard(text: str) -> tuple[int, int]:
    if not text:
        return (1, 1)
    try:
        k, n = (int(v) for v in text.split("/"))
    except ValueError:
        raise HarnessUsageError(f"--shard {text!r}: expected K/N, e.g. 2/4") from None
    if not 1 <= k <= n:
        raise HarnessUsageError(f"--shard {text!r}: K must be between 1 and N")
    return (k, n)


def _check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe_file = folder / ".writable"
        probe_file.write_text("")
        probe_file.unlink()
    except OSError as exc:
        raise HarnessUsageError(f"results directory {folder} is not writable: {exc.strerror}") from None


def _resumed(config) -> dict:
    folder = config.getoption("resume")
    if not folder:
        return {}
    try:
        return {results.key(e): e for e in results.read(Path(folder))}
    except results.ResultsError as exc:
        raise HarnessUsageError(f"--resume: {exc}") from None


def _git_describe() -> str:
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=catalog.ROOT,
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.stdout.strip() or "unknown"


def pytest_collection_modifyitems(config, items):
    """Target order, --case (keep only those), --resume (drop what has a verdict), sharding
    (item i goes to shard i mod N, the same split on every worker), the skips files, and
    --shuffle."""
    # Target by target, each in collection order: a worker needs one executor child at a time
    # (see CaseItem.teardown) and consecutive cases often share a program its child has linked.
    rank = {name: i for i, name in enumerate(config.stash[TARGETS])}
    items.sort(key=lambda item: rank.get(getattr(item, "target", None), -1))
    chosen = set(config.getoption("case"))
    if chosen:
        _deselect(config, items, [item for item in items if isinstance(item, CaseItem)
                                  and item.case.id not in chosen and item.name not in chosen])
    done = config.stash[DONE]
    if done:
        _deselect(config, items, [item for item in items if isinstance(item, CaseItem) and item.name in done])
    k, n = config.stash[SHARD]
    if n > 1:
        _deselect(config, items, [item for i, item in enumerate(items) if i % n != k - 1])
    for item in items:
        if isinstance(item, CaseItem):
            where = baseline.first_match(config.stash[PATTERNS]["skips"], item.case.id, item.target)
            if where:
                item.add_marker(pytest.mark.skip(reason=f"listed in the skips file ({where})"))
    seed = config.getoption("shuffle")
    if seed is not None:
        random.Random(seed).shuffle(items)


def _deselect(config, items: list, dropped: list) -> None:
    config.hook.pytest_deselected(items=dropped)
    gone = set(dropped)
    items[:] = [item for item in items if item not in gone]


def _collects_cases(config) -> bool:
    """Whether any command-line path reaches a family's cases.py (avoids probing for self-tests)."""
    if config.getoption("shader_tests", None):
        return True
    args = config.args or [str(config.rootpath)]
    for arg in args:
        path = Path(arg.split("::")[0]).resolve()
        for family in FAMILIES:
            cases = (config.rootpath / "tests" / family / "cases.py").resolve()
            if cases == path or path in cases.parents:
                return True
    return False


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto` for conformance runs: one worker per two cores, none below four cores. Each
    worker keeps two processes busy (pytest and the target's child, which runs the next case
    while pytest judges this one), and each worker costs the controller 3 to 5 ms of CPU per
    case (bench/bench.py's profile, issue 19): on 2 cores `-n 2` ran at 0.87-0.93x `-n 0`; on
    16 cores a sweep peaked at 8 workers. $PYTEST_XDIST_AUTO_NUM_WORKERS still decides."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or not _collects_cases(config):
        return None                     # xdist's own rule (self-tests: one worker per core)
    return auto_workers(os.cpu_count() or 1)


def auto_workers(cores: int) -> int:
    """xdist workers `-n auto` starts for a conformance run on `cores` cores (0: none)."""
    return cores // 2 if cores >= 4 else 0


def children_per_process(config, xdist_worker: bool) -> int:
    """--children, else auto_children for this machine."""
    return max(1, config.getoption("children") or auto_children(os.cpu_count() or 1, xdist_worker))


def auto_children(cores: int, xdist_worker: bool) -> int:
    """Executor children per target: an xdist worker keeps one (the workers fill the cores);
    a run without workers one per core, up to 4 (its pytest process spends 7 to 9 ms a case,
    so it can feed about that many: bench/bench.py's profile)."""
    return 1 if xdist_worker else max(1, min(cores, 4))


def _concurrent_children(config) -> int:
    """A target's executor children alive at once in the run: each xdist worker's, or this
    process's (xdist has turned -n into its list of workers by now)."""
    workers = len(config.getoption("tx", None) or []) if config.getoption("dist", "no") != "no" else 0
    return max(1, workers) * children_per_process(config, workers > 0)


@pytest.hookimpl(optionalhook=True)          # an xdist hook; pytest may run without xdist
def pytest_configure_node(node):
    node.workerinput["harness_targets"] = node.config.stash[TARGETS]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Queue a case in its target's child, and the case after it on this worker when that runs
    on the same target: the child runs the next case while this one is judged."""
    if isinstance(item, CaseItem) and not item.get_closest_marker("skip"):
        item.config.stash[POOL].queue(item, nextitem, _ahead(item))


def pytest_runtest_teardown(item, nextitem):
    """Cases run target by target: after a target's last case on this worker, its child
    (and the driver's memory) goes. Shuffled runs interleave targets and keep them all."""
    if isinstance(item, CaseItem) and item.config.getoption("shuffle") is None \
            and not _same_target(item, nextitem):
        item.config.stash[POOL].close(item.target)


def _same_target(item, other) -> bool:
    return isinstance(other, CaseItem) and other.target == item.target


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """The first target's spawner (harness/spawner.py) starts before collection, so that its
    imports overlap it. Collection makes the objects that live until the run ends: every Case
    and item, about 190,000 objects for the three families. Python's full collections walk
    every tracked object, and with these growing they ran 7 times during collection and more
    later, 140 ms each by the end (1.7 s of the pytest process's 19.5 s of CPU on llvmpipe's
    tess and draw_params): no collection while collecting, and what it made is frozen out of
    later ones."""
    config = session.config
    if config.stash.get(TARGETS, None) and not config.pluginmanager.has_plugin("dsession"):
        config.stash[POOL].prepare(config.stash[TARGETS][0])      # the first cases' spawner imports meanwhile
    gc.disable()
    try:
        return (yield)
    finally:
        gc.enable()
        gc.freeze()


def pytest_collection_finish(session):
    """Without xdist this process runs session.items in order, so the cases after the next one
    are known and can be queued in further children (under xdist the controller decides)."""
    if not hasattr(session.config, "workerinput"):
        session.config.stash[ORDER] = {item: i for i, item in enumerate(session.items)}
    # The spawner started before collection is for nothing where -k, --shard or --resume left
    # its target no case here.
    session.config.stash[POOL].keep_only({item.target for item in session.items if isinstance(item, CaseItem)})


def _ahead(item) -> list:
    """The items after the next one, in the run order where it is known."""
    place = item.config.stash.get(ORDER, {}).get(item)
    if place is None:
        return []
    return item.session.items[place + 2:place + 1 + item.config.stash[POOL].children]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """The call report carries the case's outcome label, for the terminal (also from an xdist
    worker: a report's plain attributes travel with it)."""
    report = yield
    if call.when == "call" and OUTCOME in item.stash:
        setattr(report, terminal.OUTCOME_ATTRIBUTE, item.stash[OUTCOME])
    return report


def pytest_report_header(config):
    names = config.stash.get(TARGETS, [])
    lines = [f"harness targets: {', '.join(names)}"] if names else []
    build = config.stash.get(MESA, None)
    if names and build is not None:
        lines.append(f"harness Mesa: {build.version} from {build.root} (--mesa)")
    if config.getoption("shuffle") is not None:
        lines.append(f"harness case order: shuffled with --shuffle {config.getoption('shuffle')}")
    return lines


def pytest_collect_file(file_path: Path, parent):
    if catalog.family_of_file(file_path):
        return CaseFile.from_parent(parent, path=file_path)
    return None


class HarnessUsageError(Exception):
    """Bad input on the command line: one line on stderr, exit status 2 (see pytest_cmdline_main)."""


class CaseFile(pytest.File):
    def collect(self):
        try:
            cases = catalog.generate(self.path)
            bad = next((c for c in cases if not isinstance(c, Case)), None)
            if bad is not None:
                raise CaseError(f"generate() returned {type(bad).__name__} {bad!r:.80}, not a Case")
        except Exception as exc:   # a broken case file is one clear line, not a traceback
            raise self.CollectError(f"{self.path}: malformed case file: {type(exc).__name__}: {exc}") from None
        for case in cases:
            yield from case_items(self, case)


def case_items(parent, case: Case):
    """One item per selected target, named `<case id>[<target>]`: every collector of cases
    (families' cases.py, piglit .shader_test files) makes them here."""
    for target in parent.config.stash[TARGETS]:
        item = CaseItem.from_parent(parent, name=ids.key(case.id, target), case=case, target=target)
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
        """Run the case (queued by pytest_runtest_protocol), judge it, and report what the run
        policy makes of the verdict (harness/policy.py)."""
        executor = self.config.stash[POOL].get(self.target)
        result = executor.run(self.case)
        info = executor.info().observation or {}
        renderer = info.get("renderer", "?")
        where = f"{self.target}: {renderer}, {info.get('version', '?')}"
        if info.get("mesa") and f"Mesa {info['mesa']}" not in where:
            where += f", Mesa {info['mesa']}"           # the Vulkan layer's version names the layer
        self.user_properties += [("renderer", renderer), ("gl_version", info.get("version", "?")),
                                 ("mesa", info.get("mesa", "")), ("platform", info.get("platform", "?"))]
        self.user_properties += list(self.config.stash[HARNESS].items())
        verdict = judge(self.case, result, where)
        self.user_properties += [("case_duration", f"{result.duration:.4f}")]
        if verdict.status.is_failure():
            self._keep_for_triage(result)
        expected = baseline.lookup(self.config.stash[BASELINE], self.case.id, self.target)
        # Re-runs happen only as the policy asks for them (a failure, up to its first pass).
        reruns = (judge(self.case, executor.run(self.case), where)
                  for _ in range(self.config.getoption("flake_retries")))
        outcome = policy.decide(verdict, expected, reruns=reruns, flakes=baseline.matching_flakes(
            self.config.stash[PATTERNS]["flakes"], self.case.id, self.target))
        self.stash[OUTCOME] = outcome.label
        # Plain strings: xdist sends the properties to the controller as they are.
        self.user_properties.append(("status", outcome.status.value))
        if expected is not None:
            self.user_properties.append(("expected", expected.baseline_name))
        if outcome.report is policy.Report.SKIPPED:       # JUnit: skipped, with the reason
            pytest.skip(outcome.message)
        if outcome.report is policy.Report.FAILED:
            raise CaseFailure(outcome.message)

    def _keep_for_triage(self, result) -> None:
        """A failed case leaves its reproducer (case JSON + GLSL) and raw observation in the
        results folder; JUnit attaches the reproducer the way GitLab and Jenkins read it."""
        folder = Path(self.config.getoption("results_dir"))
        stem = export.file_stem(self.case.id, self.target)
        try:
            written = export.export(self.case, "glsl", folder / "repro" / stem)
            if result.observation is not None:
                (folder / "observations").mkdir(parents=True, exist_ok=True)
                (folder / "observations" / f"{stem}.json").write_text(json.dumps(
                    {"id": self.case.id, "target": self.target, "case": self.case.to_json(),
                     "observation": result.observation}))
        except OSError as exc:
            self.add_report_section("call", "stdout", f"no reproducer written: {exc}")
            return
        self.add_report_section("call", "stdout", f"[[ATTACHMENT|{written[0].resolve()}]]")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.case.id} on {self.target}\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"{self.case.id}[{self.target}]"      # skip reports need a line


class ExecutorPool:
    """One group of executor children per target in this pytest process, closed when the
    session ends."""

    def __init__(self, config):
        self._config = config
        self._executors: dict[str, ExecutorGroup] = {}
        self.children = children_per_process(config, hasattr(config, "workerinput"))

    def get(self, name: str) -> ExecutorGroup:
        if name not in self._executors:
            config = self._config
            self._executors[name] = ExecutorGroup(lambda: Executor(
                targets_mod.get(name), case_timeout=config.getoption("case_timeout"),
                gl_platform=config.getoption("gl_platform"), vk_without=config.getoption("vk_without"),
                mesa=config.stash[MESA], fork=not config.getoption("no_spawner"),
                extra_env={"HARNESS_VK_VALIDATION": "1"} if config.getoption("vk_validation") else None),
                self.children)
        return self._executors[name]

    def queue(self, item: CaseItem, following, ahead: list) -> None:
        """Queue this case, the next one, and (where the run order is known) those after it, one
        per further child, as long as they run on the same target."""
        executor = self.get(item.target)
        executor.send(item.case)
        for later in [following] + ahead[:self.children - 1]:
            if not _same_target(item, later) or later.get_closest_marker("skip"):
                break
            executor.send(later.case)

    def prepare(self, name: str) -> None:
        self.get(name).prepare()

    def keep_only(self, names: set[str]) -> None:
        """Close the executors of targets not named."""
        for name in set(self._executors) - names:
            self.close(name)

    def close(self, name: str | None = None):
        """Close one target's executor, or (no name) all of them."""
        for target in [name] if name else list(self._executors):
            executor = self._executors.pop(target, None)
            if executor is not None:
                executor.close()


class ResultsWriter:
    """Controller-side: one entry per case and target in results.json, whatever the outcome."""

    def __init__(self, folder: Path, config):
        self.folder = folder
        self.config = config
        self.entries: list[dict] = []
        self.started = time.perf_counter()

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report):
        props = dict(report.user_properties)
        crashed = terminal.worker_crash(report)
        if crashed:                     # no properties: the worker died mid-case
            props = {"case_id": crashed[0], "target": crashed[1], "status": Status.CRASH.value}
        self._classname(report, props)
        # The call phase has the verdict; a setup that failed or skipped has no call phase.
        if "case_id" not in props or not (crashed or report.when == "call" or
                                          (report.when == "setup" and not report.passed)):
            return
        longrepr = report.longrepr
        if isinstance(longrepr, tuple):                 # a skip: (path, line, reason)
            message = longrepr[2].removeprefix("Skipped: ")
        else:
            message = "" if report.passed else str(longrepr or "")
        status = props.get("status") or (Status.SKIP if report.skipped else Status.ERROR).value
        self.entries.append({
            "id": props["case_id"], "target": props["target"], "status": status,
            "expected": props.get("expected", ""),
            "duration": round(float(props.get("case_duration", report.duration)), 4),
            "renderer": props.get("renderer", ""), "mesa": props.get("mesa", ""), "message": message,
            "finished": round(time.perf_counter() - self.started, 3)})   # s into the run: start-up, rate

    def _classname(self, report, props) -> None:
        """JUnit classname `<target>.<family>`, which CI dashboards group by. pytest derives it
        from the file path and has no public hook for it, hence its internal reporters."""
        from _pytest.junitxml import xml_key
        xml = self.config.stash.get(xml_key, None)
        if xml is not None and "case_id" in props and report.when != "teardown":   # teardown: written
            # junitxml keeps attributes set here over the ones it derives on later phases.
            xml.node_reporter(report).attrs["classname"] = f"{props['target']}.{catalog.prefix(props['case_id'])}"

    def pytest_sessionfinish(self, session):
        """Also on Ctrl-C: what finished is written, and --resume can run the rest."""
        done = self.config.stash[DONE]
        fresh = {results.key(e) for e in self.entries}
        earlier = [e for name, e in done.items() if name not in fresh]
        results.write(self.folder, earlier + self.entries)


def pytest_sessionfinish(session, exitstatus):
    session.config.stash[POOL].close()
    config = session.config
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and config.stash.get(TARGETS, None) \
            and not hasattr(config, "workerinput"):
        config.get_terminal_writer().line(
            f"harness: the selection is empty: no case of the chosen families matched on "
            f"{', '.join(config.stash[TARGETS])} (check -k, --shard, --resume)", red=True)
