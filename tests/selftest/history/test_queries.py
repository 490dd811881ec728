"""The questions asked of the history: a case's transitions and first bad run, failure rates
with their Wilson interval and kind, lanes kept apart, the diff of stored runs, baseline and
flakes lines with their evidence; and the statistics, against values worked by hand."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from harness.history import ingest, lines, queries, sources, stats, store
from harness.model.status import FAILING_KINDS
from make import record, run, series

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def stored(database_url, tmp_path):
    """Eight nightly runs of one job: a regression from run 5, a flake, a fix, a known failure."""
    series(tmp_path, {"tess/regressed": "....FFFF", "tess/flaky": ".C..F.C.", "tess/fixed": "FF......",
                      "tess/known": "xxxxxxxx", "tess/skipped": "ssss.F..", "tess/fine": "........"},
           ci_job_name="nightly", ci_pipeline_id="{day}")
    ingest.ingest(store.open_store(database_url), sources.runs(sorted(tmp_path.glob("run*"))))
    return store.open_store(database_url, readonly=True)


def test_case_history_names_the_first_bad_run(stored):
    with stored.connect() as connection:
        (history,) = queries.history(connection, "tess/regressed")
    assert [p.status.value for p in history.points] == ["pass"] * 4 + ["fail"] * 4
    assert history.first_bad.run.started.day == 5 and history.last_good.run.started.day == 4
    (change,) = history.transitions
    assert change[0].run.started.day == 4 and change[1].failure
    assert history.rate.kind == "regressed"


def test_first_bad_of_a_flake_starts_its_failing_period(stored):
    """.C..F.C.: the passes between its failures are luck at its rate (3/7 from day 2: two
    passes in a row have probability 0.33), so its failing period starts on day 2."""
    with stored.connect() as connection:
        (history,) = queries.history(connection, "tess/flaky", "llvmpipe")
    assert history.first_bad.run.started.day == 2 and history.last_good.run.started.day == 1
    assert len(history.transitions) == 6


def test_rates_rank_and_classify(stored):
    with stored.connect() as connection:
        found = {r.name: r for r in queries.rates(connection)}
    assert set(found) == {"tess/regressed", "tess/flaky", "tess/fixed", "tess/known", "tess/skipped"}
    assert (found["tess/flaky"].failed, found["tess/flaky"].runs, found["tess/flaky"].kind) == (3, 8, "flaky")
    assert found["tess/known"].kind == "failing" and found["tess/fixed"].kind == "fixed"
    assert found["tess/fixed"].clean_since == 6
    assert found["tess/skipped"].runs == 4                  # skips are not runs of the case
    assert found["tess/flaky"].statuses == ("crash", "fail")
    with stored.connect() as connection:
        assert [r.name for r in queries.rates(connection, kinds=("flaky",))] == ["tess/flaky", "tess/skipped"]


def test_lanes_are_kept_apart(database_url, tmp_path):
    """The same case failing on one Mesa and passing on another, in the same nights: two lanes,
    neither flaky."""
    for day in range(1, 5):
        run(tmp_path / f"old{day}", [record("tess/a")], f"2026-11-0{day}T01:00:00")
        run(tmp_path / f"new{day}", [record("tess/a", queries.Status.FAIL, mesa="26.2.6-1")], f"2026-11-0{day}T02:00:00")
    ingest.ingest(store.open_store(database_url), sources.runs([tmp_path]))
    with store.open_store(database_url).connect() as connection:
        found = queries.rates(connection)
        histories = queries.history(connection, "tess/a")
    assert [(r.lane, r.kind) for r in found] == [("mesa 26.2.6-1", "failing")]
    assert sorted(h.lane for h in histories) == ["mesa 22.3.6-1+deb12u2", "mesa 26.2.6-1"]


def test_wilson_against_worked_values():
    low, high = stats.wilson(3, 8)          # p = .375, n = 8, z = 1.96: (0.1368, 0.6943) by hand
    assert math.isclose(low, 0.1368, abs_tol=1e-4) and math.isclose(high, 0.6943, abs_tol=1e-4)
    assert stats.wilson(0, 10)[0] == 0 and math.isclose(stats.wilson(0, 10)[1], 0.2775, abs_tol=5e-4)
    assert math.isclose(stats.wilson(10, 10)[1], 1) and stats.wilson(0, 0) == (0.0, 1.0)


def test_fixed_confidence():
    assert math.isclose(stats.fixed_confidence(59, 0.05), 1 - 0.95 ** 59)      # ~95%: the rule of three's 3/n
    assert stats.fixed_confidence(0, 0.05) == 0
    with pytest.raises(ValueError):
        stats.fixed_confidence(3, 0)


def test_lines_carry_their_evidence(stored):
    with stored.connect() as connection:
        found = queries.rates(connection)
    baseline = lines.baseline_lines(found, {"llvmpipe": "llvmpipe (LLVM 15)"})
    assert "tess/regressed[llvmpipe],Fail" in baseline and "tess/known[llvmpipe],Fail" in baseline
    comment = baseline[baseline.index("tess/regressed[llvmpipe],Fail") - 1]
    assert "Board: llvmpipe (llvmpipe (LLVM 15))" in comment and "4/4 runs since it regressed" in comment
    assert "first seen 2026-11-05" in comment
    flake, _skipped = lines.flakes_lines(found)
    assert flake.startswith(r"^tess/flaky\[llvmpipe\]$ crash,fail  # ") and "3/8 runs (38%, 95% CI 14%-69%)" in flake
    assert any("tess/fixed" in line for line in lines.fixed_lines(found))


def test_flakes_lines_are_a_flakes_file(stored, tmp_path):
    """What `lines` writes loads as the harness's own flakes file and matches the case."""
    from harness.run import baseline
    with stored.connect() as connection:
        (tmp_path / "flakes.txt").write_text("\n".join(lines.flakes_lines(queries.rates(connection))) + "\n")
        (tmp_path / "baseline.csv").write_text("\n".join(lines.baseline_lines(queries.rates(connection))) + "\n")
    (pattern, statuses, _), _skipped = baseline.load_flakes([tmp_path / "flakes.txt"])
    assert pattern.search("tess/flaky[llvmpipe]") and not pattern.search("tess/flaky[zink]")
    assert {s.value for s in statuses} == {"crash", "fail"}
    assert set(baseline.load([tmp_path / "baseline.csv"])) >= {"tess/regressed[llvmpipe]", "tess/known[llvmpipe]"}


def harness(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "history", *args], capture_output=True, text=True, cwd=ROOT)


def test_cli_answers_in_json(stored, database_url):
    case = json.loads(harness("case", "tess/regressed[llvmpipe]", "--store", database_url, "--json").stdout)
    assert case[0]["first_bad"]["pipeline"] == "5" and case[0]["last_good"]["pipeline"] == "4"
    flakes = json.loads(harness("flakes", "--store", database_url, "--json").stdout)
    assert [f["case"] for f in flakes] == ["tess/flaky", "tess/skipped"] and flakes[0]["interval95"] == [0.1368, 0.6943]
    diff = harness("diff", "pipeline:4", "pipeline:5", "--store", database_url)
    assert diff.returncode == 1 and "tess/regressed: pass -> fail" in diff.stdout
    missing = harness("case", "tess/nothing", "--store", database_url)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


def nightly_builds(database_url: str, folder, letters: str, commits: list[str]) -> queries.History:
    """Nightly runs of tess/a on builds of a Mesa checkout (`letters`: . pass, F crash; one
    commit a run), stored; the case's one history."""
    for i, (letter, commit) in enumerate(zip(letters, commits)):
        status = queries.Status.CRASH if letter == "F" else queries.Status.PASS
        run(folder / f"r{i}", [record("tess/a", status, mesa="26.3.0-devel")], f"2026-11-0{i + 1}T01:00:00",
            mesa_commit=commit, ci_job_name="nightly", ci_pipeline_id=str(i))
    ingest.ingest(store.open_store(database_url), sources.runs([folder]))
    with store.open_store(database_url).connect() as connection:
        (history,) = queries.history(connection, "tess/a")
    return history


def test_bisect_command_of_a_regression(database_url, tmp_path):
    history = nightly_builds(database_url, tmp_path, "..F.FF", ["c1", "c2", "c2", "c3", "c4", "c5"])
    # c2 failed once and passed once: a failure proves a commit bad, so c2 is the first bad
    # commit the history shows, c1 the good one, and the rate from c2 on is 3/4
    assert history.bisect_range() == ("c1", "c2", 0.75)
    done = harness("bisect", "tess/a", "--tree", str(tmp_path), "--store", database_url, "--dry-run",
                   "--results-dir", "/tmp/x")
    assert done.returncode == 0, done.stderr
    assert "python -m harness bisect tess/a --target llvmpipe --tree" in done.stderr
    assert "--good c1 --bad c2 --rate 0.75 --results-dir /tmp/x" in done.stderr and "4 run(s) a step" in done.stderr


def test_bisect_of_an_intermittent_regression_runs_k_times_a_step(database_url, tmp_path):
    history = nightly_builds(database_url, tmp_path, "...F..F.F", ["c1", "c1", "c2", "c3", "c3", "c4", "c4", "c5", "c5"])
    good, bad, rate = history.bisect_range()
    assert (good, bad, rate) == ("c2", "c3", round(3 / 6, 4))        # 3 of the 6 runs from the first bad one
    assert history.bisect_command().endswith("--good c2 --bad c3 --rate 0.5")
    done = harness("bisect", "tess/a[llvmpipe]", "--tree", str(tmp_path), "--store", database_url, "--dry-run")
    assert "-> 7 run(s) a step" in done.stderr                       # ceil(ln 0.01 / ln 0.5) = 7
    assert "1 passing run(s): good with confidence 50.00%" in done.stderr


def test_a_flakes_first_try_is_what_its_lines_name(database_url, tmp_path):
    """A flake (listed, or passed on a re-run) counts as a failure, and its status in a flakes
    line is its failing try's, as the verdict's message says (harness/run/policy.py)."""
    messages = {1: "flake (listed in baselines/x-flakes.txt:3): crash: child process died: SIGSEGV",
                3: "flake: timeout first, passed on re-run 1: the child did not answer in 60 s"}
    for day in range(1, 5):
        status = queries.Status.FLAKE if day in messages else queries.Status.PASS
        run(tmp_path / f"r{day}", [record("tess/a", status, message=messages.get(day, ""))], f"2026-11-0{day}T01:00:00")
    ingest.ingest(store.open_store(database_url), sources.runs([tmp_path]))
    with store.open_store(database_url).connect() as connection:
        (rate,) = queries.rates(connection)
    assert (rate.failed, rate.runs, rate.kind, rate.statuses) == (2, 4, "flaky", ("crash", "timeout"))
    (line,) = lines.flakes_lines([rate])
    assert line.startswith(r"^tess/a\[llvmpipe\]$ crash,timeout  # ")


def test_counted_rates_equal_the_rates_read_run_by_run(database_url, tmp_path):
    """rates() counts the series that fail every run in SQL: the same Rates, field by field, as
    reading every series run by run (random statuses over two lanes and two Mesas, a window)."""
    import random
    rng = random.Random(45)
    letters = ".FCTsxf"
    cases = {f"tess/c{i}": "".join(rng.choice(letters if i % 3 else "FCx") for _ in range(12)) for i in range(30)}
    series(tmp_path / "a", cases, ci_job_name="nightly")
    series(tmp_path / "b", cases, started="2026-11-{day:02d}T07:00:00")                  # lane 'mesa ...'
    ingest.ingest(store.open_store(database_url), sources.runs([tmp_path]))
    with store.open_store(database_url).connect() as connection:
        for window in ({}, {"since": queries.datetime.datetime(2026, 11, 4)}):
            counted = queries.rates(connection, kinds=FAILING_KINDS, **window)
            condition = [queries.R.c.started >= window["since"]] if window else []
            failing = sorted({c for c, in connection.execute(queries.select(queries.T.c.case_id).where(
                queries.T.c.failure))})
            names = {c: (n, t) for c, n, t in connection.execute(queries.select(queries.C.c.id, queries.C.c.name,
                                                                                queries.C.c.target))}
            read = [r for r in queries._series_rates(connection, failing, names, condition)
                    if r.failed and r.kind in FAILING_KINDS]
            key = lambda r: (r.name, r.target, r.lane)           # noqa: E731
            assert sorted(counted, key=key) == sorted(read, key=key)
            assert any(r.kind == "failing" for r in counted) and any(r.kind == "flaky" for r in counted)


def test_lane_limit_and_previous_run_in_sql(database_url, tmp_path):
    """runs(lane=, limit=) and previous() answer in SQL what filtering every run in Python did:
    three lanes (two CI jobs, one Mesa without a job), two runs started at the same second."""
    from harness.history import dashboard
    for lane, job, mesa in (("a", "nightly", ""), ("b", "weekly", ""), ("c", "", "25.0.7")):
        for day in range(1, 5):
            started = f"2026-11-{day:02d}T06:00:00+00:00"
            properties = {"ci_job_name": job, "ci_pipeline_id": f"{lane}{day}"} if job else {"mesa": mesa}
            run(tmp_path / "runs" / f"{lane}{day}", [record(f"tess/{lane}")], started, **properties)
        run(tmp_path / "runs" / f"{lane}-tie", [record(f"tess/{lane}-tie")], "2026-11-04T06:00:00+00:00",
            **({"ci_job_name": job, "ci_pipeline_id": f"{lane}-tie"} if job else {"mesa": mesa}))
    ingest.ingest(store.open_store(database_url), sources.runs(sorted((tmp_path / "runs").iterdir())))
    with store.open_store(database_url, readonly=True).connect() as connection:
        every = queries.runs(connection)
        assert len(every) == 15
        for lane in ("nightly", "weekly", "mesa 25.0.7", "none"):
            mine = [r for r in every if r.lane == lane]
            assert [r.id for r in queries.runs(connection, lane=lane)] == [r.id for r in mine]
            assert [r.id for r in queries.runs(connection, lane=lane, limit=2)] == [r.id for r in mine[:2]]
        assert [r.id for r in queries.runs(connection, limit=4)] == [r.id for r in every[:4]]
        before: dict[int, int] = {}                 # the oracle: each lane's runs walked oldest first
        last: dict[str, int] = {}
        for r in sorted(every, key=lambda r: (r.started, r.id)):
            if r.lane in last:
                before[r.id] = last[r.lane]
            last[r.lane] = r.id
        for later in every:
            found = queries.previous(connection, later)
            assert (found.id if found else None) == before.get(later.id), later.id
        assert queries.previous_ids(connection, [r.id for r in every]) == before
        newest = every[:4]
        assert {i: r.id for i, r in dashboard.previous_runs(connection, newest).items()} == \
            {r.id: before[r.id] for r in newest if r.id in before}
