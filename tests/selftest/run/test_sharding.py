"""Sharding: --shard K/N, and the CI's CI_NODE_INDEX/CI_NODE_TOTAL where --shard is not given,
for pytest runs, `harness parallel` (whose processes split the CI's shard further) and
`harness explore`'s seeds. The real run: three CI shards of `harness parallel` on llvmpipe, each
the cases its shard names, merged equal to one unsharded run."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from harness.base import config
from harness.run import sharding
from harness.cli import explore as explore_cli

SELECTION = ["tests/draw_params", "-k", "DrawArraysInstanced", "--target", "llvmpipe"]
CI_CLEAN = {k: v for k, v in os.environ.items() if k not in ("CI_NODE_INDEX", "CI_NODE_TOTAL")}


def test_a_shard_is_every_nth_item_from_the_kth():
    shard = sharding.parse("2/3")
    assert [i for i in range(10) if shard.picks(i)] == [1, 4, 7]
    assert [i for i in range(10) if sharding.WHOLE.picks(i)] == list(range(10))


@pytest.mark.parametrize("outer", ["1/1", "1/3", "2/3", "3/3", "2/5"])
@pytest.mark.parametrize("processes", [1, 2, 3])
def test_processes_split_their_shard_exactly(outer, processes):
    """`harness parallel`'s processes in a CI shard run that shard's items, each once."""
    outer = sharding.parse(outer)
    theirs = [[i for i in range(100) if outer.split(sharding.Shard(p, processes)).picks(i)]
              for p in range(1, processes + 1)]
    assert sorted(i for part in theirs for i in part) == [i for i in range(100) if outer.picks(i)]


def test_the_ci_variables_choose_the_shard_unless_shard_is_given():
    ci = config.knobs({"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"})
    assert sharding.chosen("", ci) == sharding.Shard(2, 3, "CI_NODE_INDEX=2 CI_NODE_TOTAL=3")
    assert sharding.chosen("1/4", ci) == sharding.Shard(1, 4)
    assert sharding.chosen("", config.knobs({})) == sharding.WHOLE


@pytest.mark.parametrize("index,total", [("0", "3"), ("4", "3"), ("2", ""), ("", "3"), ("x", "3")])
def test_bad_ci_variables_are_one_clear_error(index, total):
    with pytest.raises(sharding.ShardError, match="CI_NODE_INDEX"):
        sharding.from_ci(index, total)


def test_explore_splits_a_seed_range_as_a_run_its_cases():
    assert explore_cli.parse_seeds("3") == [3]
    seeds = explore_cli.parse_seeds("0-9")
    assert [s for i, s in enumerate(seeds) if sharding.parse("2/3").picks(i)] == [1, 4, 7]
    for bad in ("9-0", "a", "1-", "-3"):
        with pytest.raises(ValueError, match="--seed"):
            explore_cli.parse_seeds(bad)


def test_explore_with_bad_ci_variables_exits_2():
    proc = subprocess.run([sys.executable, "-m", "harness", "explore", "--family", "tess", "--seed", "0-5",
                           "--target", "llvmpipe"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**CI_CLEAN, "CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"})
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "python -m harness explore: CI_NODE_INDEX='0' CI_NODE_TOTAL='3': K must be between 1 and N (counted from 1)"]


def _parallel(results, env=None):
    return subprocess.run([sys.executable, "-m", "harness", "parallel", "2", *SELECTION, "--results-dir", str(results)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env={**CI_CLEAN, **(env or {})})


def _verdicts(folder) -> dict:
    return {f"{e['id']}[{e['target']}]": e["status"]
            for e in json.loads((folder / "results.json").read_text())["results"]}


@pytest.mark.slow          # four parallel runs: the whole selection, then its three CI shards
def test_ci_shards_of_a_parallel_run_merge_into_the_whole_run(tmp_path):
    listed = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                             *SELECTION], cwd=ROOT, capture_output=True, text=True, timeout=120, env=CI_CLEAN)
    order = [line.split("::", 1)[1] for line in listed.stdout.splitlines() if "::" in line]
    assert len(order) >= 9, listed.stdout[-2000:]

    whole = _parallel(tmp_path / "whole")
    assert whole.returncode == 0, whole.stdout[-3000:] + whole.stderr[-3000:]
    shards = []
    for k in (1, 2, 3):
        proc = _parallel(tmp_path / f"ci{k}", {"CI_NODE_INDEX": str(k), "CI_NODE_TOTAL": "3"})
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        first, second = proc.stdout.splitlines()[:2]
        assert first.startswith(("harness: gated on ", "harness: ungated"))        # what gates it, first
        assert second.startswith(
            f"harness parallel: shard {k}/3 (CI_NODE_INDEX={k} CI_NODE_TOTAL=3): cases {k}, {k + 3}, ")
        assert set(_verdicts(tmp_path / f"ci{k}")) == set(order[k - 1::3])       # the k-th third, interleaved
        shards.append(str(tmp_path / f"ci{k}"))

    merged = subprocess.run([sys.executable, "-m", "harness", "merge", str(tmp_path / "merged"), *shards],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert merged.returncode == 0, merged.stderr
    assert _verdicts(tmp_path / "merged") == _verdicts(tmp_path / "whole")
    compare = subprocess.run([sys.executable, "-m", "harness", "compare", str(tmp_path / "whole"),
                              str(tmp_path / "merged")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert compare.returncode == 0, compare.stdout
