"""Splitting a run into shards: `--shard K/N`, or the CI's own variables (GitLab's `parallel:`
sets CI_NODE_INDEX, counted from 1, and CI_NODE_TOTAL; harness/base/config.py reads them).

A shard is every N-th item of a list every shard sorts the same way, starting at the K-th:
interleaved, so that each shard gets a like share of every family and target.
"""
from __future__ import annotations

from dataclasses import dataclass
from harness.base.errors import UsageError

from harness.base.config import Knobs


class ShardError(UsageError, ValueError):
    """A shard that cannot be: one line for the user."""


@dataclass(frozen=True)
class Shard:
    k: int                      # 1-based
    n: int
    source: str = ""            # how it was chosen, for the run's first line ('' for --shard)

    def picks(self, index: int) -> bool:
        """Whether the item at 0-based `index` of the sorted list is this shard's."""
        return index % self.n == self.k - 1

    def split(self, inner: "Shard") -> "Shard":
        """Shard `inner` of this shard's items, as one shard of the whole list: item i is this
        shard's j-th when i = k-1 + n*j, and the inner's when j = inner.k-1 mod inner.n."""
        return Shard(self.k + self.n * (inner.k - 1), self.n * inner.n, self.source)

    def describe(self, items: str = "cases") -> str:
        how = f" ({self.source})" if self.source else ""
        return (f"shard {self.k}/{self.n}{how}: {items} {self.k}, {self.k + self.n}, {self.k + 2 * self.n}, ... "
                f"of the sorted list")

    def __str__(self) -> str:
        return f"{self.k}/{self.n}"


WHOLE = Shard(1, 1)


def parse(text: str, what: str = "--shard") -> Shard:
    """'K/N' -> Shard; '' -> the whole run."""
    if not text:
        return WHOLE
    try:
        k, n = (int(v) for v in text.split("/"))
    except ValueError:
        raise ShardError(f"{what} {text!r}: expected K/N, e.g. 2/4") from None
    return _checked(k, n, f"{what} {text!r}")


def from_ci(index: str, total: str) -> Shard | None:
    """The shard CI_NODE_INDEX/CI_NODE_TOTAL name (None where neither is set)."""
    if not index and not total:
        return None
    where = f"CI_NODE_INDEX={index!r} CI_NODE_TOTAL={total!r}"
    if not (index.isdigit() and total.isdigit()):
        raise ShardError(f"{where}: both must be set, positive integers (CI_NODE_INDEX counts from 1)")
    shard = _checked(int(index), int(total), where)
    return Shard(shard.k, shard.n, f"CI_NODE_INDEX={index} CI_NODE_TOTAL={total}")


def chosen(option: str, knobs: Knobs) -> Shard:
    """--shard where given, else the CI's variables, else the whole run."""
    if option:
        return parse(option)
    return from_ci(knobs.ci_node_index, knobs.ci_node_total) or WHOLE


def _checked(k: int, n: int, where: str) -> Shard:
    if n < 1 or not 1 <= k <= n:
        raise ShardError(f"{where}: K must be between 1 and N (counted from 1)")
    return Shard(k, n)
