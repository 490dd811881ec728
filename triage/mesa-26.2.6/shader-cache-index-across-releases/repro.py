"""Mesa 26.x dies of SIGBUS when a Mesa 22.3.6 process shares its default shader cache.

One llvmpipe child of Mesa 26.2.6 (from bin/fetch-mesa) and the system's Mesa 22.3.6, both with
the same MESA_SHADER_CACHE_DIR (a fresh folder): the 26.2.6 child compiles, a 22.3.6 process
starts GL, the 26.2.6 child compiles more. Run from the repository root:

    .venv/bin/python triage/mesa-26.2.6/shader-cache-index-across-releases/repro.py
"""
import collections
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from harness.sources import catalog
from harness.mesa import runtime as mesa
from harness.executor import targets  # noqa: E402
from harness.executor.executor import Executor  # noqa: E402
from harness.oracle.verdict import judge  # noqa: E402

cache = tempfile.mkdtemp(prefix="shared-mesa-cache-")
index = Path(cache) / "mesa_shader_cache" / "index"
build = mesa.locate("mesa/26.2.6-1")
# the harness gives each build a cache of its own; here both releases share one, as by default
executor = Executor(targets.get("llvmpipe"), mesa=build, case_timeout=60,
                    extra_env={"MESA_SHADER_CACHE_DIR": cache})
cases = [c for c in catalog.cases("tess") if c.id.startswith("tess/no-tcs/quads/equal/types/")][:40]
executor.run(cases[0])
print(f"26.2.6 child compiled: index {index.stat().st_size} bytes")
subprocess.run([sys.executable, "-m", "harness", "targets", "llvmpipe"], capture_output=True,
               env=os.environ | {"MESA_SHADER_CACHE_DIR": cache}, check=True)         # the system's 22.3.6
print(f"after one 22.3.6 process: index {index.stat().st_size} bytes")
seen = collections.Counter()
for case in cases[1:]:
    result = executor.run(case)
    seen[str(judge(case, result, "llvmpipe 26.2.6").status) + (" (SIGBUS)" if "SIGBUS" in (result.message or "") else "")] += 1
executor.close()
print(dict(seen))
