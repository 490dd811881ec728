"""A run split over N pytest processes (the layout's, harness/scheduler/layout.py), each running
every N-th case (`--shard K/N`) with executor children of its own, then their results merged into
one --results-dir, as one process would have written them. `pytest` hands a conformance run here
when its layout has more than one process (harness/pytest_adapter/plugin.py), and so does
`python -m harness parallel N|auto` (harness/cli/parallel.py).

Why not pytest-xdist alone: its single controller takes every report of every worker in turn,
which caps the whole run however many cores there are (bench/bench.py's profile of a split run). The
N processes here share nothing until the merge, so the run grows with the cores until the
machine is full. Each process pays its own start-up and collection (the case cache makes that
about a second), and prints to its own log under RESULTS_DIR/shards/.

A killed run keeps what it finished: each process journals its records (harness/run/journal.py);
SIGTERM or Ctrl-C of this command passes the signal on and merges what the processes wrote; if
this command is SIGKILLed, the processes get SIGTERM from the kernel (PR_SET_PDEATHSIG) and
write theirs. `--resume DIR` is handed to every process, as what DIR's run finished.

The run is gated once, here (harness/run/gating.py: `--baseline auto` by default), and its first
line says on what; every process gets the chosen files as its --baseline and --flakes.

A run that is itself one shard of a CI job (`--shard K/N`, else CI_NODE_INDEX/CI_NODE_TOTAL)
splits that shard's cases over its processes: process p runs the cases of shard K/N that are
p-th modulo its process count, one shard of the whole list (sharding.Shard.split).
"""
from __future__ import annotations

import ctypes
import json
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

from harness.base import args as args_mod
from harness.base import config, options, provenance
from harness.run import gating, journal, sharding
from harness.mesa import runtime as mesa
from harness.results import files as results
from harness.executor import shader_cache
from harness.scheduler.layout import Layout
from harness.model import ids, outcome
from harness.model.status import Status
from harness.base.errors import UsageError

# What the scheduler reads of pytest's arguments, by field (harness/base/args.py), and the options
# it decides itself, which a run it splits must not give.
SCHEDULED = ("shard", "junitxml", "results_dir", "resume", "baseline", "flakes", "mesa")
OWN = ("numprocesses", "dist", "shuffle", "jobs", "in_process")
IN_PROCESS = "--in-process"     # what the processes are told: run here, with the layout's children
TAIL = 3000             # characters of a failed shard's log shown
RESTARTS = 3            # times a process killed by a signal starts again
SHOWN = 50              # failures listed by name


class ParallelError(UsageError, ValueError):
    """Arguments this command cannot split (one line, exit 4 as pytest's usage errors)."""


def scheduled(args: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """(the values of the options the scheduler reads, SCHEDULED: every one given, in order; the
    other pytest arguments, verbatim and in order). An option it sets itself is refused."""
    try:
        found, rest = args_mod.taken(args, SCHEDULED + OWN)
    except args_mod.ArgsError as exc:
        raise ParallelError(str(exc)) from None
    for name in OWN:
        if found[name]:
            flag = args_mod.PYTEST[name][0][0] if name in args_mod.PYTEST else options.OPTIONS[name].flag
            raise ParallelError(f"{flag}: `parallel` chooses the shards itself; run without it")
    return found, rest


def _command(rest: list[str], shard: sharding.Shard, folder: Path) -> list[str]:
    """One process's pytest command. Options as one word each: a path given as a word of its own
    counts where pytest chooses its rootdir, and a results folder outside the tree would move it
    there. pytest's logging plugin captures log records around every phase of every item; no
    case logs, and a process's output is its log file: it is left out unless its options are.
    Output is captured at sys.stdout and sys.stderr, not at the file descriptors (pytest's default,
    a descriptor swap and a file read around every phase): no driver runs in this process (each
    child's stderr goes to a file of its own, harness/executor/lifecycle.py), and what Python writes
    is captured as before. Given first, so that a -s or --capture of the user's wins."""
    quiet = [] if any(a.startswith(("--log", "--show-capture")) for a in rest) else ["-p", "no:logging"]
    return [sys.executable, "-m", "pytest", "--capture=sys", *rest, *quiet, "-p", "no:xdist", "-q",
            f"--shard={shard}", f"--results-dir={folder}"]


def exit_status(codes: list[int]) -> int:
    """One exit status for the run, as pytest's: a usage or internal error of any shard first,
    then test failures (1); 5 only if no shard ran a test; else 0."""
    for worst in (4, 3, 2):
        if worst in codes:
            return worst
    if any(c not in (0, 1, 5) for c in codes):      # killed by a signal, say
        return 3
    if 1 in codes:
        return 1
    return 5 if codes and all(c == 5 for c in codes) else 0


def _start(cmd: list[str], log_path: Path, mode: str) -> subprocess.Popen[bytes]:
    with open(log_path, mode) as log:           # the child has its own copy of the descriptor
        return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)


def _wait(procs: list[subprocess.Popen[bytes] | None], k: int, cmd: list[str], folder: Path) -> int:
    """Process k's exit status. A process killed by a signal (an OOM killer, a driver that takes
    its process down) loses only the case it was on: that case is recorded as a crash in its
    journal, and the process starts again on what it had left (--resume its folder), up to
    RESTARTS times; the cases it finished stay in its journal."""
    code = _started(procs[k]).wait()
    for _ in range(RESTARTS):
        if code >= 0 or code == -signal.SIGTERM:        # an exit, or our own SIGTERM passed on
            return code
        dead = journal.Journal(folder, f"scheduler-{uuid.uuid4().hex[:8]}")
        for key in journal.in_flight(folder):
            case_id, target = ids.split(key) or (key, "")
            dead.append(outcome.Record(case_id, target, outcome.Outcome(Status.CRASH),
                                       f"the pytest process running it died: {signal.Signals(-code).name} "
                                       f"(the run's process {k + 1}, restarted on the cases it had left)"))
        dead.close()
        procs[k] = _start(cmd + [f"--resume={folder}"], folder / "pytest.log", "a")
        code = _started(procs[k]).wait()
    return code


def _started(proc: subprocess.Popen[bytes] | None) -> subprocess.Popen[bytes]:
    assert proc is not None, "a process waited on before it started"
    return proc


def _die_with_parent() -> None:
    """In a shard process before exec: SIGTERM when this command dies, however it dies."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)        # PR_SET_PDEATHSIG


def _resumed(folder: Path, out: Path) -> Path:
    """What the run in `folder` finished (its results and its processes' journals), in one
    results file every shard reads before its folder is replaced."""
    path = out / "resumed.json"
    try:
        entries = results.finished(folder)         # before the shards' folders are replaced
    except results.ResultsError as exc:
        raise ParallelError(f"--resume: {exc}") from None
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"results": [e.to_json() for e in entries]}))
    return path


def gate(found: dict[str, list[str]]) -> gating.Gate:
    """The run's gate, of its --baseline, --flakes and --mesa (the last one counts, as in pytest)."""
    try:
        return gating.choose(found["baseline"], found["flakes"], mesa.chosen(_last(found, "mesa")))
    except (gating.GateError, mesa.MesaError) as exc:
        raise ParallelError(str(exc)) from None


def _last(found: dict[str, list[str]], name: str) -> str | None:
    return found[name][-1] if found[name] else None


def run(layout: Layout, args: list[str], junitxml: Path | None = None) -> int:
    """Run pytest `args` over the layout's processes, merge their results into --results-dir (and
    JUnit also into `junitxml`, pytest's --junitxml, given once for the whole run)."""
    n = layout.processes
    found, rest = scheduled(args)
    given = _last(found, "junitxml")                    # one JUnit for the run, not one per process
    junitxml = junitxml or (Path(given) if given else None)
    try:
        outer = sharding.chosen(_last(found, "shard") or "", config.knobs())
    except sharding.ShardError as exc:
        raise ParallelError(str(exc)) from None
    out = Path(_last(found, "results_dir") or options.OPTIONS["results_dir"].default)
    resume = _last(found, "resume")
    chosen = gate(found)
    print(chosen.line, flush=True)                      # the run's first line: what gates it
    if outer.n > 1:                                     # the second: which part it runs
        print(f"harness parallel: {outer.describe()}, over {n} processes", flush=True)
    # each process's own options, of the values read: the gate resolved, the Mesa, what to resume
    rest += chosen.options() + [f"--mesa={m}" for m in found["mesa"][-1:]]
    if resume is not None:
        rest += [f"--resume={_resumed(Path(resume), out)}"]
    rest += [IN_PROCESS, "--jobs", str(layout.children)]
    shader_cache.seed(layout.slots, config.environ())   # each process seeds only for its own children
    shards = [out / "shards" / f"{k}" for k in range(1, n + 1)]
    commands = [_command(rest, outer.split(sharding.Shard(k, n)), folder) for k, folder in enumerate(shards, 1)]
    for folder in shards:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    start = time.monotonic()
    procs: list[subprocess.Popen[bytes] | None] = [None] * n

    def pass_on(signum: int, frame: object) -> None:                 # the processes write what they finished, then we merge
        for proc in procs:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
    previous = {sig: signal.signal(sig, pass_on) for sig in (signal.SIGTERM, signal.SIGINT)}
    codes = []
    try:
        for k in range(n):
            procs[k] = _start(commands[k], shards[k] / "pytest.log", "w")
        for k in range(n):
            codes.append(_wait(procs, k, commands[k], shards[k]))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    wall = time.monotonic() - start
    for folder in shards:                       # one that died for good: what its journal kept
        kept = [] if (folder / "results.json").exists() else journal.records(folder)
        if kept:
            results.write(folder, kept)
    ran = [folder for folder in shards if (folder / "results.json").exists()]
    entries = results.merge(ran, out, run_properties=provenance.run_properties()) if ran else []
    if junitxml is not None and (out / "junit.xml").exists():
        junitxml.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out / "junit.xml", junitxml)
    for k, (code, folder) in enumerate(zip(codes, shards), 1):
        if code not in (0, 1):
            tail = (folder / "pytest.log").read_text(errors="replace")[-TAIL:]
            print(f"--- shard {k}/{n} exited {code} ({folder / 'pytest.log'}):\n{tail}", file=sys.stderr)
    failed = [e for e in entries if e.outcome.failed]
    for entry in failed[:SHOWN]:            # what fails the run, as pytest's summary would list it
        first = entry.message.splitlines()[:1]
        print(f"FAILED {entry.key}: {first[0] if first else entry.status}")
    if len(failed) > SHOWN:
        print(f"... and {len(failed) - SHOWN} more (results.json)")
    counts = Counter(e.outcome.label for e in entries)
    print(f"{len(entries)} results from {n} processes in {wall:.1f} s ({len(entries) / max(wall, 1e-9):.1f} "
          f"cases/s): " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + f"; merged into {out}")
    if 1 in codes:
        print(f"failures: {out / 'failures.csv'}; each process's output: {out / 'shards'}/K/pytest.log")
    words, kinds = outcome.summary([e.outcome for e in entries])
    if kinds:
        print(f"harness: the failures include {kinds}")
    print(f"{'=' * 20} {words or 'no tests ran'} in {wall:.2f}s ({n} processes) {'=' * 20}")   # as pytest ends
    status = exit_status(codes)
    return 1 if status in (0, 5) and failed else status     # a crash recorded for a process that died
