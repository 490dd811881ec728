"""The statistics the history states with its rates: pure functions, no database.

- `wilson`: the 95% Wilson score interval of a failure rate, n failures out of N runs. Unlike
  the plain n/N ± 1.96·sqrt(p(1-p)/N) it stays inside [0, 1] and is not [0, 0] after a few clean
  runs, which is what a small sample of a rare flake looks like.
- `fixed_confidence`: after k clean runs in a row, the confidence that the failure rate is now
  below `threshold`: were it at `threshold` or above, k clean runs would have had probability at
  most (1 - threshold)^k.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054             # the standard normal's 97.5th percentile


def wilson(failed: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of failed/runs; (0, 1) for no runs."""
    if runs <= 0:
        return 0.0, 1.0
    p = failed / runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def fixed_confidence(clean_runs: int, threshold: float) -> float:
    """The confidence that the rate is below `threshold` after `clean_runs` clean runs in a row."""
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold {threshold}: expected a rate in (0, 1]")
    return 1 - (1 - threshold) ** max(clean_runs, 0)
