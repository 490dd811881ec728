"""The Vulkan layer's in-process compile (harness/backends/vk/spirv.py) against glslangValidator, over
a folder of translated shaders named `ANY.STAGE.glsl` (STAGE: vs tcs tes gs fs): for each shader
and for a few mutants of it (edits glslang refuses or takes), whether both accept or refuse it,
whether the SPIR-V is byte-identical, and the CPU each spends per shader.

    PYTHONPATH=$PWD .venv/bin/python bench/spirv_parity.py FOLDER [--limit N] [--no-mutants]
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from harness.backends.vk import spirv
from harness.model.glfacts import STAGE


def mutants(source: str) -> list[str]:
    """Deterministic edits: a wrong type, a line gone, no #version, a location used twice, an
    ill-typed declaration; some glslang refuses, some it takes."""
    lines = source.splitlines(keepends=True)
    body = source.index("void main()")
    return [source.replace("vec4(", "vec3(", 1),
            "".join(lines[:len(lines) // 3] + lines[len(lines) // 3 + 1:]),
            "".join(line for line in lines if not line.startswith("#version")),
            source[:body] + "layout(location = 0) out vec4 _m0;\nlayout(location = 0) out vec4 _m1;\n" + source[body:],
            source.replace("{", "{\n    int _m = 1.0;", 1) if "{" in source else source + "\n}"]


def by_process(stage: str, source: str, out: Path) -> bytes | None:
    done = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2", "--stdin", "-S",
                           STAGE[stage].glslang, "-o", str(out)], input=source, capture_output=True, text=True)
    return out.read_bytes() if done.returncode == 0 else None


def in_process(stage: str, source: str) -> bytes | None:
    try:
        return spirv.compile_glsl(stage, source)
    except spirv.CompileError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--limit", type=int, default=0, help="only the first N shaders (sorted by name)")
    parser.add_argument("--no-mutants", action="store_true", help="the shaders only")
    args = parser.parse_args()
    shaders = sorted(args.folder.glob("*.glsl"))[:args.limit or None]
    tally: Counter[str] = Counter()
    cpu = {"process": 0.0, "in-process": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp                      # compile everything, cache nothing shared
        for path in shaders:
            stage = path.name.split(".")[-2]
            original = path.read_text()
            edited = [] if args.no_mutants else [("mutant", m) for m in mutants(original)]
            for kind, source in [("shader", original)] + edited:
                for old in spirv.cache_dir().glob("*.spv"):
                    old.unlink()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                theirs = by_process(stage, source, Path(tmp) / "out.spv")
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.process_time()
                ours = in_process(stage, source)
                cpu["in-process"] += time.process_time() - started
                cpu["process"] += after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                verdicts = ("took" if theirs else "refused", "took" if ours else "refused")
                tally[f"{kind}: glslangValidator {verdicts[0]}, in-process {verdicts[1]}"] += 1
                if theirs and ours:
                    tally[f"{kind}: SPIR-V {'identical' if theirs == ours else 'different'}"] += 1
                if verdicts[0] != verdicts[1]:
                    print(f"DISAGREE {path.name} ({kind}): glslangValidator {verdicts[0]}, in-process {verdicts[1]}")
    compiles = sum(n for key, n in tally.items() if "Validator" in key)
    for key, n in sorted(tally.items()):
        print(f"{n:7}  {key}")
    for name, seconds in cpu.items():
        print(f"{name:>10}: {seconds:7.1f} s CPU for {compiles} compiles, {1000 * seconds / max(compiles, 1):6.1f} ms each")
    return int(any("took, in-process refused" in k or "refused, in-process took" in k for k in tally))


if __name__ == "__main__":
    sys.exit(main())
