"""Finding signatures of compile and link failures (harness/explore/signature.py): the stage and
the first error line of the driver's log, normalised, never the whole log."""
from __future__ import annotations

from conftest import generated

from harness.explore.signature import build_failure, finding_key, quantities, reduction_key, same_failure
from harness.model.status import Verdict
from harness.model.status import Status


def nvidia_link_log(offset: int, registers: int) -> str:
    """The shape of NVIDIA's GL link log for a GS it cannot assemble: one error line, then the
    assembly listing (over a hundred lines, its registers and offsets differing run to run)."""
    listing = "\n".join(f"MOV.F R{i % registers}, vertex[{i % 3}].attrib[{i % 16}];" for i in range(120))
    return (f"fail: program failed to link:\nGeometry info\n-------------\n(0) : error C0000: assembly compile "
            f"error for geometry shader at offset {offset}:\n. ATTRIB vertex[0].attrib[7] = ...\n{listing}\n"
            f"[system-gl: NVIDIA H100 80GB HBM3/PCIe/SSE2, 4.6.0 NVIDIA 580.159.04]")


def test_a_link_failure_is_its_stage_and_first_error_line():
    sig = build_failure(nvidia_link_log(5321, 8))
    assert sig == "GS link error: (#) : error C#: assembly compile error for geometry shader at offset #:"
    assert quantities(nvidia_link_log(5321, 8)) == (sig,)          # one quantity, not the listing
    # Another offset and another register allocation: the same finding.
    assert quantities(nvidia_link_log(77, 5)) == (sig,)


def test_a_compile_failure_takes_the_stage_of_its_header():
    mesa = ("fail: TES failed to compile:\n0:12(3): warning: unused\n0:14(7): error: `u_4' undeclared\n"
            "0:15(1): error: type mismatch\n[llvmpipe: llvmpipe (LLVM 15.0.6, 256 bits), Mesa 22.3.6]")
    assert quantities(mesa) == ("TES compile error: #:#(#): error: `u_#' undeclared",)
    glslang = ("fail: GS (translated) failed to compile:\nERROR: 0:31: 'x' : undeclared identifier\n"
               "ERROR: 1 compilation errors.  No code generated.\n--- source ---\n#version 460\nvoid main() {}\n"
               "[lavapipe: harness Vulkan layer on llvmpipe]")
    assert quantities(glslang) == ("GS compile error: ERROR: #:#: 'x' : undeclared identifier",)
    # A log without the word "error" is signed by its first line; a link log naming no stage is the program's.
    assert build_failure("program failed to link:\nlinker ran out of registers (0x1f)\n[x]") == \
        "program link error: linker ran out of registers (#)"


def test_other_failures_keep_their_quantities():
    message = "fail: draw 0 (glDrawArrays), entry 2, vertex 3, instance 0: gl_BaseVertex = 5, expected 0\n[x]"
    assert build_failure(message) == ""
    assert quantities(message) == ("gl_BaseVertex",)


def test_the_reduction_and_the_finding_use_the_build_signature():
    case = next(c for c in generated("draw_params") if c.shader("gs"))
    first, second = Verdict(Status.FAIL, nvidia_link_log(5321, 8)), Verdict(Status.FAIL, nvidia_link_log(9, 3))
    key = reduction_key(first)
    assert key == ("fail", build_failure(first.message)) and same_failure(key, second)
    assert finding_key(case, first) == finding_key(case, second)
    other = Verdict(Status.FAIL, "fail: GS failed to compile:\n0:3(1): error: syntax error\n[x]")
    assert not same_failure(key, other) and finding_key(case, other) != finding_key(case, first)
