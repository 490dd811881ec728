"""The run's result files: writing them (results.json, results.csv, failures.csv, junit.xml,
manifest.json), all derived from the same entries (the journal's records, harness/run/journal.py),
and reading results back from results.json or JUnit, for compare, merge, resume and report.

run.json says which run this is: the harness's version and commit, the machine, the CI pipeline
and job (harness/base/provenance.py), the Mesa folder and build commit, when it started and when
its results were written; the results history (harness/history) files the run by it.

results.csv is deqp-runner's: `case-id[target],Status,duration` lines, no header, the status
in its spelling (Pass, Fail, Crash, Timeout, Skip, Flake, ExpectedFail,
UnexpectedImprovement(Pass|Fail)), so that Mesa CI's tools read it and it is a --baseline as it
is. manifest.json says what produced the verdicts: the baseline, flakes and skips files (each
with its sha256) and the JUnit options, which `merge` carries over from the shards.
"""
from __future__ import annotations

import csv
import datetime
import hashlib
import json
import re
import shutil
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from harness.run import baseline, export, journal
from harness.sources import catalog
from harness.model import ids
from harness.model.outcome import DEQP_NAMES, Judged, Outcome, Record, RecordError, Report, expected_statuses
from harness.model.status import Status
from harness.base.errors import UsageError

MANIFEST = "manifest.json"
RUN = "run.json"
# The results files' format: run.json's and results.json's `schema`. A reader refuses a higher one
# (written by a newer harness, which may mean something else by its fields); none is 1.
SCHEMA = 1

# The JUnit properties of a case, besides those of the run below.
JUNIT_PROPERTIES = ("case_id", "target", "status", "expected", "renderer", "gl_version", "mesa", "platform")
# The run's properties every JUnit test case carries (run.json has them all): a CI dashboard
# reading JUnit alone still knows the harness and the pipeline and job.
JUNIT_RUN_PROPERTIES = ("harness_version", "harness_git", "ci_pipeline_id", "ci_job_id")


def timestamp(seconds: float | None = None) -> str:
    """UTC, ISO 8601, to the second: run.json's times."""
    moment = datetime.datetime.now(datetime.UTC) if seconds is None else \
        datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    return moment.replace(microsecond=0).isoformat()


class ResultsError(UsageError, ValueError):
    pass


def key(record: Record) -> str:
    return record.key


@dataclass(frozen=True)
class JunitOptions:
    """--junit-limit (failures written in full; None: all) and --junit-link (a URL template
    added to each failure: {id}, {target}, {name} = id[target], {stem} = its repro/ folder)."""
    limit: int | None = None
    link: str = ""


def manifest(baselines: Iterable[Path | str], flakes: Iterable[Path | str], skips: Iterable[Path | str],
             junit: JunitOptions = JunitOptions()) -> dict[str, Any]:
    """What produced a run's verdicts, for its results folder; the files exist (they were loaded)."""
    def described(paths: Iterable[Path | str]) -> list[dict[str, str]]:
        return [{"path": str(p), "sha256": hashlib.sha256(Path(p).read_bytes()).hexdigest()} for p in paths]
    return {"baseline": described(baselines), "flakes": described(flakes), "skips": described(skips),
            "junit": asdict(junit)}


def write(folder: Path, entries: list[Record], junit: Path | None = None,
          run_properties: dict[str, Any] | None = None, run_manifest: dict[str, Any] | None = None) -> None:
    """results.json, results.csv, failures.csv, (where `junit` names a file) JUnit, and (where
    given) the manifest; its `junit` options shape the JUnit."""
    folder.mkdir(parents=True, exist_ok=True)
    if junit is not None:
        options = JunitOptions(**(run_manifest or {}).get("junit", {}))
        write_junit(junit, entries, run_properties or {}, options)
    if run_manifest is not None:
        (folder / MANIFEST).write_text(json.dumps(run_manifest, indent=1) + "\n")
    if run_properties is not None:
        run = {"schema": SCHEMA, **run_properties, "written": timestamp()}
        (folder / RUN).write_text(json.dumps(run, indent=1) + "\n")
    # an entry a line: json's C encoder (indent= takes its Python one, several times slower)
    lines = ",\n".join(json.dumps(e.to_json()) for e in entries)
    (folder / "results.json").write_text(f'{{"schema": {SCHEMA}, "results": [\n{lines}\n]}}\n')
    (folder / "results.csv").write_text("".join(f"{e.key},{e.outcome.deqp},{e.duration}\n" for e in entries))
    failures = [baseline.failure_line(e.id, e.target, e.status) for e in entries]
    (folder / "failures.csv").write_text(
        "# failures of this run, in --baseline format\n" + "".join(f"{f}\n" for f in failures if f))


def _link(template: str, entry: Record) -> str:
    values = {"{id}": entry.id, "{target}": entry.target, "{name}": entry.key,
              "{stem}": export.file_stem(entry.id, entry.target)}
    for name, value in values.items():
        template = template.replace(name, value)
    return template


def write_junit(path: Path, entries: list[Record], run_properties: dict[str, Any],
                options: JunitOptions = JunitOptions()) -> None:
    """One JUnit testsuite: a testcase `<id>[<target>]` per entry, classname `<target>.<family>`
    (what CI dashboards group by), a failure, or a skip with its reason (expected failures and
    flakes too, as a dashboard must not count them as failures); a failure's reproducer is
    attached as GitLab and Jenkins read it. Past `options.limit` failures, the rest are left out
    and one testcase says how many (their lines are in failures.csv and results.csv): some
    pipelines' JUnit viewers choke on thousands."""
    from junitparser import Failure, JUnitXml, Properties, Property, Skipped, TestCase, TestSuite
    suite = TestSuite("harness")
    failed = [e for e in entries if e.outcome.failed]
    left_out = {id(e) for e in failed[options.limit:]} if options.limit is not None else set()
    for entry in entries:
        if id(entry) in left_out:
            continue
        case = TestCase(entry.key, classname=f"{entry.target}.{catalog.prefix(entry.id)}",
                        time=float(entry.duration))
        status, report, message = entry.status.value, entry.outcome.report, entry.message
        if report is Report.FAILED:
            failure = Failure(message.splitlines()[0] if message else status, status)
            link = f"\n{_link(options.link, entry)}" if options.link else ""
            failure.text = f"{entry.id} on {entry.target}{link}\n{message}"
            case.result = [failure]
        elif report is Report.SKIPPED:
            case.result = [Skipped(message)]
        if entry.reproducer:
            case.system_out = f"[[ATTACHMENT|{entry.reproducer}]]"
        properties = Properties()
        values = {"case_id": entry.id, **entry.to_json(), "status": status, "case_duration": entry.duration}
        for name in (*JUNIT_PROPERTIES, "case_duration"):
            if values.get(name) not in (None, ""):
                properties.add_property(Property(name, str(values[name])))
        for name in JUNIT_RUN_PROPERTIES:
            if run_properties.get(name):
                properties.add_property(Property(name, str(run_properties[name])))
        case.append(properties)
        suite.append(case)             # add_testcase recounts the suite each time: quadratic
    if left_out:
        case = TestCase("harness/junit-limit", classname="harness")
        failure = Failure(f"{len(left_out)} more failures not listed here (--junit-limit {options.limit})", "fail")
        failure.text = "Every failure is in failures.csv and results.csv, beside this file."
        case.result = [failure]
        suite.append(case)
    suite.update_statistics()
    xml = JUnitXml()
    xml.add_testsuite(suite)
    path.parent.mkdir(parents=True, exist_ok=True)
    xml.write(str(path))


def _check_schema(data: dict[str, Any], path: Path) -> None:
    schema = data.get("schema", 1)
    if not isinstance(schema, int) or isinstance(schema, bool) or not 1 <= schema <= SCHEMA:
        raise ResultsError(f"{path}: schema {schema!r}, this harness reads schema 1 to {SCHEMA}")


def read(path: Path) -> list[Record]:
    """The Records of a results directory (results.json, else junit.xml, else results.csv), a
    results.json (of this version or an earlier one: Record.from_json), a JUnit file or a results.csv."""
    path = Path(path)
    if path.is_dir():
        path = next((path / name for name in ("results.json", "junit.xml") if (path / name).exists()),
                    path / "results.csv")
    if not path.exists():
        raise ResultsError(f"{path}: no such results file")
    if path.suffix == ".xml":
        return _read_junit(path)
    if path.suffix == ".csv":
        return read_csv(path)
    try:
        data = json.loads(path.read_text())
        entries = data["results"]
        if not isinstance(entries, list):
            raise TypeError("'results' is not a list")
    except (ValueError, KeyError, TypeError) as exc:
        raise ResultsError(f"{path}: not a results.json ({type(exc).__name__}: {exc})") from None
    _check_schema(data, path)
    return read_entries(entries, str(path))


def read_run(folder: Path) -> dict[str, Any]:
    """A results folder's run.json ({} without one); ResultsError for one that is not."""
    path = Path(folder) / RUN
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            raise TypeError("not an object")
    except (ValueError, TypeError) as exc:
        raise ResultsError(f"{path}: not a run.json ({exc})") from None
    _check_schema(data, path)
    return data


# results.csv's statuses (deqp-runner's spelling): the status and how the baseline judged it.
_CSV_STATUSES = {**{name: (status, Judged.AS_IS) for status, name in DEQP_NAMES.items() if status is not Status.ERROR
                    and status is not Status.ORDER_DEPENDENT},
                 "ExpectedFail": (Status.FAIL, Judged.EXPECTED_FAIL), "KnownFlake": (Status.FLAKE, Judged.AS_IS),
                 "UnexpectedImprovement(Pass)": (Status.PASS, Judged.UNEXPECTED_PASS),
                 **{f"UnexpectedImprovement({DEQP_NAMES[s]})": (s, Judged.UNEXPECTED_IMPROVEMENT)
                    for s in (Status.FAIL, Status.TIMEOUT, Status.CRASH)}}


def read_csv(path: Path) -> list[Record]:
    """The Records of a results.csv (`case-id[target],Status,duration` lines): ids, statuses and
    durations only. ResultsError names the first line that is not one."""
    records = []
    with open(path, newline="") as lines:
        for number, row in enumerate(csv.reader(lines), 1):
            if not row or row[0].startswith("#"):
                continue
            named = ids.split(row[0]) if len(row) in (2, 3) else None
            if named is None or row[1] not in _CSV_STATUSES:
                raise ResultsError(f"{path}:{number}: not a results.csv line 'case-id[target],Status,duration' "
                                   f"with a known status ({', '.join(sorted(_CSV_STATUSES))}): {','.join(row)[:120]!r}")
            try:
                duration = float(row[2]) if len(row) == 3 else 0.0
            except ValueError:
                raise ResultsError(f"{path}:{number}: duration {row[2]!r} is not a number") from None
            status, judged = _CSV_STATUSES[row[1]]
            records.append(Record(named[0], named[1], Outcome(status, judged), duration=duration,
                                  expected=row[1] if judged is Judged.EXPECTED_FAIL else ""))
    return records


def read_entries(entries: list[Any], where: str) -> list[Record]:
    """Records of results.json's `results` list; ResultsError names the first bad one."""
    records = []
    for number, entry in enumerate(entries):
        try:
            records.append(Record.from_json(entry))
        except RecordError as exc:
            raise ResultsError(f"{where}: results[{number}] {exc}") from None
    return records


def finished(path: Path) -> list[Record]:
    """What the run in `path` finished: its results file (results.json, else junit.xml, or the
    file named), and over it every record its processes journaled, which a killed run has only
    there (harness/run/journal.py); one Record per case."""
    path = Path(path)
    recorded = journal.records(path) if path.is_dir() else []
    written = not path.is_dir() or (path / "results.json").exists() or (path / "junit.xml").exists()
    done = {e.key: e for e in (read(path) if written or not recorded else [])}
    for record in recorded:
        done[record.key] = record
    return list(done.values())


def fill_mesa(entries: list[Record]) -> list[Record]:
    """The records, those that record no Mesa version (a worker that died mid-case records none)
    with the one version the run's other records name; where they name none or several, they stay ''."""
    named = {e.mesa for e in entries if e.mesa}
    if len(named) != 1:
        return list(entries)
    version = next(iter(named))
    return [e if e.mesa else replace(e, mesa=version) for e in entries]


def parse_junit(path: Path) -> Any:
    """A JUnit file as junitparser's JUnitXml; ResultsError, in one line, for one that declares
    entities or a DTD (JUnit from CI artifacts is untrusted: defusedxml refuses them first) or
    that is not JUnit XML."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import parse
    from junitparser import JUnitXml
    try:
        parse(str(path))
        return JUnitXml.fromfile(str(path))
    except DefusedXmlException as exc:
        raise ResultsError(f"{path}: refused, its XML declares entities or a DTD ({type(exc).__name__})") from None
    except Exception as exc:  # junitparser raises lxml/ElementTree errors of several kinds
        raise ResultsError(f"{path}: not JUnit XML ({exc})") from None


def _read_junit(path: Path) -> list[Record]:
    from junitparser import Error, Failure, Properties, Skipped
    xml = parse_junit(path)
    entries = []
    for suite in xml:
        for case in suite:
            props = {p.name: p.value for p in (case.child(Properties) or [])}
            name = case.name
            case_id, target = props.get("case_id"), props.get("target")
            named = ids.split(name)
            if not case_id and named:
                case_id, target = named
            if not case_id:
                continue
            kinds = {type(r) for r in case.result}
            try:
                status = Status.parse(props["status"]) if props.get("status") else (
                    Status.FAIL if Failure in kinds else Status.ERROR if Error in kinds
                    else Status.SKIP if Skipped in kinds else Status.PASS)
            except ValueError as exc:
                raise ResultsError(f"{path}: {name}: {exc}") from None
            expected = props.get("expected", "")
            entries.append(Record(case_id, target or "", Outcome.judge(status, expected_statuses(expected)),
                                  expected=expected, duration=float(case.time or 0),
                                  renderer=props.get("renderer", ""), mesa=props.get("mesa", ""),
                                  gl_version=props.get("gl_version", ""), platform=props.get("platform", ""),
                                  message="\n".join((r.message or "") + "\n" + (r.text or "") for r in case.result)))
    return entries


FAILURE_FOLDERS = ("repro", "observations")          # each failure's reproducer and observation


def read_manifest(folder: Path) -> dict[str, Any] | None:
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text()) if path.exists() else None
    except ValueError as exc:
        raise ResultsError(f"{path}: not a manifest ({exc})") from None


def _shards_manifest(folders: list[Path]) -> dict[str, Any] | None:
    """The shards' one manifest (None where none has one); shards run with different
    expectations are an error, as their merged verdicts would mean nothing."""
    found = [(folder, read_manifest(folder)) for folder in folders]
    found = [(folder, m) for folder, m in found if m is not None]
    for folder, other in found[1:]:
        if other != found[0][1]:
            raise ResultsError(f"{found[0][0]} and {folder} were run with different baseline, flakes, skips "
                               f"or JUnit options ({MANIFEST})")
    return found[0][1] if found else None


def job_group(name: str) -> str:
    """A CI job's name without its shard suffix: GitLab's `conformance 2/3`, gitlab-ci-local's
    `conformance: [2/3]` -> `conformance`."""
    return re.sub(r"(\s+\d+/\d+|:\s*\[\d+/\d+\])$", "", name.strip())


def shards_run(folders: list[Path]) -> dict[str, Any]:
    """The shards' run.json (combine_runs), for the merged folder's."""
    return combine_runs([read_run(folder) for folder in folders])


def combine_runs(found: list[dict[str, Any]]) -> dict[str, Any]:
    """Several shards' run.json as one: what they all say alike, the job's name without its shard
    suffix (so that the history files the merged run under the shards' job, not the merging
    one's), every shard's job id, and the earliest start."""
    found = [run for run in found if run]
    if not found:
        return {}
    alike = {name: value for name, value in found[0].items()
             if name not in ("schema", "written", "file_time", "ci_node_index", "ci_job_id", "ci_job_url")
             and all(run.get(name) == value for run in found[1:])}
    groups = {job_group(run.get("ci_job_name", "")) for run in found}
    if len(groups) == 1 and "" not in groups:
        alike["ci_job_name"] = groups.pop()
    job_ids = list(dict.fromkeys(job for run in found for name in ("ci_job_id", "ci_job_ids") if run.get(name)
                                 for job in str(run[name]).split(",")))
    if job_ids:
        alike["ci_job_ids"] = ",".join(job_ids)
    for name in ("started", "file_time"):           # the earliest
        times = sorted(str(run[name]) for run in found if run.get(name))
        if times:
            alike[name] = times[0]
    return alike


def merge(paths: list[Path], out: Path, junit: dict[str, Any] | None = None,
          run_properties: dict[str, Any] | None = None) -> list[Record]:
    """Shard results into one: results files, one JUnit, the shards' manifest (the JUnit options
    in `junit`, JunitOptions' fields, replacing theirs), and the shards' reproducers and observations. A case in two shards
    with different entries is an error; the same entry in several is one (a resumed run's
    earlier entries, which every shard carries)."""
    folders = [Path(p).resolve() for p in paths]
    twice = next((p for i, p in enumerate(folders) if p in folders[:i]), None)
    if twice is not None:
        raise ResultsError(f"{twice} is given twice")
    entries: list[Record] = []
    seen: dict[str, tuple[object, Record]] = {}
    for path in paths:
        for entry in read(path):
            if entry.key in seen:
                if seen[entry.key][1] != entry:
                    raise ResultsError(f"{entry.key} is in both {seen[entry.key][0]} and {path}")
                continue
            seen[entry.key] = (path, entry)
            entries.append(entry)
    dirs = [Path(path) if Path(path).is_dir() else Path(path).parent for path in paths]
    run_manifest = _shards_manifest(dirs)
    run_properties = {**(run_properties or {}), **shards_run(dirs)}
    if junit:
        run_manifest = run_manifest or manifest((), (), ())
        run_manifest = {**run_manifest, "junit": {**run_manifest["junit"], **junit}}
    write(out, entries, out / "junit.xml", run_properties, run_manifest=run_manifest)
    for folder in dirs:
        for name in FAILURE_FOLDERS:
            if (folder / name).is_dir():
                shutil.copytree(folder / name, out / name, dirs_exist_ok=True)
    return entries
