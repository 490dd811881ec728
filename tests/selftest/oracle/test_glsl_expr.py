"""Value formulas are written once, as GLSL (tests/tess/values.glsl), and the oracle evaluates
that text: the evaluator follows GLSL's arithmetic, and the statements a generated shader really
contains give the values the case expects."""
from __future__ import annotations

import re

import numpy as np
import pytest

from harness.oracle.glsl_expr import evaluate

ASSIGNMENT = re.compile(r"^\s*(\S+) = (.+);$")


def test_literals_with_glsl_suffixes():
    assert evaluate("uint(3 * 64 + 1) + 256u") == 449
    assert evaluate("double(5) + double(2) * 2.3283064365386963e-10LF") == 5 + 2 * 2.0 ** -32
    assert evaluate("float(1 + 2) * 0.25") == 0.75 and evaluate("1.5f") == 1.5


def test_integers_divide_as_glsl_does():
    assert evaluate("7 / 2") == 3 and evaluate("-7 / 2") == -3 and evaluate("7.0 / 2") == 3.5
    assert evaluate("(a * 7 + 3) % 29 + 1", a=9) == 66 % 29 + 1
    assert evaluate("uint(-1)") == 2 ** 32 - 1


def test_vectors_compute_per_component():
    value = evaluate("vec4((ivec4(v * 3 + k * 5) + c) % 29 + 1)", v=4, k=6, c=np.arange(4))
    assert value.dtype == np.float64 and list(value) == [(42 + c) % 29 + 1 for c in range(4)]
    assert list(evaluate("vec4(v + 0.5, 2.0 * v, 1.0, float(i))", v=2.0, i=3)) == [2.5, 4.0, 1.0, 3.0]


@pytest.mark.parametrize("text", ["sin(x)", "x.y", "x < 1", "x if y else z", "[1, 2]", "'a'", "f(1)"])
def test_anything_outside_the_subset_is_refused(text):
    with pytest.raises(ValueError):
        evaluate(text, x=1, y=1, z=1)


def assignments(source: str) -> dict[str, str]:
    """name -> expression of each statement `name = expression;` outside a loop over j."""
    found = {}
    for line in source.splitlines():
        match = ASSIGNMENT.match(line)
        if match and "[j]" not in match[1]:
            found[match[1]] = match[2]
    return found


def expected_sums(case, prefix: str):
    """(patch, [names], expected tuple) of every group value whose quantity lists names."""
    for group in case.expect[0].groups:
        for quantity, value in group.values:
            if quantity.startswith(prefix) and "whole part" not in quantity:
                yield group.key_value, quantity[len(prefix):].split(", "), value


def test_type_cases_vertex_shaders_write_what_the_oracle_sums(tess_cases):
    """Every VS statement of the TCS-less type cases, evaluated per vertex, sums to the
    expected per-patch sums (plain and vertex-weighted)."""
    checked = 0
    for case_id, case in tess_cases.items():
        if "/types/" not in case_id:
            continue
        vs = dict(case.shaders)["vs"]
        statements = {re.sub(r"^(v_out\.|v_)", "", name): text for name, text in assignments(vs).items()}
        entry, size = case.steps[0].entries[0], case.steps[0].state.patch_vertices
        for prefix, weighted in (("sum over the patch of ", False), ("vertex-weighted sum over the patch of ", True)):
            for patch, names, value in expected_sums(case, prefix):
                vertices = range(entry.first + patch * size, entry.first + (patch + 1) * size)
                for name, expected in zip(names, value):
                    if name not in statements:          # written in a loop
                        continue
                    got = sum((i + 1 if weighted else 1) * evaluate(statements[name], gl_VertexID=v)
                              for i, v in enumerate(vertices))
                    assert got == expected, (case_id, patch, name)
                    checked += 1
    assert checked > 5000


def test_patch_out_control_shaders_write_what_the_oracle_expects(tess_cases):
    checked = 0
    for case_id, case in tess_cases.items():
        if "/patch-out/" not in case_id:
            continue
        statements = assignments(dict(case.shaders)["tcs"])
        for patch, names, value in expected_sums(case, "patch in "):
            for name, expected in zip(names, value):
                if "p_" + name in statements:
                    assert evaluate(statements["p_" + name], gl_PrimitiveID=patch) == expected, (case_id, name)
                    checked += 1
    assert checked > 500
