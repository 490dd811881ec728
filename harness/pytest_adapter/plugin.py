"""pytest plugin, an adapter over the run core: command-line options into one RunSettings and
one Rules value, collection of every family's cases x every selected target (harness/
pytest_items.py), the order cases run in, and the run's files. Each case's record goes to this
process's journal as it lands (harness/run/journal.py); results.json, results.csv, failures.csv and
junit.xml are derived from the journal when the session ends, also on SIGTERM and Ctrl-C, and
`--resume DIR` runs only what has no record in DIR.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.run import baseline, core, gating, journal, sharding
from harness.sources import catalog
from harness.base import config as config_mod, plugins, provenance
from harness.base.args import option_values
from harness.backends.vk import paths
from harness.mesa import runtime as mesa
from harness.results import files as results
from harness.executor import shader_cache
from harness.pytest_adapter import terminal
from harness.executor import targets as targets_mod
from harness.executor.executor import probe
from harness.pytest_adapter.items import JOURNAL, OUTCOME, POOL, RULES, STARTED, TARGETS, CaseFile, CaseItem, \
    journal_entry, same_target
from harness.model.outcome import Outcome, Record
from harness.scheduler import layout as layout_mod, processes
from harness.scheduler.pipeline import Pipeline
from harness.model.status import Reply, Status
from harness.base.errors import UsageError

FAMILIES = catalog.FAMILIES
SETTINGS = pytest.StashKey[core.RunSettings]()
SKIPS = pytest.StashKey[list]()             # [(regex, "file:line")] from the skips files
SHARD = pytest.StashKey[tuple]()
HARNESS = pytest.StashKey[dict]()           # harness version and git describe, JUnit properties
DONE = pytest.StashKey[dict]()              # --resume: "<id>[<target>]" -> the entry already there
RUN = pytest.StashKey[str]()                # this run's id: its journal files' prefix
ORDER = pytest.StashKey[dict]()             # without xdist: each item's place in the run order
MANIFEST = pytest.StashKey[dict]()          # the expectation files and JUnit options (results.manifest)
GATE = pytest.StashKey[gating.Gate]()       # the baseline and flakes files that gate the run
LAYOUT = pytest.StashKey[layout_mod.Layout]()  # processes x children (harness/scheduler/layout.py)
pytest_plugins = ["harness.pytest_adapter.collect"]          # --shader-tests: piglit files as cases


def pytest_addoption(parser):
    group = parser.getgroup("harness", "GL/Vulkan conformance harness")
    group.addoption("--target", action="append", default=[], metavar="NAME",
                    help="target to run on (repeatable); default: $HARNESS_TARGETS or every "
                         "available local default target")
    group.addoption("--mesa", default=None, metavar="PATH",
                    help="the Mesa build every Mesa target (llvmpipe, zink, lavapipe, zink-system) loads: an "
                         "install prefix or a meson build directory; default $HARNESS_MESA, else the system's")
    group.addoption("--case-timeout", type=float, default=config_mod.CASE_TIMEOUT, metavar="SECONDS",
                    help="wall time after which a case without a result is a hang: 'timeout', its child "
                         f"killed and replaced (default {config_mod.CASE_TIMEOUT:g}; the CPU rules come first)")
    group.addoption("--case-cpu", type=float, default=config_mod.CASE_CPU, metavar="SECONDS",
                    help="CPU seconds a case's child may spend without a result before the case is a hang "
                         f"(default {config_mod.CASE_CPU:g}; cases with long cold compiles declare more)")
    group.addoption("--gl-platform", choices=("egl", "glfw"), default="egl",
                    help="how GL contexts are made: headless EGL (default) or a hidden GLFW window")
    group.addoption("--results-dir", default="results", metavar="DIR",
                    help="where junit.xml, results.json, results.csv and failures.csv go (default: results)")
    group.addoption("--vk-without", default="", metavar="T1,T2",
                    help="Vulkan backend: translations to switch off, to show the cases catch the hazard "
                         "(passthrough-tcs, base-vertex, draw-id, slot-map)")
    for option, _, choices, help in paths.OPTIONS:
        group.addoption(option, choices=choices, default="auto", help=help)
    group.addoption("--vk-validation", action="store_true",
                    help="Vulkan backend: run under the Khronos validation layer; a validation error fails the case")
    group.addoption("--baseline", action="append", default=[], metavar="auto|none|FILE",
                    help="expected failures, 'case-id[target],Fail|Crash|Timeout' lines, or a run's results.csv "
                         "(repeatable; a case listed twice is an error). Default auto: the Mesa under test's "
                         "own baselines/mesa-<version>.csv and -flakes.txt, found by its Debian version "
                         "(harness/run/gating.py); none: ungated")
    group.addoption("--junit-limit", type=int, default=None, metavar="N",
                    help="write at most N failures to junit.xml, and one testcase saying how many more "
                         "(every one is in failures.csv and results.csv)")
    group.addoption("--junit-link", default="", metavar="TEMPLATE",
                    help="a link added to each JUnit failure: {id}, {target}, {name} (id[target]) and {stem} "
                         "(the failure's repro/ folder name) are substituted, e.g. "
                         "'https://ci.example/artifacts/results/repro/{stem}/'")
    group.addoption("--skips", action="append", default=[], metavar="FILE",
                    help="regex lines: matching '<case id>[<target>]' are skipped (repeatable)")
    group.addoption("--flakes", action="append", default=[], metavar="FILE",
                    help="'REGEX STATUS[,STATUS]  # rate' lines: known flaky cases; a failure of one with a "
                         "listed status (fail, crash, timeout) is reported as flake (repeatable)")
    group.addoption("--flake-retries", type=int, default=0, metavar="N",
                    help="re-run a failing case up to N times; if a re-run passes it is a flake")
    group.addoption("--jobs", default=None, metavar="N|auto",
                    help="cases in flight: N pytest processes with an executor child each, their results "
                         "merged (auto: one per two cores, two from 2 cores on; -n N and -n auto mean the "
                         "same). Without it, or with -n 0: this pytest process, with one executor child "
                         "per core up to 4 (-n 0 --jobs N: N). harness/scheduler/layout.py")
    group.addoption(processes.IN_PROCESS, action="store_true", help=argparse.SUPPRESS)   # the scheduler's processes
    group.addoption("--no-spawner", action="store_true",
                    help="start each executor child as a new Python process instead of forking it from "
                         "a spawner that has imported the child's modules once (harness/executor/spawner.py)")
    group.addoption("--batch", type=int, default=0, metavar="K",
                    help="run up to K cases one after another in one context (GL targets), each failure "
                         "confirmed alone and a seeded share of passes audited alone; a disagreement is "
                         "order-dependent (harness/executor/batch.py). Default: a context per case")
    group.addoption("--audit", type=float, default=config_mod.AUDIT, metavar="FRACTION",
                    help=f"with --batch: the share of batched passes re-run alone to audit the batches "
                         f"(default {config_mod.AUDIT:g}; 1: every pass, so that any leak that makes a case "
                         f"pass is seen; docs/batch.md)")
    group.addoption("--shuffle", type=int, default=None, metavar="SEED",
                    help="run the cases in a random order drawn from SEED (state-leak hunting)")
    group.addoption("--resume", default=None, metavar="DIR",
                    help="run only the cases without a verdict in DIR/results.json (an interrupted "
                         "run) and merge the two into --results-dir")
    group.addoption("--case", action="append", default=[], metavar="ID",
                    help="run only this case (repeatable): a case id, or '<case id>[<target>]' for "
                         "one target")
    group.addoption("--shard", default="", metavar="K/N",
                    help="run only every N-th case starting at the K-th (1-based), for CI sharding; "
                         "default: $CI_NODE_INDEX/$CI_NODE_TOTAL where the CI sets them (GitLab's parallel:)")
    group.addoption("--shader-tests", nargs="+", action="extend", default=[], metavar="DIR_OR_FILE",
                    help="also run these piglit .shader_test files (directories searched) as cases "
                         "(harness/importers); without test paths, only these")


def _selected_targets(config) -> list[str]:
    names = config.getoption("target")
    if not names and config.stash[SETTINGS].knobs.targets:
        names = config.stash[SETTINGS].knobs.targets.split(",")
    explicit = bool(names)
    try:
        names = targets_mod.parse_list(",".join(names)) if names else targets_mod.default_names()
    except targets_mod.UnknownTarget as exc:
        raise HarnessUsageError(str(exc)) from None
    names = list(dict.fromkeys(names))
    if any(targets_mod.get(name).shader_cache_slot for name in names):
        shader_cache.seed(config.stash[LAYOUT].slots, config_mod.environ())   # before any child claims a slot
    # Each probe starts a child and waits for its driver: all at once.
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
    result = probe(target, config.stash[SETTINGS])
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
    worker = hasattr(config, "workerinput")
    if LAYOUT not in config.stash:                     # no cases to schedule (the self-tests)
        config.stash[LAYOUT] = layout_mod.Layout(1, 1)
    config.stash[SETTINGS] = _settings(config, worker)
    try:
        plugins.load(config.stash[SETTINGS].knobs.plugins)     # $HARNESS_PLUGINS: their backends and targets
    except plugins.PluginError as exc:
        raise HarnessUsageError(str(exc)) from None
    if worker:                                          # an xdist worker: the controller chose
        config.stash[TARGETS] = config.workerinput["harness_targets"]
        config.stash[GATE] = gating.Gate(*map(tuple, config.workerinput["harness_gate"][:2]),
                                         config.workerinput["harness_gate"][2])
        config.stash[RUN] = config.workerinput["harness_run"]
        config.stash[STARTED] = config.workerinput["harness_started"]
    elif _collects_cases(config):
        config.stash[GATE] = _gate(config, config.getoption("baseline"))
        config.stash[TARGETS] = _selected_targets(config)
        config.stash[RUN] = journal.new_run()
    else:                                               # the self-tests: gated only where asked
        config.stash[GATE] = _gate(config, config.getoption("baseline") or [gating.NONE])
        config.stash[TARGETS] = []
        config.stash[RUN] = ""
    if not worker:
        config.stash[STARTED] = time.time()
    config.stash[POOL] = Pipeline(config.stash[SETTINGS])
    results_dir = Path(config.getoption("results_dir"))
    audit = config.getoption("audit")
    if not 0.0 <= audit <= 1.0:
        raise HarnessUsageError(f"--audit {audit:g}: expected a fraction from 0 to 1")
    try:
        gate = config.stash[GATE]
        config.stash[RULES] = core.Rules(baseline=baseline.load(gate.baselines),
                                         flakes=tuple(baseline.load_flakes(gate.flakes)),
                                         flake_retries=config.getoption("flake_retries"), triage_dir=results_dir,
                                         audit=audit, audit_seed=config.getoption("shuffle") or 0)
        config.stash[SKIPS] = baseline.load_patterns(config.getoption("skips"))
    except baseline.BaselineError as exc:
        raise HarnessUsageError(str(exc)) from None
    limit = config.getoption("junit_limit")
    if limit is not None and limit < 0:
        raise HarnessUsageError(f"--junit-limit {limit}: expected a number of failures, 0 or more")
    config.stash[MANIFEST] = results.manifest(gate.baselines, gate.flakes, config.getoption("skips"),
                                              results.JunitOptions(limit, config.getoption("junit_link")))
    try:
        config.stash[SHARD] = sharding.chosen(config.getoption("shard"), config.stash[SETTINGS].knobs)
    except sharding.ShardError as exc:
        raise HarnessUsageError(str(exc)) from None
    config.stash[HARNESS] = {**provenance.run_properties(), **gating.mesa_properties(config.stash[SETTINGS].mesa),
                             **({"started": results.timestamp(config.stash[STARTED])} if STARTED in config.stash else {})}
    config.stash[DONE] = _resumed(config)
    config.stash[JOURNAL] = journal.Journal(results_dir, config.stash[RUN]) if config.stash[TARGETS] else None
    if config.stash[TARGETS] and not worker:
        _check_writable(results_dir)
        if not config.getoption("resume"):
            _clear_results(results_dir)             # an earlier run's records must not mix with these
        config.pluginmanager.register(ResultsWriter(results_dir, config), "harness-results")
        _interrupt_on_sigterm()


def _gate(config, words: list[str]) -> gating.Gate:
    """The baseline and flakes files that gate this run (harness/run/gating.py); xdist workers get
    the controller's."""
    try:
        return gating.choose(words, config.getoption("flakes"), config.stash[SETTINGS].mesa)
    except gating.GateError as exc:
        raise HarnessUsageError(str(exc)) from None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """The run's first line says which baseline gates it, or that none does and why."""
    config = session.config
    if config.stash.get(TARGETS, None) and not hasattr(config, "workerinput"):
        config.get_terminal_writer().line(config.stash[GATE].line)


def _settings(config, worker: bool) -> core.RunSettings:
    knobs = config_mod.knobs()
    try:
        build = mesa.chosen(config.getoption("mesa") or knobs.mesa or None)
    except mesa.MesaError as exc:
        raise HarnessUsageError(str(exc)) from None
    return core.RunSettings(case_timeout=config.getoption("case_timeout"), case_cpu=config.getoption("case_cpu"),
                            gl_platform=config.getoption("gl_platform"),
                            vk_without=config_mod.split_names(config.getoption("vk_without")),
                            vk_validation=config.getoption("vk_validation"),
                            **{field: config.getoption(field) for _, field, _, _ in paths.OPTIONS},
                            mesa=build,
                            fork=not config.getoption("no_spawner"),
                            children=config.stash[LAYOUT].children, batch=config.getoption("batch"),
                            knobs=knobs)


def _clear_results(folder: Path) -> None:
    journal.clear(folder)
    for name in ("results.json", "results.csv", "failures.csv", results.MANIFEST, results.RUN):
        (folder / name).unlink(missing_ok=True)


def _interrupt_on_sigterm() -> None:
    """SIGTERM (what a CI job's timeout sends first) ends the run as Ctrl-C does: pytest stops,
    and the session's end writes results and JUnit of what finished, exiting non-zero."""
    def interrupt(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)       # a second SIGTERM kills
        raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")
    signal.signal(signal.SIGTERM, interrupt)


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
        return {e.key: e for e in results.finished(Path(folder))}
    except results.ResultsError as exc:
        raise HarnessUsageError(f"--resume: {exc}") from None


def pytest_collection_modifyitems(config, items):
    """Target order, --case (keep only those), sharding (item i goes to shard i mod N, the same
    split on every worker), --resume (drop what has a verdict), the skips files, and --shuffle."""
    # Target by target, each in collection order: a worker needs one executor child at a time
    # (see CaseItem.teardown) and consecutive cases often share a program its child has linked.
    rank = {name: i for i, name in enumerate(config.stash[TARGETS])}
    items.sort(key=lambda item: rank.get(getattr(item, "target", None), -1))
    chosen = set(config.getoption("case"))
    if chosen:
        _deselect(config, items, [item for item in items if isinstance(item, CaseItem)
                                  and item.case.id not in chosen and item.name not in chosen])
    shard = config.stash[SHARD]
    if shard.n > 1:             # before --resume: a shard is the same cases, resumed or not
        _deselect(config, items, [item for i, item in enumerate(items) if not shard.picks(i)])
    done = config.stash[DONE]
    if done:
        _deselect(config, items, [item for item in items if isinstance(item, CaseItem) and item.name in done])
    for item in items:
        if isinstance(item, CaseItem):
            where = baseline.first_match(config.stash[SKIPS], item.case.id, item.target)
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


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """The scheduler decides how a conformance run runs (harness/scheduler/): `--jobs`, or xdist's
    `-n` read as the same number, gives a layout; more than one process, and the run is handed to
    the scheduler's processes (its exit status is this command's); one process, and it runs here,
    never through xdist. Runs that collect no cases (the self-tests) keep xdist as it is."""
    if hasattr(config, "workerinput") or not _collects_cases(config):
        return None
    try:
        config.stash[LAYOUT] = layout = _layout(config)
    except layout_mod.JobsError as exc:
        raise pytest.UsageError(f"--jobs {exc}") from None
    if hasattr(config.option, "numprocesses"):
        config.option.numprocesses, config.option.dist = None, "no"     # xdist stays out of it
    if layout.processes == 1:
        return None
    try:
        args = _without_jobs(list(config.invocation_params.args))
        if not any(arg.startswith("--rootdir") for arg in args):      # this run's, whatever its paths
            args.append(f"--rootdir={config.rootpath}")
        return processes.run(layout, args)
    except processes.ParallelError as exc:
        raise pytest.UsageError(str(exc)) from None


def _layout(config) -> layout_mod.Layout:
    """--jobs, else -n as given, on this machine's cores. Neither (or -n 0): this process, as pytest
    alone runs; so is a narrowed run under auto."""
    jobs = config.getoption("jobs")
    numprocesses = getattr(config.option, "numprocesses", None)
    if jobs is None and numprocesses not in (None, 0):
        jobs = layout_mod.AUTO if numprocesses in ("auto", "logical") else numprocesses
    listing = any(getattr(config.option, name, None) for name in LISTINGS)
    one_process = config.getoption("in_process") or jobs is None or numprocesses == 0 or listing or \
        (jobs == layout_mod.AUTO and _narrowed(config))
    return layout_mod.choose(layout_mod.parse(jobs), os.cpu_count() or 1, one_process)


# Options under which pytest lists or shows rather than runs: one process says it once.
LISTINGS = ("help", "version", "collectonly", "showfixtures", "show_fixtures_per_test", "markers",
            "setuponly", "setupplan")


def _narrowed(config) -> bool:
    """A run narrowed to a few cases or made to stop at the first failure (-k, --case, a node id,
    --lf, -x, --pdb, --sw) or shuffled (one order, --shuffle): `auto` keeps it in one process,
    where starting a second one and merging would cost more than it saves, and -x and --pdb act
    on the whole run. (A listing, --collect-only and the like, is one process whatever --jobs.)"""
    option = config.option
    return bool(config.getoption("case") or config.getoption("shuffle") is not None
                or any("::" in arg for arg in config.args)
                or any(getattr(option, name, None) for name in ("keyword", "lf", "exitfirst", "maxfail", "usepdb",
                                                                 "stepwise")))


def _without_jobs(args: list[str]) -> list[str]:
    """pytest's arguments less the ones the scheduler has read (-n, --numprocesses, --jobs)."""
    for option in ("-n", "--numprocesses", "--jobs"):
        args = option_values(args, option)[0]
    return args


@pytest.hookimpl(optionalhook=True)          # an xdist hook; pytest may run without xdist
def pytest_configure_node(node):
    node.workerinput["harness_targets"] = node.config.stash[TARGETS]
    gate = node.config.stash[GATE]
    node.workerinput["harness_gate"] = [list(gate.baselines), list(gate.flakes), gate.line]
    node.workerinput["harness_run"] = node.config.stash[RUN]
    node.workerinput["harness_started"] = node.config.stash[STARTED]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Queue a case in its target's child, and the case after it on this worker when that runs
    on the same target: the child runs the next case while this one is judged."""
    if isinstance(item, CaseItem) and not item.get_closest_marker("skip"):
        if item.config.stash[JOURNAL] is not None and item.config.getoption("in_process"):
            item.config.stash[JOURNAL].begin(item.name)     # for the scheduler that started it, should it die
        item.config.stash[POOL].queue(item.target, item.case, _following(item, nextitem))


def pytest_runtest_teardown(item, nextitem):
    """Cases run target by target: after a target's last case on this worker, its child
    (and the driver's memory) goes. Shuffled runs interleave targets and keep them all."""
    if isinstance(item, CaseItem) and item.config.getoption("shuffle") is None \
            and not same_target(item, nextitem):
        item.config.stash[POOL].close(item.target)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """The first target's spawner (harness/executor/spawner.py) starts before collection, so that its
    imports overlap it. Collection makes the objects that live until the run ends: every Case
    and item, some 190,000 objects for the three families. Python's full collections walk
    every tracked object, and with these growing they ran again and again during collection
    and later, each slower than the last (docs/decisions.md#gc-freeze): no
    collection while collecting, and what it made is frozen out of later ones."""
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


def _following(item, nextitem):
    """The cases after this one on its target that will run, in the run order where it is known
    (without it, the next item only)."""
    place = item.config.stash.get(ORDER, {}).get(item)
    later = [nextitem] if place is None else item.session.items[place + 1:]
    for other in later:
        if not same_target(item, other) or other.get_closest_marker("skip"):
            return
        yield other.case


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
    lines = [f"harness {config.stash[SHARD].describe()}"] if names and config.stash[SHARD].n > 1 else []
    lines += [f"harness targets: {', '.join(names)}"] if names else []
    build = config.stash[SETTINGS].mesa if SETTINGS in config.stash else None
    if names and build is not None:
        lines.append(f"harness Mesa: {build.version} from {build.root} (--mesa)")
    if config.getoption("shuffle") is not None:
        lines.append(f"harness case order: shuffled with --shuffle {config.getoption('shuffle')}")
    return lines


def pytest_collect_file(file_path: Path, parent):
    if catalog.family_of_file(file_path):
        return CaseFile.from_parent(parent, path=file_path)
    return None


class HarnessUsageError(UsageError):
    """Bad input on the command line: one line on stderr, exit status 2 (see pytest_cmdline_main)."""


class ResultsWriter:
    """Controller-side: the records of cases no item recorded (a skips-file entry, a setup
    error, an xdist worker that died mid-case) go to the controller's journal; when the session
    ends, the run's files are derived from every journal of this run and the resumed entries."""

    def __init__(self, folder: Path, config):
        self.folder = folder
        self.config = config

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report):
        props = dict(report.user_properties)
        crashed = terminal.worker_crash(report)
        if crashed:                     # no properties: the worker died mid-case
            record = core.crash_record(*crashed, str(report.longrepr or "the xdist worker died"))
        elif "case_id" in props and report.when == "setup" and not report.passed:
            message = report.longrepr[2].removeprefix("Skipped: ") if isinstance(report.longrepr, tuple) \
                else str(report.longrepr or "")
            status = Status.SKIP if report.skipped else Status.ERROR
            record = Record(props["case_id"], props["target"], Outcome(status), message=message)
        else:
            return
        self.config.stash[JOURNAL].append(journal_entry(self.config, record))

    def pytest_sessionfinish(self, session):
        """Also on Ctrl-C and SIGTERM: what finished is written, and --resume can run the rest."""
        self.config.stash[JOURNAL].close()
        fresh = journal.records(self.folder, self.config.stash[RUN])
        keys = {e.key for e in fresh}
        earlier = [e for name, e in self.config.stash[DONE].items() if name not in keys]
        results.write(self.folder, earlier + fresh, self.folder / "junit.xml", self.config.stash[HARNESS],
                      self.config.stash[MANIFEST])


def pytest_sessionfinish(session, exitstatus):
    session.config.stash[POOL].close()
    config = session.config
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and config.stash.get(TARGETS, None) \
            and not hasattr(config, "workerinput"):
        config.get_terminal_writer().line(
            f"harness: the selection is empty: no case of the chosen families matched on "
            f"{', '.join(config.stash[TARGETS])} (check -k, --shard, --resume)", red=True)
