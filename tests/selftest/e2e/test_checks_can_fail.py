"""Twins that must fail: each check of the harness that a self-test only saw
passing, shown failing on a real driver when the fault it guards against is planted. (The Vulkan
validation layer's twin is in backends/vk/test_translate.py, next to its clean run.)"""
from __future__ import annotations

import dataclasses

from faults import planted

from harness.executor.executor import Executor
from harness.executor.probe import probe
from harness.executor.targets import get
from harness.oracle.verdict import judge

from conftest import pinned_mesa

DIRTIER = "selftest/checks/dirty"
# a case of each profile that reads state a dirtier leaves: GL's initial patch size and levels
# (core), an image read back through the pixel store (compat)
READERS = {"tess": "tess/no-tcs/quads/equal/initial",
           "varyings": "varyings/vs-fs/glsl130compat/builtins-color+tex1+tex2+tex3+tex4+tex5+fog/users-9xvec4-36c"}


def status(executor: Executor, case) -> str:
    return judge(case, executor.run(case), "llvmpipe").status


def test_without_a_context_per_case_the_dirt_changes_verdicts(tess_cases, varyings_cases):
    """The twin of test_isolation's dirt test: with the GL runner's context per case broken
    (faults.py, $HARNESS_FAULT_SHARED_CONTEXT), the state a dirtier leaves reaches the cases after
    it, in its profile, and their verdicts change; with it, the same order keeps them."""
    found = {**tess_cases, **varyings_cases}
    readers = [found[case_id] for case_id in READERS.values()]
    dirtiers = [dataclasses.replace(found[READERS["tess"]], id=DIRTIER + "-core", family="selftest"),
                dataclasses.replace(found[READERS["varyings"]], id=DIRTIER + "-compat", family="selftest")]
    faults = {d.id: "dirty-state" for d in dirtiers}
    seen = {}                             # shared context? -> case id -> status
    for shared in (False, True):
        with planted(faults, shared_context=shared):
            ex = Executor(get("fault-llvmpipe"), case_timeout=60, mesa=pinned_mesa())
            try:
                for dirtier in dirtiers:
                    assert status(ex, dirtier) == "pass"
                seen[shared] = {case.id: status(ex, case) for case in readers}
            finally:
                ex.close()
    assert set(seen[False].values()) == {"pass"}, seen[False]
    assert set(seen[True].values()) == {"fail"}, seen[True]        # and test_isolation would see it


def test_a_child_on_another_driver_is_refused():
    """The twin, on a real child, of test_a_target_running_another_driver_is_refused: the
    llvmpipe target's child started on zink (its environment planted) is not available."""
    llvmpipe = get("llvmpipe")
    on_zink = dataclasses.replace(llvmpipe, env=tuple((k, "zink" if k == "GALLIUM_DRIVER" else v)
                                                       for k, v in llvmpipe.env), mesa="gl+vk")   # lavapipe beneath, as zink's
    assert probe(llvmpipe, mesa=pinned_mesa()).status == "ok"
    result = probe(on_zink, mesa=pinned_mesa())
    assert result.status == "error"
    assert result.message.startswith("the renderer is 'zink") and "/^llvmpipe/" in result.message, \
        result.message
