#!/usr/bin/env python3
"""Whether two trees' case builders make the same cases, and what each costs in CPU.

    .venv/bin/python bench/builder_check.py compare BEFORE_TREE AFTER_TREE [--seeds 0-5,11] [--draws 500]
    .venv/bin/python bench/builder_check.py time BEFORE_TREE AFTER_TREE [--rounds 3] [--seeds 11] [--draws 600]

Each tree runs in a process of its own (`dump`/`cost` below, the tree first on sys.path), so each
builds with its own code. The parameters are those exploration draws: for every family and seed,
`space.draw(draws.Plain(seed))` again and again, as search.explore does (a draw's None recorded
as such). `compare` writes, per draw, the canonical parameters and the built case (case.id and
case.to_json(), or None where search.build refuses them), then the catalog's cases of every family
(catalog.cases, the case cache off, to_json each), and reports every line that differs.
`time` alternates the trees, `rounds` times each, and prints the process CPU (process_time) the
builds alone took per case, per family (the median round): the parameters are drawn before the
clock starts; each process's first builds (template compiles, imports) count, as in exploration.
"""
from __future__ import annotations

import hashlib
import os
import statistics
import subprocess
import sys
import time

FAMILIES = ("tess", "draw_params", "varyings")


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += list(range(int(low), int(high or low) + 1))
    return out


def _drawn(family: str, seed: int, count: int) -> list:
    from harness.sources.explored import space
    from harness.sources.explored.draws import Plain
    sp, source = space.get(family), Plain(seed)
    return [sp.draw(source) for _ in range(count)]


def dump(seeds: list[int], count: int, out) -> None:
    from harness.explore import search
    from harness.sources import catalog
    from harness.sources.explored import space
    from harness.sources.explored.choices import canonical
    for family in FAMILIES:
        sp = space.get(family)
        for seed in seeds:
            for n, params in enumerate(_drawn(family, seed, count)):
                case = None if params is None else search.build(sp, params)
                made = "None" if case is None else f"{case.id} {case.to_json()}"
                out.write(f"{family} {seed} {n} {canonical(params)} {made}\n")
    os.environ["HARNESS_CASE_CACHE"] = "0"
    for family in FAMILIES:
        for case in catalog.cases(family):
            out.write(f"catalog {family} {case.to_json()}\n")


def cost(seeds: list[int], count: int) -> None:
    """Per family: `<family> <cases built> <CPU seconds>`."""
    from harness.explore import search
    from harness.sources.explored import space
    for family in FAMILIES:
        sp = space.get(family)
        built, spent = 0, 0.0
        for seed in seeds:
            drawn = [p for p in _drawn(family, seed, count) if p is not None]
            start = time.process_time()
            for params in drawn:
                search.build(sp, params)
            spent += time.process_time() - start
            built += len(drawn)
        print(f"{family} {built} {spent}")


def _child(tree: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=tree)
    return subprocess.run([sys.executable, __file__, *args, "--tree", tree], env=env, check=True,
                          capture_output=True, text=True)


def compare(before: str, after: str, seeds: str, count: str) -> int:
    outputs = [_child(tree, "dump", "--seeds", seeds, "--draws", count).stdout.splitlines()
               for tree in (before, after)]
    differ = [n for n, (a, b) in enumerate(zip(*outputs)) if a != b]
    if len(outputs[0]) != len(outputs[1]):
        differ.append(min(map(len, outputs)))
    explored = sum(not line.startswith("catalog ") for line in outputs[0])
    refused = sum(line.endswith(" None") for line in outputs[0])
    digest = hashlib.sha256("\n".join(outputs[0]).encode()).hexdigest()[:16]
    print(f"{explored} explored draws ({refused} None: not drawn or refused), "
          f"{len(outputs[0]) - explored} catalog cases; before sha256 {digest}; {len(differ)} lines differ")
    for n in differ[:5]:
        print(f"  line {n}:\n    before {outputs[0][n][:300] if n < len(outputs[0]) else '(none)'}\n"
              f"    after  {outputs[1][n][:300] if n < len(outputs[1]) else '(none)'}")
    return 1 if differ else 0


def timing(before: str, after: str, seeds: str, count: str, rounds: int) -> None:
    """Each tree `rounds` times, alternating; the build CPU a case, per family and in all."""
    spent: dict[tuple[str, str], list[float]] = {}
    built: dict[str, int] = {}
    for _ in range(rounds):
        for tree in (before, after):
            for line in _child(tree, "cost", "--seeds", seeds, "--draws", count).stdout.splitlines():
                family, cases, cpu = line.split()
                built[family] = int(cases)
                spent.setdefault((tree, family), []).append(float(cpu))
    for tree in (before, after):
        spent[(tree, "all")] = [sum(spent[(tree, f)][r] for f in FAMILIES) for r in range(rounds)]
    built["all"] = sum(built[f] for f in FAMILIES)
    load = os.getloadavg()
    print(f"build CPU, ms a case: the median of {rounds} rounds (each round's in brackets), {seeds=} {count} draws")
    for family in (*FAMILIES, "all"):
        ms = {tree: [v / built[family] * 1e3 for v in spent[(tree, family)]] for tree in (before, after)}
        mid = {tree: statistics.median(ms[tree]) for tree in (before, after)}
        print(f"  {family:12} {built[family]:5} cases: before {mid[before]:.3f} "
              f"({', '.join(f'{v:.3f}' for v in ms[before])}), after {mid[after]:.3f} "
              f"({', '.join(f'{v:.3f}' for v in ms[after])}); after/before {mid[after] / mid[before]:.2f} "
              f"(the best rounds': {min(ms[after]) / min(ms[before]):.2f})")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def main(argv: list[str]) -> int:
    def opt(name: str, default: str) -> str:
        return argv[argv.index(name) + 1] if name in argv else default
    mode = argv[0]
    if mode in ("dump", "cost"):
        sys.path.insert(0, opt("--tree", "."))
        seeds, count = _seeds(opt("--seeds", "11")), int(opt("--draws", "500"))
        if mode == "dump":
            dump(seeds, count, sys.stdout)
        else:
            cost(seeds, count)
        return 0
    before, after = argv[1], argv[2]
    if mode == "compare":
        return compare(before, after, opt("--seeds", "0-5,11"), opt("--draws", "500"))
    timing(before, after, opt("--seeds", "11"), opt("--draws", "600"), int(opt("--rounds", "3")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
