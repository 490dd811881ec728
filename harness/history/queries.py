"""The questions a CI maintainer asks of the history, answered from the store (SQLAlchemy Core,
the same SQL on SQLite and PostgreSQL):

- `runs`: the stored runs, newest first, with their counts per target;
- `history`: one case's status in each run, its transitions, and the last good and first bad
  runs of its latest failure (with the Mesa versions or commits between them);
- `rates`: failures out of runs over a window, per case, target and lane, with the Wilson
  interval, how the failures lie (flaky, regressed, fixed, always failing) and the clean runs since
  the last one;
- `records`: a stored run as the Records `harness compare` and `harness report` take.

A *lane* is the sequence of runs a status history is read along: a CI job's runs (its name less
the shard suffix), else the runs of one Mesa version. Two gates of one pipeline (the system's
Mesa and sid's) are two lanes, so a case that fails on one Mesa and passes on the other is not
called flaky, and a regression shows where the job's Mesa moved.
"""
from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import ColumnElement, Connection, Integer, and_, func, or_, select, type_coerce

from harness.history import schema, stats
from harness.history.store import chunks
from harness.model.outcome import Judged, Outcome, Record
from harness.model.status import FAILING_KINDS, RateKind, Status
from harness.run import policy
from harness.base.errors import UsageError

R, C, M, T, RT = schema.runs, schema.cases, schema.messages, schema.results, schema.run_targets
COUNTS = ("passed", "skipped", "flaked", "failed", "known")
Targets = dict[str, dict[str, Any]]       # a run's targets: target -> its renderer, GL version, counts...
When = datetime.datetime | None
# a run of a series the flakes page reads run by run: (started, Mesa, status, failure, run id, judged)
Counted = tuple[datetime.datetime, str, str, bool, int, str]
# a series' runs of one status, counted in SQL: (status, runs, first, last, Mesa, judged)
Member = tuple[str, int, datetime.datetime, datetime.datetime, str, str]
LUCK = 0.01             # a passing stretch this unlikely at a failure's rate ends its failing period


@dataclass(frozen=True)
class Run:
    id: int
    started: datetime.datetime
    pipeline: str
    job: str
    commit: str
    ref: str
    url: str
    mesa: str
    mesa_commit: str
    machine: str
    harness_version: str
    harness_commit: str
    job_ids: str
    source: str
    lane: str                   # as ingest stored it (sources.Run.lane)
    targets: Targets = field(default_factory=dict, compare=False)

    @property
    def mesa_rev(self) -> str:
        """What names its Mesa for `git bisect`: the build's commit, else the release tag."""
        return self.mesa_commit or mesa_tag(self.mesa)

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        return {**data, "started": self.started.isoformat()}


def mesa_tag(version: str) -> str:
    """Mesa's git tag of a version its drivers or Debian name (`25.0.7-2~bpo12+1` -> `mesa-25.0.7`)."""
    upstream = version.split("-")[0].split("~")[0].strip()
    return f"mesa-{upstream}" if upstream and upstream[0].isdigit() else ""


_RUN_NAMES = [name for name in Run.__dataclass_fields__ if name != "targets"]
_RUN_COLUMNS = [R.c[name] for name in _RUN_NAMES]


def _run(row: Sequence[Any], targets: Targets | None = None) -> Run:
    return Run(**dict(zip(_RUN_NAMES, row)), targets=targets or {})


def runs(connection: Connection, since: When = None, until: When = None, target: str | None = None, lane: str | None = None,
         pipeline: str | None = None, limit: int | None = None, mesa: str | None = None) -> list[Run]:
    """Stored runs, newest first, each with its targets' renderer and counts."""
    query = select(*_RUN_COLUMNS).order_by(R.c.started.desc(), R.c.id.desc())
    if since is not None:
        query = query.where(R.c.started >= since)
    if until is not None:
        query = query.where(R.c.started <= until)
    if pipeline:
        query = query.where(R.c.pipeline == pipeline)
    if mesa:
        query = query.where(R.c.mesa == mesa)
    if target:
        query = query.where(R.c.id.in_(select(RT.c.run_id).where(RT.c.target == target)))
    if lane:
        query = query.where(R.c.lane == lane)
    if limit:
        query = query.limit(limit)
    found = [_run(row) for row in connection.execute(query)]
    targets = _targets(connection, [run.id for run in found])
    return [replace(run, targets=targets[run.id]) for run in found]


def _targets(connection: Connection, ids: list[int]) -> dict[int, Targets]:
    """Per run id: target -> its run_targets row (renderer, counts...)."""
    targets: dict[int, Targets] = defaultdict(dict)
    for chunk in chunks(ids):
        for row in connection.execute(select(RT).where(RT.c.run_id.in_(chunk))).mappings():
            targets[row["run_id"]][row["target"]] = {k: v for k, v in row.items() if k not in ("run_id", "target")}
    return targets


def previous(connection: Connection, later: Run) -> Run | None:
    """The run before `later` on its lane (by start, then id, as the runs ran), or None: one probe
    of ix_runs_lane."""
    query = (select(*_RUN_COLUMNS).where(R.c.lane == later.lane,
                                         or_(R.c.started < later.started,
                                             and_(R.c.started == later.started, R.c.id < later.id)))
             .order_by(R.c.started.desc(), R.c.id.desc()).limit(1))
    row = connection.execute(query).first()
    return None if row is None else _run(row, _targets(connection, [row[0]])[row[0]])


def previous_ids(connection: Connection, ids: list[int]) -> dict[int, int]:
    """Each of these runs' previous run on its lane, by id (a lane's first run: absent), in one
    pass over ix_runs_lane (LAG over each lane), however many runs are asked about."""
    before = func.lag(R.c.id).over(partition_by=R.c.lane, order_by=(R.c.started, R.c.id)).label("before")
    lagged = select(R.c.id, before).subquery()
    wanted = set(ids)
    return {run_id: earlier for run_id, earlier in connection.execute(select(lagged.c.id, lagged.c.before)
                                                                      .where(lagged.c.before.is_not(None)))
            if run_id in wanted}


def run(connection: Connection, run_id: int) -> Run | None:
    row = connection.execute(select(*_RUN_COLUMNS).where(R.c.id == run_id)).first()
    return None if row is None else _run(row, _targets(connection, [run_id])[run_id])


def records(connection: Connection, run_id: int) -> list[Record]:
    """A stored run's Records, as results.json held them (less what the history keeps not)."""
    stored = run(connection, run_id)
    if stored is None:
        return []
    query = (select(C.c.name, C.c.target, T.c.status, T.c.judged, T.c.duration, M.c.text, T.c.expected,
                    T.c.reproducer)
             .join(C, C.c.id == T.c.case_id).outerjoin(M, M.c.id == T.c.message_id)
             .where(T.c.run_id == run_id).order_by(C.c.name, C.c.target))
    out = []
    for name, target, status, judged, duration, message, expected, reproducer in connection.execute(query):
        environment = stored.targets.get(target, {})
        out.append(Record(name, target, Outcome(Status(status), Judged(judged)), message=message or "",
                          expected=expected, duration=duration, renderer=environment.get("renderer", ""),
                          gl_version=environment.get("gl_version", ""), platform=environment.get("platform", ""),
                          mesa=stored.mesa, reproducer=reproducer))
    return out


class BisectRangeError(UsageError, ValueError):
    """A history with no Mesa range to bisect: why, in one line."""


@dataclass(frozen=True)
class Point:
    """A case in one run."""
    run: Run
    status: Status
    judged: Judged
    failure: bool
    message: str
    duration: float
    reproducer: str

    @property
    def known(self) -> bool:
        return self.judged is Judged.EXPECTED_FAIL

    def to_json(self) -> dict[str, Any]:
        return {"run": self.run.id, "started": self.run.started.isoformat(), "pipeline": self.run.pipeline,
                "mesa": self.run.mesa, "mesa_commit": self.run.mesa_commit, "status": self.status.value,
                "known": self.known, "failure": self.failure, "message": self.message,
                "duration": self.duration, "reproducer": self.reproducer}


@dataclass
class History:
    """A case on a target along one lane, oldest run first."""
    name: str
    target: str
    lane: str
    points: list[Point]

    @property
    def transitions(self) -> list[tuple[Point, Point]]:
        """Each change between passing and failing (skips and harness errors in between are passed over)."""
        judged = [p for p in self.points if _counted(p)]
        return [(a, b) for a, b in zip(judged, judged[1:]) if a.failure != b.failure]

    @property
    def last_good(self) -> Point | None:
        """The last passing run before the first bad one (None: it never passed before it)."""
        bad = self.first_bad
        if bad is None:
            return None
        before = [p for p in self.points[:self.points.index(bad)] if p.status is Status.PASS]
        return before[-1] if before else None

    @property
    def first_bad(self) -> Point | None:
        """The first failing run of the latest failing period. A passing stretch inside it is
        taken for luck while an intermittent failure at the period's rate would pass that many
        runs with probability above LUCK (for a failure every run: never, so the period starts
        after the last pass)."""
        failing = [i for i, p in enumerate(self.points) if p.failure]
        if not failing:
            return None
        j = len(failing) - 1
        while j > 0:
            passes = sum(p.status is Status.PASS for p in self.points[failing[j - 1] + 1:failing[j]])
            tail = [p for p in self.points[failing[j - 1]:] if _counted(p)]      # the period, were it extended
            rate = sum(p.failure for p in tail) / len(tail)
            if passes and (1 - rate) ** passes <= LUCK:
                break
            j -= 1
        return self.points[failing[j]]

    @property
    def rate_since_bad(self) -> float:
        """The failure rate of the runs from the first bad one on: what a bisection of an
        intermittent failure must catch (1.0 for one that fails every time)."""
        bad = self.first_bad
        if bad is None:
            return 0.0
        counted = [p for p in self.points[self.points.index(bad):] if _counted(p)]
        return sum(p.failure for p in counted) / len(counted)

    def bisect_range(self) -> tuple[str, str, float]:
        """(good, bad, rate): the Mesa revisions of the last good and first bad runs (a build's
        commit, else the release's tag) and the rate since; BisectRangeError says why there is none.
        The good end is the last passing run of another Mesa: one failure proves a Mesa bad."""
        good, bad = self.last_good, self.first_bad
        if bad is None:
            raise BisectRangeError(f"{self.name}[{self.target}] never failed in lane {self.lane}")
        other = [p for p in self.points[:self.points.index(bad)]
                 if p.status is Status.PASS and p.run.mesa_rev != bad.run.mesa_rev]
        good = other[-1] if other else good
        if good is None:
            raise BisectRangeError(f"{self.name}[{self.target}] never passed before its first failure in lane "
                                   f"{self.lane} (run {bad.run.id}): give --good yourself")
        revisions = good.run.mesa_rev, bad.run.mesa_rev
        if not all(revisions):
            raise BisectRangeError(f"runs {good.run.id} and {bad.run.id} name no Mesa commit or release "
                                   f"(Mesa {good.run.mesa!r}, {bad.run.mesa!r})")
        if revisions[0] == revisions[1]:
            raise BisectRangeError(f"the last good run ({good.run.id}) and the first bad one ({bad.run.id}) ran the "
                                   f"same Mesa ({revisions[0]}): the change is not Mesa's, or the failure is "
                                   f"intermittent ({self.rate.failed}/{self.rate.runs} runs failed)")
        return revisions[0], revisions[1], round(self.rate_since_bad, 4)

    def bisect_command(self, tree: str = "/path/to/mesa") -> str:
        """`harness bisect` over the range, ready to paste ('' where there is no range)."""
        try:
            good, bad, rate = self.bisect_range()
        except BisectRangeError:
            return ""
        flaky = f" --rate {rate:g}" if rate < 1 else ""
        return (f"python -m harness bisect {self.name} --target {self.target} --tree {tree} "
                f"--good {good} --bad {bad}{flaky}")

    @property
    def rate(self) -> "Rate":
        return Rate.of(self.name, self.target, self.lane, [p.failure for p in self.points if _counted(p)],
                       [p for p in self.points if _counted(p)])

    def to_json(self) -> dict[str, Any]:
        good, bad = self.last_good, self.first_bad
        return {"case": self.name, "target": self.target, "lane": self.lane,
                "runs": [p.to_json() for p in self.points],
                "transitions": [{"from": a.run.id, "to": b.run.id, "became": "failing" if b.failure else "passing"}
                                for a, b in self.transitions],
                "last_good": good.to_json() if good else None, "first_bad": bad.to_json() if bad else None,
                "rate": self.rate.to_json()}


def _counted(point: Point) -> bool:
    """Runs a rate counts: those where the driver passed or failed (not skips, not harness errors)."""
    return point.failure or point.status is Status.PASS


def _texts(connection: Connection, ids: set[int | None]) -> dict[int, str]:
    """The messages of these ids (None among them: no message), each read once."""
    return {message_id: text for chunk in chunks(sorted(i for i in ids if i is not None))
            for message_id, text in connection.execute(select(M.c.id, M.c.text).where(M.c.id.in_(chunk)))}


def history(connection: Connection, name: str, target: str | None = None, lane: str | None = None) -> list[History]:
    """The case's history on each target and lane (every one it ran on, or those named). Its
    results, their runs and their messages are read apart, each run and message once."""
    where = [C.c.name == name] + ([C.c.target == target] if target else [])
    targets = {case: case_target for case, case_target in connection.execute(select(C.c.id, C.c.target).where(*where))}
    query = select(T.c.case_id, T.c.run_id, T.c.status, T.c.judged, T.c.failure, T.c.message_id, T.c.duration,
                   T.c.reproducer).where(T.c.case_id.in_(list(targets)))
    if lane:
        query = query.where(T.c.run_id.in_(select(R.c.id).where(R.c.lane == lane)))
    rows = connection.execute(query).all()
    made = {row[0]: _run(row) for chunk in chunks(sorted({row[1] for row in rows}))
            for row in connection.execute(select(*_RUN_COLUMNS).where(R.c.id.in_(chunk)))}
    texts = _texts(connection, {row[5] for row in rows})
    found: dict[tuple[str, str], History] = {}
    for case, run_id, status, judged, failure, message_id, duration, reproducer in rows:
        stored = made[run_id]
        point = Point(stored, Status(status), Judged(judged), bool(failure), texts.get(message_id, ""), duration,
                      reproducer)
        found.setdefault((targets[case], stored.lane), History(name, targets[case], stored.lane, [])).points.append(point)
    for found_history in found.values():
        found_history.points.sort(key=lambda p: (p.run.started, p.run.id))      # oldest first
    return [found[key] for key in sorted(found)]


@dataclass(frozen=True)
class Rate:
    """A case's failures over the runs of a window on one lane."""
    name: str
    target: str
    lane: str
    failed: int
    runs: int
    first: datetime.datetime | None          # first and last run in the window
    last: datetime.datetime | None
    first_failed: datetime.datetime | None
    last_failed: datetime.datetime | None
    clean_since: int                          # runs since the last failure
    kind: RateKind
    mesa: tuple[str, ...] = ()                # the Mesa versions of its failing runs
    statuses: tuple[str, ...] = ()            # the failing statuses seen
    known: bool = False                       # the baseline expected one of its failures (a known defect)

    @classmethod
    def of(cls, name: str, target: str, lane: str, failures: list[bool],
           points: Sequence[Point | Counted]) -> "Rate":
        failed = sum(failures)
        bad = [i for i, f in enumerate(failures) if f]
        clean = len(failures) - 1 - bad[-1] if bad else len(failures)
        if not bad:
            kind = RateKind.PASSING
        elif failed == len(failures):
            kind = RateKind.FAILING
        elif bad == list(range(bad[0], len(failures))):
            kind = RateKind.REGRESSED
        elif bad == list(range(0, len(bad))):
            kind = RateKind.FIXED
        else:
            kind = RateKind.FLAKY
        started = [_started(p) for p in points]
        return cls(name, target, lane, failed, len(failures), started[0] if started else None,
                   started[-1] if started else None, started[bad[0]] if bad else None,
                   started[bad[-1]] if bad else None, clean, kind,
                   tuple(dict.fromkeys(_mesa(points[i]) for i in bad)),
                   tuple(dict.fromkeys(_status(points[i]) for i in bad)), any(_known(points[i]) for i in bad))

    @property
    def rate(self) -> float:
        return self.failed / self.runs if self.runs else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return stats.wilson(self.failed, self.runs)

    def confidence_fixed(self, threshold: float) -> float:
        """The confidence that its rate is now below `threshold` (its clean runs since the last failure)."""
        return stats.fixed_confidence(self.clean_since, threshold)

    def to_json(self, threshold: float = 0.05) -> dict[str, Any]:
        low, high = self.interval
        when = {name: (getattr(self, name).isoformat() if getattr(self, name) else None)
                for name in ("first", "last", "first_failed", "last_failed")}
        return {"case": self.name, "target": self.target, "lane": self.lane, "failed": self.failed, "runs": self.runs,
                "rate": round(self.rate, 4), "interval95": [round(low, 4), round(high, 4)], **when,
                "clean_since": self.clean_since, "kind": self.kind, "mesa": list(self.mesa),
                "statuses": list(self.statuses), "known": self.known, "fixed_threshold": threshold,
                "fixed_confidence": round(self.confidence_fixed(threshold), 4)}


def _started(point: Point | Counted) -> datetime.datetime:
    return point.run.started if isinstance(point, Point) else point[0]


def _mesa(point: Point | Counted) -> str:
    return point.run.mesa if isinstance(point, Point) else point[1]


def _status(point: Point | Counted) -> str:
    return point.status.value if isinstance(point, Point) else point[2]


def _known(point: Point | Counted) -> bool:
    return point.known if isinstance(point, Point) else point[5] == Judged.EXPECTED_FAIL.value


def rates(connection: Connection, since: When = None, until: When = None, target: str | None = None, lane: str | None = None,
          mesa: str | None = None, kinds: tuple[RateKind, ...] = FAILING_KINDS) -> list[Rate]:
    """Every case that failed in the window, per target and lane, ranked by rate (then runs).

    Most failing series fail in every run (the baselined ones): those are counted in SQL, from
    ix_results_case alone (it holds the status), and never come to Python row by row; only the
    series that also passed are read run by run, as their kind depends on the order."""
    window = []
    if since is not None:
        window.append(R.c.started >= since)
    if until is not None:
        window.append(R.c.started <= until)
    if mesa:
        window.append(R.c.mesa == mesa)
    if lane:
        window.append(R.c.lane == lane)
    failing = select(T.c.case_id).join(R, R.c.id == T.c.run_id).where(T.c.failure, *window).distinct()
    if target:
        failing = failing.join(C, C.c.id == T.c.case_id).where(C.c.target == target)
    # the failing cases by their ids (named, not a subquery: PostgreSQL then plans an index scan
    # per case, not a merge join over every result)
    failing_ids = sorted(connection.execute(failing).scalars())
    cases = {case: (name, case_target) for chunk in chunks(failing_ids) for case, name, case_target in
             connection.execute(select(C.c.id, C.c.name, C.c.target).where(C.c.id.in_(chunk)))}
    counted = (T.c.failure | (T.c.status == Status.PASS.value))
    groups: dict[tuple[int, str], list[Member]] = defaultdict(list)    # (case id, lane) -> its Members
    for chunk in chunks(failing_ids):
        query = (select(T.c.case_id, R.c.lane, R.c.mesa, T.c.status, func.count(), func.min(R.c.started),
                        func.max(R.c.started), T.c.judged)
                 .join(R, R.c.id == T.c.run_id).where(T.c.case_id.in_(chunk), counted, *window)
                 .group_by(T.c.case_id, R.c.lane, R.c.mesa, T.c.status, T.c.judged))
        for case, run_lane, run_mesa, status, runs_, first, last, judged in connection.execute(query):
            groups[(case, run_lane)].append((status, runs_, first, last, run_mesa, judged))
    found, mixed = [], set()
    for (case, case_lane), members in groups.items():
        if any(status in (Status.PASS.value, Status.FLAKE.value) for status, *_ in members):
            mixed.add((case, case_lane))        # passed too, or a flake whose first try its message says
        else:
            found.append(_always_failing(*cases[case], case_lane, members))
    found += _series_rates(connection, sorted({case for case, _ in mixed}), cases, window, mixed)
    found = [r for r in found if r.kind in kinds]
    return sorted(found, key=lambda r: (-r.rate, -r.runs, r.name, r.target, r.lane))


def _always_failing(name: str, target: str, lane: str, members: list[Member]) -> Rate:
    """The Rate of a series that failed in each of its runs, from its counts by status and Mesa."""
    members = sorted(members, key=lambda m: m[2])               # by first appearance, as Rate.of orders
    first, last = min(m[2] for m in members), max(m[3] for m in members)
    runs_ = sum(m[1] for m in members)
    return Rate(name, target, lane, runs_, runs_, first, last, first, last, 0, RateKind.FAILING,
                tuple(dict.fromkeys(m[4] for m in members)), tuple(dict.fromkeys(m[0] for m in members)),
                any(m[5] == Judged.EXPECTED_FAIL.value for m in members))


def _series_rates(connection: Connection, case_ids: list[int], cases: dict[int, tuple[str, str]],
                  window: list[ColumnElement[bool]], wanted: set[tuple[int, str]] | None = None) -> list[Rate]:
    """The Rates of the cases' series read run by run (those of `wanted` (case id, lane) only,
    where given): from ix_results_case, unsorted; a flake's status its failing try's."""
    stored = {run_id: (started, run_lane, mesa) for run_id, started, run_lane, mesa in connection.execute(
        select(R.c.id, R.c.started, R.c.lane, R.c.mesa).where(*window))}
    rows: list[Sequence[Any]] = []
    flakes: list[Sequence[Any]] = []
    for chunk in chunks(case_ids):
        # from ix_results_case alone (failure as the stored value: no bool made per row, bool() below)
        query = (select(T.c.case_id, T.c.run_id, type_coerce(T.c.failure, Integer), T.c.status, T.c.judged)
                 .where(T.c.case_id.in_(chunk), T.c.failure | (T.c.status == Status.PASS.value)))
        # a flake's failing try, as its message says (a flakes line names the statuses the driver
        # gave): the flakes' message ids, each text read once
        flaky = select(T.c.case_id, T.c.run_id, T.c.message_id).where(T.c.case_id.in_(chunk),
                                                                       T.c.status == Status.FLAKE.value)
        if window:
            query = query.join(R, R.c.id == T.c.run_id).where(*window)
            flaky = flaky.join(R, R.c.id == T.c.run_id).where(*window)
        rows += connection.execute(query).all()
        flakes += connection.execute(flaky).all()
    texts = _texts(connection, {message_id for *_, message_id in flakes})
    tried = {(case, run_id): policy.flake_status(texts.get(message_id, "")) for case, run_id, message_id in flakes}
    series: dict[tuple[str, str, str], list[Counted]] = defaultdict(list)
    for case, run_id, failure, status, judged in rows:
        started, run_lane, mesa = stored[run_id]
        if wanted is not None and (case, run_lane) not in wanted:
            continue
        first_try = tried.get((case, run_id))
        name, case_target = cases[case]
        series[(name, case_target, run_lane)].append(
            (started, mesa, first_try.value if first_try else status, bool(failure), run_id, judged))
    for points in series.values():
        points.sort(key=lambda p: (p[0], p[4]))         # oldest first, as the runs ran
    return [Rate.of(name, case_target, run_lane, [p[3] for p in points], points)
            for (name, case_target, run_lane), points in series.items()]
