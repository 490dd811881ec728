"""The run's result files: writing them (results.json, results.csv, failures.csv, junit.xml,
manifest.json), all derived from the same entries (the journal's records, harness/run/journal.py),
and reading results back from results.json or JUnit, for compare, merge, resume and report.

results.csv is deqp-runner's: `case-id[target],Status,duration` lines, no header, the status
in its spelling (Pass, Fail, Crash, Timeout, Skip, Flake, ExpectedFail,
UnexpectedImprovement(Pass|Fail)), so that Mesa CI's tools read it and it is a --baseline as it
is. manifest.json says what produced the verdicts: the baseline, flakes and skips files (each
with its sha256) and the JUnit options, which `merge` carries over from the shards.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from harness.run import baseline, export, journal, policy
from harness.sources import catalog
from harness.model import ids
from harness.model.status import DEQP_NAMES, Status

MANIFEST = "manifest.json"

# The JUnit properties of a case, besides those of the run (harness version and git describe).
JUNIT_PROPERTIES = ("case_id", "target", "status", "expected", "renderer", "gl_version", "mesa", "platform")


class ResultsError(ValueError):
    pass


def key(entry: dict) -> str:
    return ids.key(entry["id"], entry["target"])


@dataclass(frozen=True)
class JunitOptions:
    """--junit-limit (failures written in full; None: all) and --junit-link (a URL template
    added to each failure: {id}, {target}, {name} = id[target], {stem} = its repro/ folder)."""
    limit: int | None = None
    link: str = ""


def manifest(baselines, flakes, skips, junit: JunitOptions = JunitOptions()) -> dict:
    """What produced a run's verdicts, for its results folder; the files exist (they were loaded)."""
    def described(paths):
        return [{"path": str(p), "sha256": hashlib.sha256(Path(p).read_bytes()).hexdigest()} for p in paths]
    return {"baseline": described(baselines), "flakes": described(flakes), "skips": described(skips),
            "junit": asdict(junit)}


def csv_status(entry: dict) -> str:
    """An entry's status as deqp-runner's results.csv writes it."""
    label, status = entry.get("label"), Status.parse(str(entry["status"]))
    if label == policy.EXPECTED_FAIL:
        return "ExpectedFail"
    if label in (policy.UNEXPECTED_PASS, policy.UNEXPECTED_IMPROVEMENT):
        return f"UnexpectedImprovement({DEQP_NAMES[status]})"
    return DEQP_NAMES[status]


def write(folder: Path, entries: list[dict], junit: Path | None = None, run_properties: dict | None = None,
          run_manifest: dict | None = None) -> None:
    """results.json, results.csv, failures.csv, (where `junit` names a file) JUnit, and (where
    given) the manifest; its `junit` options shape the JUnit."""
    folder.mkdir(parents=True, exist_ok=True)
    if junit is not None:
        options = JunitOptions(**(run_manifest or {}).get("junit", {}))
        write_junit(junit, entries, run_properties or {}, options)
    if run_manifest is not None:
        (folder / MANIFEST).write_text(json.dumps(run_manifest, indent=1) + "\n")
    (folder / "results.json").write_text(json.dumps({"results": entries}, indent=1) + "\n")
    (folder / "results.csv").write_text("".join(f"{key(e)},{csv_status(e)},{e['duration']}\n" for e in entries))
    failures = [baseline.failure_line(e["id"], e["target"], e["status"]) for e in entries]
    (folder / "failures.csv").write_text(
        "# failures of this run, in --baseline format\n" + "".join(f"{f}\n" for f in failures if f))


def _link(template: str, entry: dict) -> str:
    values = {"{id}": entry["id"], "{target}": entry["target"], "{name}": key(entry),
              "{stem}": export.file_stem(entry["id"], entry["target"])}
    for name, value in values.items():
        template = template.replace(name, value)
    return template


def _failed(entry: dict) -> bool:
    return (entry.get("report") or ("failed" if Status.parse(str(entry["status"])).is_failure() else "")) == "failed"


def write_junit(path: Path, entries: list[dict], run_properties: dict,
                options: JunitOptions = JunitOptions()) -> None:
    """One JUnit testsuite: a testcase `<id>[<target>]` per entry, classname `<target>.<family>`
    (what CI dashboards group by), a failure, or a skip with its reason (expected failures and
    flakes too, as a dashboard must not count them as failures); a failure's reproducer is
    attached as GitLab and Jenkins read it. Past `options.limit` failures, the rest are left out
    and one testcase says how many (their lines are in failures.csv and results.csv): some
    pipelines' JUnit viewers choke on thousands."""
    from junitparser import Failure, JUnitXml, Properties, Property, Skipped, TestCase, TestSuite
    suite = TestSuite("harness")
    failed = [e for e in entries if _failed(e)]
    left_out = {id(e) for e in failed[options.limit:]} if options.limit is not None else set()
    for entry in entries:
        if id(entry) in left_out:
            continue
        case = TestCase(key(entry), classname=f"{entry['target']}.{catalog.prefix(entry['id'])}",
                        time=float(entry.get("duration", 0)))
        status = str(entry["status"])
        report = entry.get("report") or ("passed" if status == "pass" else "skipped"
                                         if status in ("skip", "flake", "order-dependent") else "failed")
        message = entry.get("message", "")
        if report == "failed":
            failure = Failure(message.splitlines()[0] if message else status, status)
            link = f"\n{_link(options.link, entry)}" if options.link else ""
            failure.text = f"{entry['id']} on {entry['target']}{link}\n{message}"
            case.result = [failure]
        elif report == "skipped":
            case.result = [Skipped(message)]
        if entry.get("reproducer"):
            case.system_out = f"[[ATTACHMENT|{entry['reproducer']}]]"
        properties = Properties()
        values = {"case_id": entry["id"], **entry, "status": status, "case_duration": entry.get("duration", 0)}
        for name in (*JUNIT_PROPERTIES, "case_duration"):
            if values.get(name) not in (None, ""):
                properties.add_property(Property(name, str(values[name])))
        for name, value in run_properties.items():
            properties.add_property(Property(name, str(value)))
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


def read(path: Path) -> list[dict]:
    """Entries from a results directory, a results.json or a JUnit file; `status` a Status."""
    path = Path(path)
    if path.is_dir():
        path = path / "results.json" if (path / "results.json").exists() else path / "junit.xml"
    if not path.exists():
        raise ResultsError(f"{path}: no such results file")
    if path.suffix == ".xml":
        return _read_junit(path)
    try:
        entries = json.loads(path.read_text())["results"]
        for e in entries:
            e["id"], e["target"]                        # noqa: B018 - the fields every entry has
            e["status"] = Status.parse(e["status"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ResultsError(f"{path}: not a results.json ({type(exc).__name__}: {exc})") from None
    return entries


def finished(path: Path) -> list[dict]:
    """What the run in `path` finished: its results file (results.json, else junit.xml, or the
    file named), and over it every record its processes journaled, which a killed run has only
    there (harness/run/journal.py); one entry per case, `status` a Status."""
    path = Path(path)
    recorded = journal.read(path) if path.is_dir() else []
    written = not path.is_dir() or (path / "results.json").exists() or (path / "junit.xml").exists()
    done = {key(e): e for e in (read(path) if written or not recorded else [])}
    for entry in recorded:
        entry["status"] = Status.parse(entry["status"])
        done[key(entry)] = entry
    return list(done.values())


def fill_mesa(entries: list[dict]) -> None:
    """Entries that record no Mesa version (a worker that died mid-case records none) take the
    one version the run's other entries name; where they name none or several, they stay ''."""
    named = {e["mesa"] for e in entries if isinstance(e.get("mesa"), str) and e["mesa"]}
    if len(named) == 1:
        for entry in entries:
            entry["mesa"] = entry.get("mesa") or next(iter(named))


def _read_junit(path: Path) -> list[dict]:
    from junitparser import Error, Failure, JUnitXml, Properties, Skipped
    try:
        xml = JUnitXml.fromfile(str(path))
    except Exception as exc:  # junitparser raises lxml/ElementTree errors of several kinds
        raise ResultsError(f"{path}: not JUnit XML ({exc})") from None
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
            entries.append({"id": case_id, "target": target, "status": status, "expected": props.get("expected", ""),
                            "duration": float(case.time or 0), "renderer": props.get("renderer", ""),
                            "mesa": props.get("mesa", ""),
                            "message": "\n".join((r.message or "") + "\n" + (r.text or "") for r in case.result)})
    return entries


FAILURE_FOLDERS = ("repro", "observations")          # each failure's reproducer and observation


def read_manifest(folder: Path) -> dict | None:
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text()) if path.exists() else None
    except ValueError as exc:
        raise ResultsError(f"{path}: not a manifest ({exc})") from None


def _shards_manifest(folders: list[Path]) -> dict | None:
    """The shards' one manifest (None where none has one); shards run with different
    expectations are an error, as their merged verdicts would mean nothing."""
    found = [(folder, read_manifest(folder)) for folder in folders]
    found = [(folder, m) for folder, m in found if m is not None]
    for folder, other in found[1:]:
        if other != found[0][1]:
            raise ResultsError(f"{found[0][0]} and {folder} were run with different baseline, flakes, skips "
                               f"or JUnit options ({MANIFEST})")
    return found[0][1] if found else None


def merge(paths: list[Path], out: Path, junit: dict | None = None, run_properties: dict | None = None) -> list[dict]:
    """Shard results into one: results files, one JUnit, the shards' manifest (the JUnit options
    in `junit`, JunitOptions' fields, replacing theirs), and the shards' reproducers and observations. A case in two shards
    with different entries is an error; the same entry in several is one (a resumed run's
    earlier entries, which every shard carries)."""
    folders = [Path(p).resolve() for p in paths]
    twice = next((p for i, p in enumerate(folders) if p in folders[:i]), None)
    if twice is not None:
        raise ResultsError(f"{twice} is given twice")
    entries: list[dict] = []
    seen: dict[str, tuple[object, dict]] = {}
    for path in paths:
        for entry in read(path):
            if key(entry) in seen:
                if seen[key(entry)][1] != entry:
                    raise ResultsError(f"{key(entry)} is in both {seen[key(entry)][0]} and {path}")
                continue
            seen[key(entry)] = (path, entry)
            entries.append(entry)
    dirs = [Path(path) if Path(path).is_dir() else Path(path).parent for path in paths]
    run_manifest = _shards_manifest(dirs)
    if junit:
        run_manifest = run_manifest or manifest((), (), ())
        run_manifest = {**run_manifest, "junit": {**run_manifest["junit"], **junit}}
    write(out, entries, out / "junit.xml", run_properties, run_manifest=run_manifest)
    for folder in dirs:
        for name in FAILURE_FOLDERS:
            if (folder / name).is_dir():
                shutil.copytree(folder / name, out / name, dirs_exist_ok=True)
    return entries
