"""The GL runner keeps a linked program across cases only when no stage declares a uniform
(a cached program would keep the values an earlier case set): the rule, without a driver."""
import json
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


ADOPTING = """
import json, pickle, sys
from harness.backends.gl.runner import GLBackend
known, cases = pickle.load(sys.stdin.buffer)
backend = GLBackend()
backend.adopt(known)
made = [sorted(backend._contexts._contexts)]
for case in cases:
    backend.run(case)
    made.append(sorted(backend._contexts._contexts))
print(json.dumps({"made": made, "facts": {p: f.to_json() for p, f in backend._facts.items()}}))
"""


def test_an_adopting_backend_makes_only_the_contexts_its_cases_use():
    """Real llvmpipe, in a process of its own: a GLBackend that adopts the facts a first child
    queried (an executor's `known`) makes no long-lived context until a case runs, then that
    case's profile's alone: core for a core case, compat only when a compat case comes."""
    import pickle
    import subprocess
    import sys
    from conftest import generated, pinned_mesa
    from harness.base import config
    from harness.executor.executor import Executor
    from harness.executor.targets import get
    target, mesa = get("llvmpipe"), pinned_mesa()
    executor = Executor(target, fork=False, mesa=mesa)
    try:
        assert executor.info().status.name == "OK", executor.info().message
        known = executor._known
    finally:
        executor.close()
    tess = generated("tess")
    cases = [next(c for c in tess if c.requires.profile == "core" and not c.last_in_child()),
             next(c for c in tess if c.requires.profile == "compat")]
    base = config.environ()
    done = subprocess.run([*target.command([], base, mesa), sys.executable, "-c", ADOPTING],
                          input=pickle.dumps((known, cases)), capture_output=True, env=target.environment(base, mesa),
                          timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answer = json.loads(done.stdout)
    assert answer["made"] == [[], ["core"], ["compat", "core"]]
    assert answer["facts"] == known.to_json()["facts"]
