"""What `harness history ingest` reads: results folders, results.json, JUnit or results.csv files,
anywhere below the paths given (a GitLab pipeline's downloaded artifacts folder as it is), each
with the run.json beside it where there is one (harness/results/files.py), grouped into runs.

A run is one CI job's results, its shards together: sources whose run.json names the same
pipeline and job (the job's name less GitLab's ` 2/3` suffix) are one run, and a merged folder of
those shards is the same run again (the same records: nothing is counted twice). Sources that
name no pipeline are a run each, unless the caller says they are one (`--one-run`).
Everything is read and checked before anything is stored: a bad file is one ResultsError naming it.
"""
from __future__ import annotations

import datetime
import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.history import timestamps, weblinks
from harness.model.outcome import Record
from harness.results import files, pytest_junit
from harness.results.files import ResultsError

RESULT_FILES = ("results.json", "junit.xml", "results.csv")
SKIPPED_FOLDERS = {"journal", "repro", "observations", "shards", "report", "dashboard", ".cache"}
# The run properties a caller may set or override (`harness history ingest --set NAME=VALUE`).
SETTABLE = ("ci_pipeline_id", "ci_job_name", "ci_commit_sha", "ci_commit_ref_name", "ci_pipeline_url",
            "mesa", "mesa_commit", "machine", "started", "harness_commit")


@dataclass
class Run:
    """One run to store: its properties (run.json's names) and every record."""
    properties: dict[str, Any]
    records: list[Record]
    sources: list[str] = field(default_factory=list)

    @property
    def pipeline(self) -> str:
        return str(self.properties.get("ci_pipeline_id", ""))

    @property
    def job(self) -> str:
        return files.job_group(str(self.properties.get("ci_job_name", "")))

    @property
    def lane(self) -> str:
        """The sequence of runs this one's history is read along: its CI job's runs, else those of
        its Mesa version (stored with the run: runs.lane; migration 0007 says it in SQL)."""
        return self.job or f"mesa {self.mesa}"

    @property
    def mesa(self) -> str:
        """The run's Mesa: run.json's, else the version most of its records name."""
        named = Counter(r.mesa for r in self.records if r.mesa)
        return str(self.properties.get("mesa") or (named.most_common(1)[0][0] if named else ""))

    @property
    def started(self) -> datetime.datetime:
        """When it ran, aware UTC (a time without a zone taken for UTC): run.json's start (or
        write time), else its file's time."""
        text = self.properties.get("started") or self.properties.get("file_time")
        try:
            moment = datetime.datetime.fromisoformat(str(text))
        except ValueError:
            raise ResultsError(f"{', '.join(self.sources)}: start time {text!r} is not ISO 8601") from None
        return timestamps.utc(moment)

    def fingerprint(self) -> str:
        """sha256 of the run's pipeline, job and start (as its run.json says: not a file's time,
        which a download changes) and of every record: the same run ingested again, from the same
        files or from its shards and merged folder, has the same one."""
        identity = [self.pipeline, self.job, str(self.properties.get("started", ""))]
        digest = hashlib.sha256(json.dumps(identity).encode())
        for record in sorted(self.records, key=lambda r: r.key):
            line = [record.key, record.status.value, record.outcome.judged.value, record.expected,
                    round(record.duration, 4), hashlib.sha256(record.message.encode()).hexdigest()]
            digest.update(json.dumps(line).encode())
        return digest.hexdigest()


def find(paths: list[Path]) -> list[Path]:
    """The results sources below `paths`: a results file given, or each folder holding one (its
    results.json, else junit.xml, else results.csv is read), and those below it but for a
    results folder's own (journal/, repro/, shards/...)."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_file():
            found.append(path)
        elif not path.is_dir():
            raise ResultsError(f"{path}: no such file or folder")
        else:
            before = len(found)
            _walk(path, found)
            if len(found) == before:
                raise ResultsError(f"{path}: no {', '.join(RESULT_FILES)} below it")
    return list({p.resolve(): p for p in found}.values())        # a folder named and found below another: once


def _walk(folder: Path, found: list[Path]) -> None:
    if any((folder / name).is_file() for name in RESULT_FILES):
        found.append(folder)
    for child in sorted(folder.iterdir()):
        if child.is_dir() and child.name not in SKIPPED_FOLDERS:
            _walk(child, found)


def junit_properties(path: Path) -> dict[str, str]:
    """The run properties a JUnit file's first test case carries (files.JUNIT_RUN_PROPERTIES)."""
    from defusedxml.ElementTree import iterparse
    wanted = {"harness_version", "harness_git", "ci_pipeline_id", "ci_job_id"}
    found: dict[str, str] = {}
    try:
        for _event, element in iterparse(str(path)):
            if element.tag == "property" and element.get("name") in wanted:
                found.setdefault(element.get("name"), element.get("value", ""))
            if element.tag == "testcase":
                break
    except Exception as exc:        # noqa: BLE001 - files.read has already said what is wrong with it
        raise ResultsError(f"{path}: not JUnit XML ({type(exc).__name__})") from None
    return found


def read(source: Path, overrides: dict[str, str], selftest: bool = False) -> Run:
    """One source as a run: its records, its folder's run.json (or a JUnit file's run
    properties), then `overrides`, and when it ran (run.json's start or write time, else the
    results file's modification time). With `selftest`, a file of pytest's JUnit of the
    self-tests (harness/results/pytest_junit.py): the job `selftest`, started at its suite's
    timestamp; the run.json of a conformance run beside it is not its own."""
    folder = source if source.is_dir() else source.parent
    if selftest and not source.is_file():
        raise ResultsError(f"{source}: --selftest reads pytest's JUnit files, not folders")
    records = pytest_junit.read(source) if selftest else files.read(source)
    if not records:
        raise ResultsError(f"{source}: holds no results")
    chosen = source if source.is_file() else next(folder / n for n in RESULT_FILES if (folder / n).is_file())
    if selftest:
        properties = {"ci_job_name": pytest_junit.TARGET, "started": pytest_junit.started(source)}
    else:
        properties = files.read_run(folder)
    if not properties and chosen.suffix == ".xml":
        properties = junit_properties(chosen)
    properties = {**properties, **overrides}
    if not properties.get("started") and properties.get("written"):
        properties["started"] = properties["written"]
    if not properties.get("started"):
        properties["file_time"] = files.timestamp(chosen.stat().st_mtime)
    bad = weblinks.refused(properties)
    if bad:
        raise ResultsError(f"{chosen}: {bad} is not an http(s) URL, refused (the dashboard links it; "
                           f"--set {bad.split()[0]}= stores the run without it)")
    run = Run(properties, records, [str(chosen)])
    run.started                         # noqa: B018 - checks the time now, before anything is stored
    return run


def group(sources: list[Run], one_run: bool = False) -> list[Run]:
    """Sources of one CI job (or all, with `one_run`) joined into one run each; a case in two of
    them with different records is an error (shards that overlap)."""
    groups: dict[object, list[Run]] = {}
    for number, run in enumerate(sources):
        key = "all" if one_run else (run.pipeline, run.job) if run.pipeline and run.job else number
        groups.setdefault(key, []).append(run)
    joined = []
    for members in groups.values():
        if len(members) == 1:
            joined.append(members[0])
            continue
        records: dict[str, tuple[str, Record]] = {}
        for run in members:
            for record in run.records:
                earlier = records.get(record.key)
                if earlier is not None and earlier[1] != record:
                    raise ResultsError(f"{record.key} differs between {earlier[0]} and {run.sources[0]}")
                records.setdefault(record.key, (run.sources[0], record))
        properties = files.combine_runs([run.properties for run in members])
        joined.append(Run(properties, [r for _, r in records.values()], [s for run in members for s in run.sources]))
    return joined


def runs(paths: list[Path], overrides: dict[str, str] | None = None, one_run: bool = False,
         selftest: bool = False) -> list[Run]:
    """Every run below `paths`, read and checked (with `selftest`: the files given, each pytest's
    JUnit of the self-tests)."""
    found = [Path(p) for p in paths] if selftest else find(paths)
    return group([read(source, overrides or {}, selftest) for source in found], one_run)
