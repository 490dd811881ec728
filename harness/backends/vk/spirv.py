"""GLSL -> SPIR-V with glslangValidator (Debian's glslang-tools), cached on disk by content hash."""
from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

from harness.base.config import cache_home
from harness.model.glfacts import STAGE
from harness.base.errors import LayerFault


class CompileError(LayerFault):
    pass


def cache_dir() -> Path:
    return cache_home() / "spirv"


def compile_glsl(stage: str, source: str) -> bytes:
    key = hashlib.sha256(f"{stage}\0{source}".encode()).hexdigest()
    cached = cache_dir() / f"{key}.spv"
    if cached.exists():
        return cached.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.spv"
        try:
            proc = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2", "--stdin",
                                   "-S", STAGE[stage].glslang, "-o", str(out)],
                                  input=source, capture_output=True, text=True, timeout=60)
        except FileNotFoundError:
            raise CompileError("glslangValidator not found (Debian package glslang-tools)") from None
        if proc.returncode != 0:
            log = "\n".join(line for line in (proc.stdout + proc.stderr).splitlines()
                            if line.strip() and not line.startswith("stdin"))
            raise CompileError(f"{stage.upper()} (translated) failed to compile:\n{log}\n--- source ---\n"
                               + "\n".join(f"{i + 1:3} {line}" for i, line in enumerate(source.splitlines())))
        data = out.read_bytes()
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(data)
    partial.replace(cached)                  # atomic: concurrent workers never see half a file
    return data
