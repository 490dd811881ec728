"""The executor's child process: holds one backend (and its context) and runs cases sent to it.

Started as `python -m harness.executor.child OPTIONS` (harness.base.config.ChildOptions as JSON) with the
target's environment, or forked from a spawner that has imported this module (spawner.py).
Requests (protocol.Request, pickled) arrive on stdin; replies (a Result's JSON, an observation's
bytes raw after it) go out on the original stdout. Anything else written to stdout (drivers do print) is
redirected to stderr so it cannot corrupt the framing.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import queue
import resource
import sys
import threading
import time
import traceback
from dataclasses import replace
from typing import Any, Iterator, NoReturn

from harness.mesa import runtime as mesa
from harness.base import plugins, profiling
from harness.executor import protocol, shader_cache, targets
from harness.backends import registry
from harness.backends import AdoptingBackend, Backend, BackendError, DeviceLost, Skip
from harness.base.errors import HarnessFault, LayerFault
from harness.base.config import ChildOptions
from harness.executor.protocol import Request
from harness.model.facts import Facts, Known
from harness.model.status import Reply, Result


def with_mesa(info: Facts) -> Facts:
    """The facts plus which Mesa answered: the version the driver reports and the Mesa
    libraries this process really mapped (--mesa checks both against the chosen build)."""
    return replace(info, mesa=mesa.reported_version(info.version, info.driver_info),
                   mesa_libraries=tuple(mesa.loaded_libraries()))


def start_reply(backend: Backend, known: Known | None) -> Result:
    """The reply to a child's first request. `info`: the facts queried (and, from a backend that
    can hand them down, `known`: what a replacement child may adopt instead). `adopt` (`known`
    given): a replacement child takes the first child's facts and answers only that it started;
    a backend that cannot adopt queries its facts as for `info`. Either way a backend that could
    not start (Unusable) says why here.

    An adopting child does not run `with_mesa` again: the --mesa check is made on the first
    child's facts (probe.not_under_test), and a replacement has the same launcher and
    environment; forked, it maps what the spawner preloaded from that first child, so its
    libraries would be the same list read again. Nor did the check ever look at a replacement."""
    if known is not None and isinstance(backend, AdoptingBackend):
        backend.adopt(known)
        return Result(Reply.OK)
    info = with_mesa(backend.info())
    return Result(Reply.OK, info=info, known=backend.known() if isinstance(backend, AdoptingBackend) else None)


def serve(backend: Backend, inp: int, out: int) -> None:
    # The parent may queue the next case while this one's reply is being written: requests are
    # read on their own thread, so neither side can block the other on a full pipe.
    requests: queue.SimpleQueue[Request | None] = queue.SimpleQueue()
    threading.Thread(target=_read_requests, args=(inp, requests), daemon=True).start()
    while (request := requests.get()) is not None:
        protocol.send_reply(out, handle(backend, request))


def _read_requests(inp: int, requests: queue.SimpleQueue[Request | None]) -> None:
    try:
        while True:
            requests.put(protocol.recv_request(inp))
    except protocol.ChildGone:
        pass
    except Exception:                       # a garbled request: say so, then stop serving
        traceback.print_exc(file=sys.stderr)
    requests.put(None)


def handle(backend: Backend, request: Request) -> Result:
    op, case_id = request.op, request.case.id if request.case is not None else ""
    start = time.perf_counter()

    def took() -> float:
        return time.perf_counter() - start

    try:
        if op in ("info", "adopt"):
            try:
                with profiling.section(f"backend.{op}"):
                    return start_reply(backend, request.known if op == "adopt" else None)
            except Exception as exc:
                return Result(Reply.ERROR, f"{exc}")
        if op == "run" and request.case is not None:
            case = request.case
            budget = case.requires.address_space
            batched = {"batch": request.batch} if request.batch else {}     # only to a backend that batches
            try:
                with address_space_budget(budget), profiling.section("backend.run"):
                    observation = backend.run(case, **batched)
            except (BackendError, DeviceLost, Skip, HarnessFault):     # never blamed on the budget
                raise
            except Exception as exc:        # under a budget: an allocation that failed (a context, an array)
                if not budget:
                    raise
                return Result(Reply.FAIL, f"{type(exc).__name__}: {exc} (the case's address-space "
                              f"budget, rlimit {budget} bytes beyond what the child had mapped, was in force)",
                              duration=took())
            return Result(Reply.OK, observation=observation, duration=took())
        return Result(Reply.ERROR, f"unknown request {op!r}")
    except Skip as exc:
        return Result(Reply.SKIP, str(exc))
    except LayerFault as exc:       # the harness's own layer failed: no verdict on the driver
        return Result(Reply.ERROR, exc.on(case_id), duration=took())
    except HarnessFault as exc:     # the harness's own fault (a malformed case, no backend): no verdict
        return Result(Reply.ERROR, f"harness fault: {exc}", duration=took())
    except BackendError as exc:
        return Result(Reply.FAIL, str(exc), duration=took())
    except DeviceLost as exc:       # the executor replaces this child: its device cannot run another case
        return Result(Reply.CRASH, str(exc), duration=took())
    except Exception as exc:  # a harness bug: report it on this case, keep serving
        tb = traceback.format_exc(limit=4)
        print(tb, file=sys.stderr, flush=True)
        return Result(Reply.ERROR, f"{type(exc).__name__}: {exc}")


@contextlib.contextmanager
def address_space_budget(extra: int) -> Iterator[None]:
    """RLIMIT_AS while one case runs: what this process maps now plus `extra` bytes (none if
    0). The soft limit goes back afterwards: a process may raise it again up to the hard one."""
    if extra <= 0:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped_bytes() + extra
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def mapped_bytes() -> int:
    """This process's address space now (VmSize)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


def main(argv: list[str] | None = None) -> None:
    """Also run in a fork of harness.executor.spawner, which has imported this module already."""
    argv = sys.argv[1:] if argv is None else argv
    options = ChildOptions.from_arg(argv[0])
    out = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        plugins.load(options.plugins)   # the parent's plugins: the backends and targets they add
        why = ""
    except plugins.PluginError as exc:
        why = str(exc)
    target = targets.TARGETS.get(options.target)
    if target is not None and target.shader_cache_slot:
        shader_cache.claim(os.environ)  # before the driver loads; the slot is held until this process exits
    try:
        backend = Unusable(why) if why else registry.make(options)
    except Exception as exc:  # no driver, no display, no backend: say so on every request
        backend = Unusable(f"{type(exc).__name__}: {exc}")
    if options.profile:       # timers for bench/bench.py; a driver may crash the child: write every second
        profiling.start("child", options.profile, every=1.0).mark("backend ready")
    serve(backend, 0, out)


class NotStarted(HarnessFault):
    """The child's backend did not start: no case ran on the driver, so none can fail on it."""


class Unusable:
    """Stands in for a backend that could not start, so the parent gets one clear line; every
    request to it is the harness's `error`, never a driver's `fail`."""

    def __init__(self, why: str):
        self.why = why

    def info(self) -> NoReturn:
        raise NotStarted(self.why)

    def known(self) -> NoReturn:
        raise NotStarted(self.why)

    def adopt(self, known: Known) -> NoReturn:
        raise NotStarted(self.why)

    def run(self, case: Any) -> NoReturn:
        raise NotStarted(self.why)


def exit_now(code: int) -> None:
    """End the process as a normal exit would, less the interpreter's finalization: atexit's
    handlers (the profile's timers) run, the driver's own exit handlers do not. Nothing here
    needs cleaning up, and the executor waits for this exit, which finalization with PyOpenGL,
    numpy and a driver loaded made slow (docs/decisions.md#exit-without-finalization)."""
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


if __name__ == "__main__":
    main()
    exit_now(0)
