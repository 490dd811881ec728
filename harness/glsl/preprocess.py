"""Preprocessing with glslang (`glslangValidator -E`): macros, conditionals and `#line` resolved
the way a GL compiler resolves them, so the parser sees only the program that is compiled.

Text with nothing for a preprocessor to do (no directive besides #version, #extension and
#pragma, no predefined macro, no line continuation) comes back as it is, without a process;
everything else is preprocessed once and kept on disk by content hash, beside the SPIR-V cache.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from harness.base.config import cache_home, tool_path
from harness.glsl.tokens import Token, directive_words, tokenize
from harness.base.errors import HarnessFault

STAGES = {"vs": "vert", "tcs": "tesc", "tes": "tese", "gs": "geom", "fs": "frag", "cs": "comp"}
PASSIVE = {"version", "extension", "pragma"}
PREDEFINED = {"__LINE__", "__FILE__", "__VERSION__", "GL_core_profile", "GL_compatibility_profile", "GL_es_profile"}


class PreprocessError(HarnessFault):
    pass


def needed(tokens: list[Token]) -> bool:
    for token in tokens:
        if token.kind == "directive":
            words = directive_words(token)
            if not words or words[0] not in PASSIVE or "\\\n" in token.text:
                return True
        elif token.kind == "ident" and token.text in PREDEFINED:
            return True
    return False


def _cache_dir() -> Path:
    return cache_home() / "preprocessed"


def preprocess(stage: str, source: str, tokens: list[Token] | None = None) -> str:
    """The preprocessed text (the source itself where nothing needs a preprocessor; pass its
    tokens when they are at hand, to spare tokenizing it again)."""
    if not needed(tokenize(source) if tokens is None else tokens):
        return source
    key = hashlib.sha256(f"{stage}\0{source}".encode()).hexdigest()
    cached = _cache_dir() / f"{key}.glsl"
    if cached.exists():
        return cached.read_text()
    try:
        proc = subprocess.run([_validator(), "-E", "--stdin", "-S", STAGES[stage]], input=source,
                              capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        raise PreprocessError("glslangValidator not found (Debian package glslang-tools)") from None
    if proc.returncode != 0:
        log = "\n".join(line for line in (proc.stdout + proc.stderr).splitlines() if "ERROR" in line)
        raise PreprocessError(f"{stage.upper()} failed to preprocess: {log}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(proc.stdout)
    partial.replace(cached)                  # atomic, as the SPIR-V cache
    return proc.stdout



def _validator() -> str:
    """Debian's glslangValidator (glslang-tools), not the virtual environment's (config.tool_path)."""
    return shutil.which("glslangValidator", path=tool_path()) or "glslangValidator"
