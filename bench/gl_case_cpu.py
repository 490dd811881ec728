"""CPU the GL backend spends per case, in one process on llvmpipe: the families' cases run
through GLBackend.run in batches of 64 (as a batched child runs them), `--passes` times over,
each pass's process CPU printed. Run it with PYTHONPATH at each tree to compare, alternating:

    PYTHONPATH=<tree> .venv/bin/python bench/gl_case_cpu.py tess draw_params --passes 3

Skips and failures count as cases (the backend ran them); a BackendError is caught as the
executor's child would."""
from __future__ import annotations

import argparse
import time

from harness.backends import BackendError, Skip
from harness.backends.gl.runner import GLBackend
from harness.sources.catalog import FamilySource

BATCH = 64


def one_pass(backend: GLBackend, cases: list, batch: int) -> tuple[float, int]:
    errors = 0
    start = time.process_time()
    for i, case in enumerate(cases):
        try:
            backend.run(case, batch="new" if i % batch == 0 else "keep")
        except (BackendError, Skip):
            errors += 1
    return time.process_time() - start, errors


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("families", nargs="+")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    cases = [c for name in args.families for c in FamilySource(name).cases()]
    backend = GLBackend()
    one_pass(backend, cases[:BATCH], BATCH)              # warm: contexts, facts, the shader cache
    for n in range(args.passes):
        cpu, errors = one_pass(backend, cases, BATCH)
        print(f"pass {n}: {len(cases)} cases, {cpu:.2f} s CPU ({cpu / len(cases) * 1e3:.3f} ms a case), "
              f"{errors} not observed")


if __name__ == "__main__":
    main()
