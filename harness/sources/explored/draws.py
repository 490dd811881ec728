"""One description of a space's parameters, two ways to draw it.

A space describes its parameters once, as a function of a `Draws` (`space.draw(d)`): the
primitive choices (an integer in a range, one of some options, a boolean, a list of items, an
optional item, distinct options). Two implementations make the choices:

  Plain       a seeded random.Random: what exploration draws its cases with. A draw costs the
              space's own code and a few calls into random, so the same seed gives the same
              parameters whatever the driver answers (and whatever the Hypothesis version).
              Integers hit either end of their range more often than uniform draws would
              (EDGE each), as Hypothesis's do: zero counts, the last index, the largest size.
  Hypothesis  the choices of an st.composite's `draw`: `strategy(space.draw)` is the same
              description as a Hypothesis strategy (the self-tests' @given).

Reduction does not use either: its strategies (`space.below(params)`) are Hypothesis's own, for
its shrinker (harness/explore/search.py).
"""
from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence, TypeVar, cast

from harness.sources.explored.choices import st


T = TypeVar("T")

EDGE = 0.1                  # Plain: how often an integer is its range's lowest, and its highest


class Draws(Protocol):
    def integer(self, lowest: int, highest: int) -> int: ...

    def pick(self, options: Sequence[T]) -> T: ...

    def boolean(self) -> bool: ...

    def many(self, item: Callable[[], T], least: int, most: int) -> list[T]: ...

    def maybe(self, item: Callable[[], T]) -> T | None: ...

    def distinct(self, options: Sequence[T], least: int, most: int) -> list[T]: ...


class _Composed:
    """Lists and optional items from a source's integers and booleans."""

    def integer(self, lowest: int, highest: int) -> int:
        raise NotImplementedError

    def boolean(self) -> bool:
        raise NotImplementedError

    def many(self, item: Callable[[], T], least: int, most: int) -> list[T]:
        return [item() for _ in range(self.integer(least, most))]

    def maybe(self, item: Callable[[], T]) -> T | None:
        return None if self.boolean() else item()


class Plain(_Composed):
    """Draws from random.Random(seed)."""

    def __init__(self, seed: int | str):
        self.random = random.Random(seed)

    def integer(self, lowest: int, highest: int) -> int:
        roll = self.random.random()
        if roll < EDGE:
            return lowest
        if roll < 2 * EDGE:
            return highest
        return self.random.randint(lowest, highest)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.random.randrange(len(options))]

    def boolean(self) -> bool:
        return self.random.random() < 0.5

    def distinct(self, options: Sequence[T], least: int, most: int) -> list[T]:
        return self.random.sample(list(options), self.integer(least, min(most, len(options))))


class Hypothesis(_Composed):
    """Draws through an st.composite's `draw`, so that Hypothesis records (and could shrink) each choice."""

    def __init__(self, draw: st.DrawFn):
        self.draw = draw

    def integer(self, lowest: int, highest: int) -> int:
        return self.draw(st.integers(lowest, highest))

    def pick(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(options))

    def boolean(self) -> bool:
        return self.draw(st.booleans())

    def distinct(self, options: Sequence[T], least: int, most: int) -> list[T]:
        return self.draw(st.lists(st.sampled_from(options), min_size=least,
                                  max_size=min(most, len(options)), unique=True))


def strategy(describe: Callable[[Draws], T | None]) -> st.SearchStrategy[T]:
    """`describe` as a Hypothesis strategy; its None (parameters the space does not take) filtered out."""
    @st.composite
    def drawn(draw: st.DrawFn) -> T | None:
        return describe(Hypothesis(draw))
    return cast(st.SearchStrategy[T], drawn().filter(lambda params: params is not None))
