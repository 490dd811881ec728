#!/usr/bin/env python3
"""CPU to draw one parameter set of each family's space: exploration's generator (draws.Plain)
against Hypothesis's engine drawing the same description (space.strategy(), generate phase only).

    PYTHONPATH=$PWD .venv/bin/python bench/explore_draws.py [N] [SEED]
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings  # noqa: E402

from harness.sources.explored import draws, space  # noqa: E402


def by_hypothesis(sp, n: int, seed: int) -> list:
    drawn: list = []

    @settings(database=None, max_examples=n, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)
    @hypothesis_seed(seed)
    @given(sp.strategy())
    def run(params):
        drawn.append(params)
    run()
    return drawn


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    for family in space.FAMILIES:
        sp = space.get(family)
        warm = draws.Plain(seed + 1)
        for _ in range(50):                 # the families' modules imported before either is timed
            sp.draw(warm)
        source = draws.Plain(seed)
        t = time.process_time()
        plain = [p for p in (sp.draw(source) for _ in range(n)) if p is not None]
        plain_s = time.process_time() - t
        t = time.process_time()
        drawn = by_hypothesis(sp, n, seed)
        hypothesis_s = time.process_time() - t
        each_plain, each_hypothesis = plain_s / len(plain), hypothesis_s / len(drawn)
        print(f"{family:12} Plain {1000 * each_plain:6.3f} ms CPU a parameter set ({len(plain)} of {n} taken); "
              f"Hypothesis {1000 * each_hypothesis:6.3f} ms ({len(drawn)}): {each_hypothesis / each_plain:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
