"""The spaces exploration draws from, one per family: the registry.

A space is the family's own dimensions, as its builder takes them: parameters are plain JSON
data (dicts, lists, numbers, strings), `build(params)` calls the family's builder (which
computes the expectations from the spec), `draw(d)` makes parameters from the choices of a
draws.Draws (None: ones the space does not take; exploration draws with draws.Plain, seeded),
`strategy()` is the same description as a Hypothesis strategy (draws.strategy), and
`below(params)` draws parameters no more complex than `params`, its simplest value first, so
that Hypothesis's shrinker can walk a failing case down (search.reduce). `from_case` maps a
fixed-list case back to parameters where the space can express it (None otherwise). VOCAB,
FLOATS and SHAPES are the words, floats and dict shapes its ids may hold (ids.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from harness.model.case import Case
from harness.sources.explored import draw_params, tess, varyings
from harness.sources.explored.choices import Params
from harness.sources.explored.draws import Draws

if TYPE_CHECKING:
    from hypothesis import strategies as st

SPACES: dict[str, Space] = {draw_params.FAMILY: draw_params.SPACE, tess.FAMILY: tess.SPACE, varyings.FAMILY: varyings.SPACE}
FAMILIES = tuple(SPACES)


class Space(Protocol):
    family: str
    VOCAB: tuple[str, ...]
    FLOATS: tuple[float, ...]
    SHAPES: tuple[tuple[str, ...], ...]

    def draw(self, d: Draws) -> Params | None: ...

    def strategy(self) -> st.SearchStrategy[Params]: ...

    def build(self, params: Params) -> Case: ...

    def below(self, params: Params) -> st.SearchStrategy[Params]: ...

    def from_case(self, case: Case) -> Params | None: ...

    def __hash__(self) -> int: ...          # ids.py caches each space's vocabulary index


def get(family: str) -> Space:
    if family not in SPACES:
        raise KeyError(f"no exploration space for family {family!r} (one of {', '.join(FAMILIES)})")
    return SPACES[family]
