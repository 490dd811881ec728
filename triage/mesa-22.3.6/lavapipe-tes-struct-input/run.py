"""Run this folder's reduced case: python run.py TARGET [--mesa PATH] [--tcs FILE] [--validation]
(from the checkout's root with its .venv: .venv/bin/python triage/.../run.py lavapipe).
--tcs adds an explicit TCS (GLSL) in place of the layer's pass-through one."""
import argparse
import dataclasses
from pathlib import Path

from harness.mesa import runtime as mesa
from harness.model.case import Case
from harness.executor.executor import Executor
from harness.executor.targets import get
from harness.oracle.verdict import judge

HERE = Path(__file__).parent / "harness"
p = argparse.ArgumentParser()
p.add_argument("target")
p.add_argument("--mesa")
p.add_argument("--tcs")
p.add_argument("--validation", action="store_true")
a = p.parse_args()
case = Case.from_json((HERE / "struct-reduced.json").read_text())
if a.tcs:
    shaders = dict(case.shaders)
    case = dataclasses.replace(case, shaders=(("vs", shaders["vs"]), ("tcs", Path(a.tcs).read_text()),
                                              ("tes", shaders["tes"])))
ex = Executor(get(a.target), mesa=mesa.locate(a.mesa) if a.mesa else None,
              extra_env={"HARNESS_VK_VALIDATION": "1"} if a.validation else {})
try:
    verdict = judge(case, ex.run(case), a.target)
    print(verdict.status, verdict.message)
finally:
    ex.close()
