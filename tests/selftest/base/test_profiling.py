"""bench/bench.py's timers (harness/base/profiling.py) in a child with two threads: the request
thread times unpickling while the main thread times the backend, and both may write the file."""
from __future__ import annotations

import json
import threading

from harness.base import profiling


def test_two_threads_adding_and_writing_lose_nothing_and_raise_nothing(tmp_path):
    timers = profiling.Timers("child", str(tmp_path), at_exit=False, every=1e-9)      # a write after every section
    errors = []

    def hammer(prefix):
        try:
            for i in range(1500):
                timers.add(f"{prefix}.{i % 50}", 0.001, 0.001)      # new names while the other writes
        except Exception as exc:                                    # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(p,)) for p in ("pickle.loads", "backend.run")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    timers.write()
    (written,) = tmp_path.glob("child-*.json")
    sections = json.loads(written.read_text())["sections"]
    assert sum(count for count, _, _ in sections.values()) == 3000


def test_sections_cost_nothing_but_a_check_when_off_and_are_counted_when_on(tmp_path):
    """Sections are named in the code that runs them; off, `section` hands back one shared
    no-op context; on, every section is counted under its name."""
    assert not profiling._active
    assert profiling.section("judge") is profiling.section("compile+link")
    profiling.start("main", str(tmp_path), at_exit=False)
    try:
        for _ in range(3):
            with profiling.section("judge"):
                pass
        profiling.timed("executor.run")(lambda: None)()
        profiling._active[0].write()
    finally:
        profiling.forget()
    (written,) = tmp_path.glob("main-*.json")
    sections = json.loads(written.read_text())["sections"]
    assert sections["judge"][0] == 3 and sections["executor.run"][0] == 1
