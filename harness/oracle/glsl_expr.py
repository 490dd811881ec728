"""GLSL arithmetic expressions evaluated in Python, so that a value formula is written once, as
GLSL: the shader computes it from gl_VertexID or gl_PrimitiveID, the oracle evaluates the very
same text with the numbers put in.

The subset: integer and floating-point literals (with the u, f and lf suffixes), names bound by
the caller, + - * / % and unary minus, and the conversions float, double, int, uint and the
vector constructors. Integers divide as GLSL's do (truncating); vectors are numpy arrays.
Floating point is evaluated in double precision: formulas meant for single precision must keep
their values exact in it (the generators check that), as a driver's result is compared exactly.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Any, Callable

import numpy as np

# A numeric literal's type suffix, which Python's parser does not know: 256u, 0.5LF, 1.0f.
_SUFFIX = re.compile(r"(?<![\w.])(\d[\d.]*(?:[eE][-+]?\d+)?)(?:u|U|lf|LF|f|F)\b")
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.USub, ast.UAdd)


def _integral(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) or (isinstance(value, np.ndarray) and value.dtype.kind in "iu")


def _divide(a: Any, b: Any) -> Any:
    if _integral(a) and _integral(b):
        quotient = np.trunc(np.divide(a, b)).astype(np.int64)
        return int(quotient) if quotient.ndim == 0 else quotient
    return a / b


def _vector(size: int, dtype: Any) -> Callable[..., Any]:
    def construct(*args: Any) -> Any:
        if all(np.ndim(a) == 0 for a in args):             # the common case, kept quick
            return np.full(size, args[0], dtype=dtype) if len(args) == 1 else np.array(args[:size], dtype=dtype)
        parts = np.concatenate([np.atleast_1d(np.asarray(a, dtype=dtype)) for a in args])
        return np.full(size, parts[0], dtype=dtype) if len(parts) == 1 else parts[:size]
    return construct


_FUNCTIONS = {
    "float": float, "double": float, "int": int, "uint": lambda x: int(x) % 2 ** 32,
    "_divide": _divide,
    **{f"{prefix}vec{n}": _vector(n, dtype) for n in (2, 3, 4)
       for prefix, dtype in (("", np.float64), ("d", np.float64), ("i", np.int64), ("u", np.int64))},
}


class _Division(ast.NodeTransformer):
    """a / b becomes _divide(a, b): GLSL divides integers by truncation."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Div):
            return ast.copy_location(ast.Call(ast.Name("_divide", ast.Load()), [node.left, node.right], []), node)
        return node


@lru_cache(maxsize=None)
def compile_expression(text: str) -> Callable[..., object]:
    """A function of the expression's free names (keyword arguments) that returns its value."""
    tree = ast.parse(_SUFFIX.sub(r"\1", text.strip()), mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS):
            raise ValueError(f"not a GLSL conversion or constructor: {ast.unparse(node.func)} in {text!r}")
        allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Load, ast.Constant) + _OPERATORS
        if not isinstance(node, allowed) or (isinstance(node, ast.Constant)
                                             and not isinstance(node.value, (int, float))):
            raise ValueError(f"outside the GLSL subset this evaluates: {ast.dump(node)} in {text!r}")
    code = compile(ast.fix_missing_locations(_Division().visit(tree)), f"<glsl: {text}>", "eval")
    return lambda **names: eval(code, {"__builtins__": {}, **_FUNCTIONS}, names)   # noqa: S307


def evaluate(text: str, **names: Any) -> Any:
    """The value of a GLSL expression, its free names bound to `names`."""
    return compile_expression(text)(**names)
