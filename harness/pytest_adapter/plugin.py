"""pytest plugin, an adapter over the run core: pytest's hooks, each handing its work to the
module of its concern.

- options: the run options' table (harness/base/options.py), all of them in pytest's parser;
- configure.py: the options resolved into one RunSettings and one Rules value, the gate, the
  targets, the shard and the journal, kept in one PluginState (state.py);
- fanout.py: a run of several processes handed to the scheduler (harness/scheduler/);
- handshake.py: what an xdist controller tells its workers;
- collection of every family's cases x every selected target (items.py, collect.py), and
  ordering.py: the order cases run in and which run;
- lean.py: a scheduler's process runs a case item as one call, not pytest's three phases;
- results.py: each case's record goes to this process's journal as it lands
  (harness/run/journal.py); results.json, results.csv, failures.csv and junit.xml are derived
  from the journal when the session ends, also on SIGTERM and Ctrl-C, and `--resume DIR` runs
  only what has no record in DIR.
"""
from __future__ import annotations

import gc
from pathlib import Path
from typing import Any, Generator, Protocol

import pytest

from harness.base import options
from harness.pytest_adapter import configure as configure_mod, fanout, handshake, lean, ordering, state as state_mod, terminal
from harness.pytest_adapter.configure import HarnessUsageError
from harness.pytest_adapter.items import OUTCOME, CaseFile, CaseItem, same_target
from harness.scheduler import layout as layout_mod, processes
from harness.sources import catalog

__all__ = ["HarnessUsageError"]
pytest_plugins = ["harness.pytest_adapter.collect"]          # --shader-tests: piglit files as cases


class _WorkerNode(Protocol):
    """What pytest_configure_node reads of xdist's WorkerController (xdist ships no types)."""
    config: pytest.Config
    workerinput: dict[str, Any]          # what xdist sends the worker as it is


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add_options(parser.getgroup("harness", "GL/Vulkan conformance harness"))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.is_registered(terminal):
        config.pluginmanager.register(terminal, "harness-terminal")      # the terminal's names for outcomes
    try:
        configure_mod.configure(config)
    except HarnessUsageError as exc:
        pytest.exit(f"ERROR: {exc}", returncode=2)       # usage errors: one line, exit status 2


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """The run's first line says which baseline gates it, or that none does and why."""
    config = session.config
    if state_mod.of(config).targets and not hasattr(config, "workerinput"):
        config.get_terminal_writer().line(state_mod.of(config).gate.line)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> int | None:
    """The scheduler decides how a conformance run runs (harness/scheduler/): `--jobs`, or xdist's
    `-n` read as the same number, gives a layout; more than one process, and the run is handed to
    the scheduler's processes (its exit status is this command's); one process, and it runs here,
    never through xdist. Runs that collect no cases (the self-tests) keep xdist as it is."""
    if hasattr(config, "workerinput") or not configure_mod.collects_cases(config):
        return None
    narrowing = bool(config.getoption("case")) or config.getoption("shuffle") is not None
    try:
        layout = fanout.layout(config.option, config.args, config.getoption("jobs"),
                               config.getoption("in_process"), narrowing)
    except layout_mod.JobsError as exc:
        raise pytest.UsageError(f"--jobs {exc}") from None
    state_mod.of(config).layout = layout
    if hasattr(config.option, "numprocesses"):
        config.option.numprocesses, config.option.dist = None, "no"     # xdist stays out of it
    if layout.processes == 1:
        return None
    try:
        return processes.run(layout, fanout.process_args(config.invocation_params.args, config.rootpath))
    except processes.ParallelError as exc:
        raise pytest.UsageError(str(exc)) from None


@pytest.hookimpl(optionalhook=True)          # an xdist hook; pytest may run without xdist
def pytest_configure_node(node: _WorkerNode) -> None:
    handshake.send(state_mod.of(node.config), node.workerinput)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    ordering.modify(config, items)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """Queue a case in its target's child, and the case after it on this worker when that runs
    on the same target: the child runs the next case while this one is judged. In a scheduler's
    process the case item then runs as one call (lean.py); elsewhere pytest's protocol runs it."""
    if isinstance(item, CaseItem) and not item.get_closest_marker("skip"):
        state = state_mod.of(item.config)
        if state.journal is not None and item.config.getoption("in_process"):
            state.journal.begin(item.name)     # for the scheduler that started it, should it die
        state.pipeline.queue(item.target, item.case,
                             ordering.following(item, nextitem, state.order, item.session.items))
    if lean.applies(item):
        lean.run(item, nextitem)
        _after_case(item, nextitem)
        return True
    return None


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    _after_case(item, nextitem)


def _after_case(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Cases run target by target: after a target's last case on this worker, its child
    (and the driver's memory) goes. Shuffled runs interleave targets and keep them all."""
    if isinstance(item, CaseItem) and item.config.getoption("shuffle") is None \
            and not same_target(item, nextitem):
        state_mod.of(item.config).pipeline.close(item.target)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """The first target's spawner (harness/executor/spawner.py) starts before collection, so that its
    imports overlap it. Collection makes the objects that live until the run ends: every Case
    and item, some 190,000 objects for the three families. Python's full collections walk
    every tracked object, and with these growing they ran again and again during collection
    and later, each slower than the last (docs/decisions.md#gc-freeze): no
    collection while collecting, and what it made is frozen out of later ones."""
    config = session.config
    state = state_mod.of(config)
    if state.targets and not config.pluginmanager.has_plugin("dsession"):
        state.pipeline.prepare(state.targets[0])      # the first cases' spawner imports meanwhile
    gc.disable()
    try:
        return (yield)
    finally:
        gc.enable()
        gc.freeze()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Without xdist this process runs session.items in order, so the cases after the next one
    are known and can be queued in further children (under xdist the controller decides)."""
    state = state_mod.of(session.config)
    if not hasattr(session.config, "workerinput"):
        state.order = {item: i for i, item in enumerate(session.items)}
    # The spawner started before collection is for nothing where -k, --shard or --resume left
    # its target no case here.
    state.pipeline.keep_only({item.target for item in session.items if isinstance(item, CaseItem)})


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) \
        -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """The call report carries the case's outcome label, for the terminal (also from an xdist
    worker: a report's plain attributes travel with it)."""
    report = yield
    if call.when == "call" and OUTCOME in item.stash:
        setattr(report, terminal.OUTCOME_ATTRIBUTE, item.stash[OUTCOME])
    return report


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = state_mod.of(config)
    names = state.targets
    lines = [f"harness {state.shard.describe()}"] if names and state.shard.n > 1 else []
    lines += [f"harness targets: {', '.join(names)}"] if names else []
    build = state.settings.mesa
    if names and build is not None:
        lines.append(f"harness Mesa: {build.version} from {build.root} (--mesa)")
    if config.getoption("shuffle") is not None:
        lines.append(f"harness case order: shuffled with --shuffle {config.getoption('shuffle')}")
    return lines


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> CaseFile | None:
    if catalog.family_of_file(file_path):
        return CaseFile.from_parent(parent, path=file_path)
    return None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
    config = session.config
    state = state_mod.of(config)
    if state.pool is not None:
        state.pool.close()
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and state.targets \
            and not hasattr(config, "workerinput"):
        config.get_terminal_writer().line(
            f"harness: the selection is empty: no case of the chosen families matched on "
            f"{', '.join(state.targets)} (check -k, --shard, --resume)", red=True)
