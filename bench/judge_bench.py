"""Judging time, and identical verdicts, of harness/oracle/verdict.py against an earlier revision of it.

Inputs: (case id, Result) pairs that bench/collect_observations.py saved from a run of the
families. Both versions judge the same pairs in this one process, interleaved case by case
(the order swapped every round), so that a loaded machine slows both alike; a case's time is
its least CPU time over the rounds. The expectation tables are dropped before each new
judgement, as in a run, where a case is judged once (flake re-runs aside).

    .venv/bin/python bench/collect_observations.py /tmp/judge_obs.pickle
    .venv/bin/python bench/judge_bench.py /tmp/judge_obs.pickle [--rev main] [--rounds 5]

--check also judges mutated observations (values perturbed, records dropped, duplicated,
rekeyed, reordered, truncated) and fails on any difference in status or message.
"""
from __future__ import annotations

import argparse
import pickle
import statistics
import subprocess
import sys
import time
import types
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.sources import catalog  # noqa: E402
from harness.oracle import expected_tables, verdict  # noqa: E402
from harness.model.status import Result  # noqa: E402
from harness.model.observation import decode_records, encode_records  # noqa: E402

WHERE = "llvmpipe: bench"


def load_revision(rev: str) -> types.ModuleType:
    """harness/oracle/verdict.py as of `rev`, with the observation decoding and the expectation
    tables of that revision (not this tree's, which the bench compares it with)."""
    modules = {}
    for name, path in (("observation", "model/observation"), ("expected_tables", "oracle/expected_tables"),
                       ("verdict", "oracle/verdict")):
        source = subprocess.run(["git", "show", f"{rev}:harness/{path}.py"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout
        module = types.ModuleType(f"{name}_at_{rev}")
        sys.modules[module.__name__] = module              # dataclasses look their module up
        exec(compile(source, f"{rev}:harness/{path}.py", "exec"), module.__dict__)
        modules[name] = module
    old = modules["verdict"]
    old.decode_records = modules["observation"].decode_records
    old.tables, old.GroupTables = modules["expected_tables"].tables, modules["expected_tables"].GroupTables
    old.expected_tables = modules["expected_tables"]       # whose cache the bench drops
    if not hasattr(old.expected_tables, "forget"):         # a revision from before forget(): its cache,
        old.expected_tables.forget = vars(old.expected_tables)["_CACHE"].clear   # the same dict
    return old


def forget_tables(old: types.ModuleType) -> None:
    """Both versions' kept tables dropped, as before a case's first judgement in a run."""
    expected_tables.forget()
    old.expected_tables.forget()


def mutations(case, result):
    """Failing variants of an observation: each a (what, Result)."""
    observation = result.observation.to_json() if result.observation is not None else {}
    for d, draw in enumerate(observation.get("steps", [])):
        if not draw.get("xfb"):
            continue
        records = decode_records(case.readback.captures, draw["xfb"])
        if not len(records):
            continue
        names = records.dtype.names

        def variant(what, new_records, d=d):
            draws = [dict(x) for x in observation["steps"]]
            draws[d]["xfb"] = encode_records(new_records.tobytes())
            return what, Result("ok", observation={**observation, "steps": draws})
        for name in names:
            for scale, shift in ((1.0, 1.0), (1.0, 1e-6), (0.5, 0.0), (1.0, float("nan"))):
                changed = records.copy()
                rows = slice(None, None, 3) if scale == 1.0 and shift == 1.0 else slice(len(records) // 2, None)
                column = changed[name][rows]
                if column.dtype.kind == "f":
                    changed[name][rows] = column * scale + shift
                elif shift == shift:                           # integers: no NaN
                    changed[name][rows] = column + int(max(1, shift))
                yield variant(f"draw {d}: {name} x{scale} +{shift}", changed)
        yield variant(f"draw {d}: last record dropped", records[:-1])
        yield variant(f"draw {d}: every other record dropped", records[::2])
        yield variant(f"draw {d}: first record duplicated", records[[0] + list(range(len(records)))])
        yield variant(f"draw {d}: reversed", records[::-1])
        yield variant(f"draw {d}: no records", records[:0])
        for name in names:
            if records[name].dtype.kind in "iu":
                rekeyed = records.copy()
                rekeyed[name][::5] += 7
                yield variant(f"draw {d}: {name} +7 in every fifth record", rekeyed)
        counts = dict(draw.get("counts", {}))
        if counts:
            draws = [dict(x) for x in observation["steps"]]
            draws[d]["counts"] = {k: v + 1 for k, v in counts.items()}
            yield f"draw {d}: counts + 1", Result("ok", observation={**observation, "steps": draws})
    if observation.get("steps"):
        yield "last draw missing", Result("ok", observation={**observation, "steps": observation["steps"][:-1]})


def check(pairs, old) -> int:
    differences = judged = failing = 0
    for case, result in pairs:
        for what, variant in [("as observed", result)] + list(mutations(case, result)):
            forget_tables(old)
            a = old.judge(case, variant, WHERE)
            b = verdict.judge(case, variant, WHERE)
            c = verdict.judge(case, variant, WHERE)            # with the tables kept (a flake re-run)
            judged += 1
            failing += a.status != "pass"
            if (a.status, a.message) != (b.status, b.message) or (b.status, b.message) != (c.status, c.message):
                differences += 1
                if differences <= 5:
                    print(f"DIFFERENT: {case.id}, {what}:\n  old {a}\n  new {b}\n  again {c}")
    print(f"equivalence: {judged} judgements ({failing} not passing) of {len(pairs)} cases, "
          f"{differences} differ")
    return differences


def timing(pairs, old, rounds: int) -> None:
    best = {"old": defaultdict(lambda: float("inf")), "new": defaultdict(lambda: float("inf"))}
    clock = time.thread_time
    for r in range(rounds):
        for i, (case, result) in enumerate(pairs):
            order = (("old", old), ("new", verdict)) if (r + i) % 2 else (("new", verdict), ("old", old))
            for name, module in order:
                forget_tables(old)
                start = clock()
                module.judge(case, result, WHERE)
                best[name][i] = min(best[name][i], clock() - start)
    families = sorted({case.family for case, _ in pairs})
    print(f"CPU ms per case judged (least of {rounds} rounds, interleaved):")
    for family in families + ["all"]:
        index = [i for i, (case, _) in enumerate(pairs) if family in ("all", case.family)]
        before = sum(best["old"][i] for i in index) / len(index) * 1e3
        after = sum(best["new"][i] for i in index) / len(index) * 1e3
        median = [statistics.median(best[name][i] for i in index) * 1e3 for name in ("old", "new")]
        print(f"  {family:12} {len(index):5} cases  mean: before {before:.3f}  after {after:.3f} "
              f"({before / after:.2f}x)   median: before {median[0]:.3f}  after {median[1]:.3f} "
              f"({median[0] / median[1]:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("observations")
    parser.add_argument("--rev", default="main",
                        help="the revision of harness/oracle/verdict.py to compare with (one since the layers' "
                             "subpackages and the expectation tables)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="also compare verdicts of mutated observations")
    parser.add_argument("--limit", type=int, default=0, help="only the first N pairs of each family")
    args = parser.parse_args()
    with open(args.observations, "rb") as f:
        saved = pickle.load(f)
    cases = {case.id: case for family in catalog.FAMILIES for case in catalog.cases(family)
             if family in {i.split("/", 1)[0] for i, _ in saved["pairs"]}}
    pairs, seen = [], defaultdict(int)
    for case_id, result in saved["pairs"]:
        family = case_id.split("/", 1)[0]
        seen[family] += 1
        if not args.limit or seen[family] <= args.limit:
            # Built anew: unpickling skips __post_init__, which makes the status a Reply.
            pairs.append((cases[case_id], Result(result.status, result.message, result.observation,
                                                 result.duration)))
    old = load_revision(args.rev)
    timing(pairs, old, args.rounds)
    if args.check and check(pairs, old):
        sys.exit(1)


if __name__ == "__main__":
    main()
