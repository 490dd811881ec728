"""The corpus of GLSL forms the layer must take (glsl_corpus/*.shader_test, written for these
tests): each is translated and compiled by glslang without a driver, then run as the full
program it is on lavapipe (the layer) and on llvmpipe (GL itself: the probes, worked out from
the shaders by hand, hold there too)."""
from __future__ import annotations

import shutil

import pytest

from harness.backends.vk import spirv
from harness.backends.vk.tcs import passthrough_tcs
from harness.backends.vk.translate import Program, translate
from harness.sources import shader_test as st
from harness.oracle.verdict import judge

from conftest import SELFTEST, pinned_mesa

CORPUS = sorted((SELFTEST / "glsl_corpus").glob("*.shader_test"))
NAMES = [p.stem for p in CORPUS]


def program_of(case) -> Program:
    return Program(dict(case.shaders), frozenset(), attributes={a.name: a.location for a in case.attributes if a.name})


def test_the_corpus_covers_the_forms():
    assert set(NAMES) >= {"multiple-declarators", "builtins-in-helpers", "return-in-main", "macros-and-conditionals",
                          "comments-in-declarations", "blocks-arrays-structs", "explicit-and-implicit-locations",
                          "several-fragment-outputs", "redeclared-per-vertex-compat", "texcoord-variable-index"}


@pytest.mark.skipif(not shutil.which("glslangValidator"), reason="glslang-tools not installed")
@pytest.mark.parametrize("path", CORPUS, ids=NAMES)
def test_translates_and_compiles(path, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))          # really compile, no cache
    case = st.load(path)
    assert not case.requires.unsupported
    stages = translate(program_of(case))
    if "tes" in stages and "tcs" not in stages:
        stages["tcs"] = passthrough_tcs(stages["vs"], 3)
    for stage, source in stages.items():
        assert spirv.compile_glsl(stage, source)


@pytest.fixture(scope="module", params=["lavapipe", "llvmpipe"])
def target_executor(request):
    from harness.executor.executor import Executor
    from harness.executor.targets import get
    ex = Executor(get(request.param), case_timeout=60, mesa=pinned_mesa())
    if ex.info().status != "ok":
        pytest.fail(f"{request.param} did not start: {ex.info().message}")
    yield request.param, ex
    ex.close()


@pytest.mark.parametrize("path", CORPUS, ids=NAMES)
def test_runs(path, target_executor):
    name, ex = target_executor
    case = st.load(path)
    verdict = judge(case, ex.run(case), name)
    assert verdict.status == "pass", verdict.message
