"""Stored runs as KernelCI's KCIDB I/O data (`harness history export --format kcidb`), checked
with the kcidb-io package's own schema, its newest version (kcidb_io.schema.LATEST).

The mapping (ids are "<ORIGIN>:" then the run's fingerprint's first RUN_DIGITS hex digits, the
same wherever the run is stored, then the target and the case id as it is: a test's id names its
case, its path is the case in KCIDB's spelling):
- a run -> a checkout of Mesa's repository: the build's commit where bin/build-mesa recorded one,
  else the release tag (`git describe`'s name of it); the Mesa version in its comment, the run's
  CI and harness properties in misc;
- a target of the run -> a build of that checkout (config_name: the target; renderer, GL
  version and the run's counts in misc);
- a result -> a test of that build: its case id as a path (path_of), its status (status_of), the
  duration, the run's start (the history keeps no time per case), the target and renderer as its
  environment, the message as log_excerpt (cut to KCIDB's limit), the reproducer as an output
  file; a baselined failure says so in misc (`known`, `expected`);
- a component `harness blame` named for a case on the run's Mesa (harness/history/culprits.py)
  -> an issue with its culprit flags (LAYERS), and an incident for each failing test of that case;
- a defect, the triage folder's record (harness/model/defects.py) covering a failing test's case
  on its target and the run's Mesa -> an issue (its title, component, blame's verdict and evidence,
  first bad and fixed versions, status and folder), and an incident for each such failing test.
"""
from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from kcidb_io import schema as kcidb_schema

from harness.history import queries
from harness.history.culprits import Culprit
from harness.history.ingest import failure
from harness.model.blame import COMPONENTS, Blame
from harness.model.defects import Defect, Registry, load_all
from harness.model.outcome import Judged, Record
from harness.model.status import Status
from harness.base.errors import UsageError

SCHEMA = kcidb_schema.LATEST
ORIGIN = "gl_layer_harness"
MESA_REPOSITORY = "https://gitlab.freedesktop.org/mesa/mesa.git"
TREE = "mesa"
RUN_DIGITS = 16                   # 64 bits of the run's fingerprint: unique among any origin's runs
ISSUE_VERSION = 1                 # an issue is a component: its text changes only with this harness
# A KCIDB object or document: JSON in KCIDB's schema, its empty optional fields left out (_misc)
Json = dict[str, Any]
LOG_LIMIT = SCHEMA.json["$defs"]["test"]["properties"]["log_excerpt"]["maxLength"]

# KCIDB's culprit layers: `code` is the tested code, `tool` the test (the harness's own Vulkan
# layer issues the calls the test checks: a defect there is the test's), `harness` the system
# running the test (no verdict of blame names it).
CODE = {"code": True, "tool": False, "harness": False}
LAYERS: dict[str, dict[str, bool]] = {
    component: {"code": False, "tool": True, "harness": False} if component is Blame.LAYER else CODE
    for component in COMPONENTS}

# A case id's tokens are path segments; a character KCIDB's segments cannot hold ([A-Za-z0-9_-]
# only) is `_` and its UTF-8 bytes in two upper-case hex digits each ('.' is _2E, '+' is _2B), and
# a `_` that two such digits follow is written _5F: so case_of reads every path back.
_SAFE = re.compile(r"[A-Za-z0-9-]")
_HEX = re.compile(r"[0-9A-F]{2}")


class InvalidDocument(UsageError, ValueError):
    """KCIDB data the schema refuses: one line, where and why."""


@dataclass(frozen=True)
class Stored:
    """A stored run with what its export needs."""
    run: queries.Run
    fingerprint: str
    records: list[Record]
    culprits: dict[tuple[str, str], Culprit]      # (case id, target) -> the verdict on the run's Mesa


def path_of(case_id: str) -> str:
    """The KCIDB test path of a case id: ORIGIN, then its '/'-separated tokens, escaped."""
    return ".".join([ORIGIN] + [_escape(token) for token in case_id.split("/")])


def _escape(token: str) -> str:
    out = []
    for i, char in enumerate(token):
        if _SAFE.fullmatch(char) or (char == "_" and not _HEX.fullmatch(token[i + 1:i + 3])):
            out.append(char)
        else:
            out.extend(f"_{byte:02X}" for byte in char.encode())
    return "".join(out)


def case_of(path: str) -> str:
    """The case id of a path path_of wrote; ValueError for another path."""
    root, dot, rest = path.partition(".")
    if root != ORIGIN or not dot:
        raise ValueError(f"{path!r}: not a test path of {ORIGIN}")
    return "/".join(_unescape(segment) for segment in rest.split("."))


def _unescape(segment: str) -> str:
    out, i = bytearray(), 0
    while i < len(segment):
        if segment[i] == "_" and _HEX.fullmatch(segment[i + 1:i + 3]):
            out.append(int(segment[i + 1:i + 3], 16))
            i += 3
        else:
            out.extend(segment[i].encode())
            i += 1
    return out.decode()


def status_of(record: Record) -> str:
    """KCIDB's status: FAIL where the driver failed this time (fail, timeout, crash: the tested code
    hung or died; a flake's failing first try), as the history counts failures; ERROR for the
    harness's own error (no verdict on the driver); SKIP; else PASS (an order-dependent verdict is
    no failure of the case's own). The harness's status itself is in misc."""
    if record.status is Status.ERROR:
        return "ERROR"
    if record.status is Status.SKIP:
        return "SKIP"
    return "FAIL" if failure(record) else "PASS"


def excerpt(message: str) -> str:
    """The message within KCIDB's log_excerpt limit, saying how long it was where cut."""
    message = _text(message)
    if len(message) <= LOG_LIMIT:
        return message
    note = f"\n[cut: {len(message)} characters in all]"
    return message[:LOG_LIMIT - len(note)] + note


def _text(text: str) -> str:
    return text.replace("\0", "\\0")           # KCIDB's strings hold no NUL


def _time(moment: datetime.datetime) -> str:
    return moment.replace(tzinfo=datetime.UTC).isoformat()     # the history's times are UTC


def _misc(**values: object) -> Json:
    return {name: value for name, value in values.items() if value not in ("", None)}


def _slug(component: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", component.lower()).strip("-")


def issue_id(component: str) -> str:
    return f"{ORIGIN}:culprit:{_slug(component)}"


def document(stored: list[Stored], registry: Registry | None = None) -> Json:
    """The KCIDB data of the runs (not yet validated: validate); `registry`: the defect records."""
    registry = registry if registry is not None else load_all()
    data = SCHEMA.new()
    found: dict[str, list[Json]] = {"checkouts": [], "builds": [], "tests": [], "issues": [], "incidents": []}
    components: set[str] = set()
    named: dict[str, Defect] = {}
    for one in stored:
        run, key = one.run, f"{ORIGIN}:{one.fingerprint[:RUN_DIGITS]}"
        found["checkouts"].append(_checkout(run, key, one.fingerprint))
        found["builds"] += [_build(run, key, target, facts) for target, facts in sorted(run.targets.items())]
        for record in one.records:
            test = _test(run, key, record)
            found["tests"].append(test)
            culprit = one.culprits.get((record.id, record.target))
            if culprit is not None and test["status"] == "FAIL":
                components.add(culprit.component)
                found["incidents"].append(_incident(test, culprit))
            defect = registry.match(record.id, record.target, run.mesa) if test["status"] == "FAIL" else None
            if defect is not None:
                named[defect.id] = defect
                found["incidents"].append(_defect_incident(test, defect))
    found["issues"] = [_issue(component) for component in sorted(components)]
    found["issues"] += [_defect_issue(named[key]) for key in sorted(named)]
    return {**data, **{name: items for name, items in found.items() if items}}


def _checkout(run: queries.Run, key: str, fingerprint: str) -> Json:
    commit = run.mesa_commit if re.fullmatch(r"[0-9a-f]{40}", run.mesa_commit) else ""
    name = "" if commit else run.mesa_commit or queries.mesa_tag(run.mesa)
    return _misc(id=key, origin=ORIGIN, tree_name=TREE, git_repository_url=MESA_REPOSITORY, git_commit_hash=commit,
                 git_commit_name=_text(name), comment=_text(f"Mesa {run.mesa}") if run.mesa else "",
                 start_time=_time(run.started), valid=True,
                 misc=_misc(mesa=run.mesa, mesa_commit=run.mesa_commit, harness_version=run.harness_version,
                            harness_commit=run.harness_commit, ci_pipeline_id=run.pipeline, ci_job_name=run.job,
                            ci_job_ids=run.job_ids, ci_commit_sha=run.commit, ci_commit_ref_name=run.ref,
                            ci_pipeline_url=run.url, machine=run.machine, history_run=run.id,
                            fingerprint=fingerprint))


def _build(run: queries.Run, key: str, target: str, facts: dict[str, Any]) -> Json:
    renderer = facts.get("renderer", "")
    # PASS: the Mesa build loaded and ran the cases (a KCIDB test counts only on a valid build)
    return _misc(id=f"{key}:{target}", checkout_id=key, origin=ORIGIN, config_name=_text(target),
                 comment=_text(f"Mesa {run.mesa or '?'}, {target}" + (f": {renderer}" if renderer else "")),
                 start_time=_time(run.started), status="PASS",
                 misc=_misc(target=target, renderer=renderer, gl_version=facts.get("gl_version", ""),
                            platform=facts.get("platform", ""), mesa=run.mesa,
                            **{name: facts[name] for name in queries.COUNTS if name in facts}))


def _test(run: queries.Run, key: str, record: Record) -> Json:
    known = record.outcome.judged is Judged.EXPECTED_FAIL
    reproducer = Path(record.reproducer) if record.reproducer else None
    output = [{"name": reproducer.name, "url": reproducer.as_uri()}] \
        if reproducer is not None and reproducer.is_absolute() and reproducer.name else []
    return _misc(id=f"{key}:{record.target}:{record.id}", build_id=f"{key}:{record.target}", origin=ORIGIN,
                 path=path_of(record.id), status=status_of(record), duration=float(record.duration),
                 start_time=_time(run.started),
                 environment={"comment": _text(f"{record.target}: {record.renderer or '?'}"),
                              "misc": _misc(target=record.target, renderer=record.renderer)},
                 log_excerpt=excerpt(record.message) if record.message else "",
                 output_files=output or None,
                 misc=_misc(harness_status=record.status.value, known=known,
                            judged="" if record.outcome.judged is Judged.AS_IS else record.outcome.judged.value,
                            expected=record.expected, reproducer=record.reproducer))


def _incident(test: Json, culprit: Culprit) -> Json:
    return {"id": f"{test['id']}:culprit", "origin": ORIGIN, "issue_id": issue_id(culprit.component),
            "issue_version": ISSUE_VERSION, "test_id": test["id"], "present": True,
            "comment": _text(culprit.reason or culprit.component),
            "misc": _misc(component=culprit.component, mesa=culprit.mesa, recorded=_time(culprit.recorded))}


def _issue(component: str) -> Json:
    return {"id": issue_id(component), "version": ISSUE_VERSION, "origin": ORIGIN,
            "report_subject": _text(f"{component}: the failures harness blame puts down to it"),
            "culprit": LAYERS[component],
            "comment": _text(f"harness blame's verdict: {component} (harness/triage/blame_rules.py)"),
            "misc": {"component": component}}


def defect_issue_id(defect: Defect) -> str:
    return f"{ORIGIN}:defect:{defect.id}"


def _defect_issue(defect: Defect) -> Json:
    # the tested code is at fault unless blame named the harness's own layer (the test's tool)
    culprit = LAYERS.get(defect.blame, CODE)
    return {"id": defect_issue_id(defect), "version": ISSUE_VERSION, "origin": ORIGIN,
            "report_subject": _text(f"{defect.id}: {defect.title}"), "culprit": culprit,
            "comment": _text(f"{defect.component}; harness blame: {defect.blame}; {defect.evidence}"),
            "misc": _misc(defect=defect.id, component=defect.component, blame=defect.blame, status=defect.status,
                          first_bad=str(defect.first_bad), fixed=str(defect.fixed), folder=defect.where,
                          targets=list(defect.targets), mesas=list(defect.mesas))}


def _defect_incident(test: Json, defect: Defect) -> Json:
    return {"id": f"{test['id']}:defect", "origin": ORIGIN, "issue_id": defect_issue_id(defect),
            "issue_version": ISSUE_VERSION, "test_id": test["id"], "present": True,
            "comment": _text(f"covered by {defect.where}/defect.toml"), "misc": {"defect": defect.id}}


def validate(data: Json) -> Json:
    """`data` as it is where KCIDB's schema takes it; InvalidDocument says where and why not."""
    try:
        valid: Json = SCHEMA.validate(data)
        return valid
    except jsonschema.exceptions.ValidationError as error:
        why = " ".join(error.message.split())
        raise InvalidDocument(f"not valid KCIDB {SCHEMA.major}.{SCHEMA.minor} data at {error.json_path}: "
                              f"{why[:240]}{'...' if len(why) > 240 else ''}") from None
