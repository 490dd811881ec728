"""Hypothesis strategies the family spaces share: drawing a value no more complex than a given
one (reduction's spaces), sub-lists, dicts with a stable draw order."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

if TYPE_CHECKING:
    from hypothesis import strategies

    st = strategies                 # a name of this module's own, that the spaces import
else:
    class _Strategies:
        """hypothesis.strategies, imported on first use: exploration draws without Hypothesis
        (draws.Plain), and importing it costs a command about 0.4 s of CPU; reduction and the
        self-tests' strategies import it when they first build one."""

        def __getattr__(self, name: str) -> Any:
            from hypothesis import strategies
            return getattr(strategies, name)

    st = _Strategies()


T = TypeVar("T")
U = TypeVar("U")

# A space's parameters: plain JSON data (dicts, lists, numbers, strings) whose shape is the
# space's own, as its draw makes them and an explored id decodes them.
Params = dict[str, Any]


def canonical(params: object) -> str:
    """The one text of a parameter set: what ids encode and caches key on."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


# Random draws keep the original value this often (3 of 4) in each dimension, so a failure that
# needs several dimensions at once is met again within a few draws; shrinking then walks the
# index toward 0, the simplest value.
KEEP_WEIGHT = 3


def toward(simplest_first: Sequence[T], original: T) -> st.SearchStrategy[T]:
    """A value from `simplest_first` (simplest first) or `original` itself. Shrinks toward the
    first; random draws mostly give `original`."""
    options: list[T] = []
    for value in simplest_first:
        if canonical(value) != canonical(original) and all(canonical(value) != canonical(o) for o in options):
            options.append(value)
    options.append(original)
    n = len(options)
    if n == 1:
        return st.just(original)
    return st.integers(0, (KEEP_WEIGHT + 1) * n - 1).map(lambda i: options[min(i, n - 1)])


def smaller_ints(value: int, lowest: int = 0, simplest: int = 0) -> list[int]:
    """Candidates between `simplest` and `value` (within [lowest, value] or [value, ...]), the
    simplest first: the few a shrinker needs, not every integer."""
    out = [simplest, simplest + (1 if value > simplest else -1), (value + simplest) // 2, value - (1 if value > simplest else -1)]
    return [v for v in dict.fromkeys(out) if min(simplest, value) <= v <= max(simplest, value) and v >= lowest]


def some_of(items: Sequence[T], below_item: Callable[[T], st.SearchStrategy[U]],
            at_least_one: bool = True) -> st.SearchStrategy[list[U]]:
    """A sub-list of `items`, each kept or dropped and itself reduced by `below_item`. Shrinks
    toward dropping; with nothing kept and `at_least_one`, the first item (reduced) stays."""
    if not items:
        return st.just([])
    parts = [st.tuples(toward([False], True), below_item(x)) for x in items]

    def pick(kept: tuple[tuple[bool, U], ...]) -> list[U]:
        chosen = [x for keep, x in kept if keep]
        return chosen or ([kept[0][1]] if at_least_one else [])
    return st.tuples(*parts).map(pick)


def fixed_dict(**fields: st.SearchStrategy[object]) -> st.SearchStrategy[Params]:
    """st.fixed_dictionaries with the keys in a stable order (their order is the draw order)."""
    return st.fixed_dictionaries(dict(sorted(fields.items())))
