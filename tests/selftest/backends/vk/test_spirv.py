"""The Vulkan layer's compile (harness/backends/vk/spirv.py): glslang in this process through its C
interface. What glslang refuses is a CompileError (a LayerFault, the case's `error`) and is never
cached; what it takes is SPIR-V 1.5 of the stage asked for, valid for Vulkan 1.2 (spirv-val, where
Debian's spirv-tools is installed), kept on disk under the same content hash as before."""
from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
import sys

import pytest
from conftest import SELFTEST

from harness.backends.vk import spirv
from harness.base.errors import LayerFault

VS = """#version 450
layout(location = 0) in vec4 position;
layout(location = 0) out vec4 colour;
void main()
{
    gl_Position = position;
    colour = position * 0.5;
}
"""
TCS = """#version 450
layout(vertices = 3) out;
void main()
{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 1.0;
}
"""
ILL_TYPED = VS.replace("    gl_Position = position;", "    float planted = vec4(1.0);\n    gl_Position = position;")
# SPIR-V's magic number, version 1.5, and OpEntryPoint's execution models (the SPIR-V spec's tables)
MAGIC, VERSION_1_5, OP_ENTRY_POINT = 0x07230203, 0x00010500, 15
MODEL = {"vs": 0, "tcs": 1, "tes": 2, "gs": 3, "fs": 4}


@pytest.fixture(autouse=True)
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))          # really compile, nothing cached


def entry_point_model(code: bytes) -> int:
    words = struct.unpack(f"<{len(code) // 4}I", code)
    at = 5                                                        # after the header
    while at < len(words):
        count, opcode = words[at] >> 16, words[at] & 0xFFFF
        if opcode == OP_ENTRY_POINT:
            return words[at + 1]
        at += count
    raise AssertionError("no OpEntryPoint")


@pytest.mark.parametrize("stage, source", [("vs", VS), ("tcs", TCS)])
def test_output_is_spirv_1_5_of_the_stage_asked_for(stage, source, tmp_path):
    code = spirv.compile_glsl(stage, source)
    assert len(code) % 4 == 0 and len(code) > 20
    magic, version = struct.unpack("<2I", code[:8])
    assert (magic, version) == (MAGIC, VERSION_1_5)
    assert entry_point_model(code) == MODEL[stage]
    if shutil.which("spirv-val"):
        module = tmp_path / "module.spv"
        module.write_bytes(code)
        checked = subprocess.run(["spirv-val", "--target-env", "vulkan1.2", str(module)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_refusal_is_a_layer_fault_with_glslangs_message_and_the_numbered_source():
    with pytest.raises(spirv.CompileError) as refused:
        spirv.compile_glsl("vs", ILL_TYPED)
    message = str(refused.value)
    assert isinstance(refused.value, LayerFault)
    assert message.startswith("harness layer: VS (translated) failed to compile:\n"), message
    assert "cannot convert from" in message and "  6     float planted = vec4(1.0);" in message and "ERROR: 0:6:" in message, message
    assert not list(spirv.cache_dir().glob("*")), "a refusal must not be cached"


def test_the_stage_is_the_one_asked_for():
    """A TCS's source compiled as a VS is refused (gl_InvocationID is no VS input): the stage reaches glslang."""
    with pytest.raises(spirv.CompileError):
        spirv.compile_glsl("vs", TCS)


def test_a_refusal_leaves_the_compiler_able_to_compile():
    with pytest.raises(spirv.CompileError):
        spirv.compile_glsl("vs", ILL_TYPED)
    assert spirv.compile_glsl("vs", VS)


def test_the_cache_key_is_the_content_hash_of_stage_and_source():
    """Unchanged from the glslangValidator days, so a restored cache stays warm."""
    key = hashlib.sha256(b"vs\0" + VS.encode()).hexdigest()
    assert spirv.cache_key("vs", VS) == key
    code = spirv.compile_glsl("vs", VS)
    assert (spirv.cache_dir() / f"{key}.spv").read_bytes() == code
    (spirv.cache_dir() / f"{key}.spv").write_bytes(b"kept")
    assert spirv.compile_glsl("vs", VS) == b"kept"                # read back, not compiled again


# A child whose glslang call dies of SIGSEGV (faults.py's glslang-segv plant: a real fatal signal
# in a real ctypes call made from spirv._compile), and one that dies of its segv fault outside the
# compile, as a driver would.
_CRASHES = """
import sys
sys.path.insert(0, {selftest!r})
import faults
from harness.backends.vk import spirv
if sys.argv[1] == "glslang":
    faults.crashing_glslang()
    spirv.compile_glsl("vs", sys.argv[2])
else:
    faults.inject("segv")
"""


@pytest.mark.parametrize("where, status", [("glslang", "error"), ("driver", "crash")])
def test_a_fatal_signal_in_glslang_is_the_layers_and_elsewhere_the_drivers(where, status, tmp_path, monkeypatch):
    from harness.executor.executor import death_status, in_glslang
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))             # a miss: the compile runs
    child = subprocess.run([sys.executable, "-c", _CRASHES.format(selftest=str(SELFTEST)), where, VS + f"// {tmp_path}\n"],
                           capture_output=True, text=True, timeout=60)
    assert child.returncode < 0, child.stderr                        # died of a signal
    assert death_status(child.returncode, child.stderr).value == status, child.stderr
    assert in_glslang(child.returncode, child.stderr) is (where == "glslang")
