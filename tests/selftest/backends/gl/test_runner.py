"""The GL runner keeps a linked program across cases only when no stage declares a uniform
(a cached program would keep the values an earlier case set): the rule, without a driver."""
import shutil

import pytest

from harness.backends.gl.programs import declares_uniforms as _declares_uniforms

PLAIN = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n"


@pytest.mark.parametrize("source, declares", [
    (PLAIN, False),
    ("#version 150\nuniform vec4 p;\nvoid main() { gl_Position = p; }\n", True),
    ("#version 150\nlayout(std140) uniform B { vec4 p; };\nvoid main() { gl_Position = p; }\n", True),
    ("#version 150\n// uniform vec4 q;\n" + PLAIN.split("\n", 1)[1], False),    # a comment
    ("#version 150\n#if 0\nuniform vec4 q;\n#endif\n" + PLAIN.split("\n", 1)[1], False),
], ids=["none", "variable", "block", "in-comment", "dead-branch"])
def test_declares_uniforms(source, declares):
    if "#if" in source and not shutil.which("glslangValidator"):
        pytest.skip("glslangValidator (glslang-tools) preprocesses #if")
    assert _declares_uniforms("vs", source) is declares


@pytest.mark.skipif(not shutil.which("glslangValidator"), reason="glslang-tools preprocesses ##")
def test_uniform_pasted_from_parts_counts():
    """`uniform` need not be in the text: `##` can paste it, so the quick word test stands aside."""
    source = "#version 150\n#define U(a, b) a##b\nU(uni, form) vec4 p;\nvoid main() { gl_Position = p; }\n"
    assert _declares_uniforms("vs", source) is True
