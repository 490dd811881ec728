"""`python -m harness matrix`: chosen cases on several Mesa builds, and the release matrix of
their verdicts (harness/results/release_matrix.py), printed and written to OUT/matrix.json and
OUT/matrix-junit.xml.

  python -m harness matrix --mesa PATH --mesa PATH ... [--target T ...] SELECTION [-o OUT] [-- PYTEST ARGS]
  python -m harness matrix --from-results RESULTS... [-o OUT]

SELECTION: --case ID (repeatable; an id, or `<id>[<target>]`), --failures-of RESULTS (the
fail, timeout and crash entries of a run, on their targets), -k EXPR, test paths. Each Mesa is an
ordinary harness run (pytest -n auto ... --mesa PATH --results-dir OUT/<version>, its output in
OUT/<version>/pytest.log), one after the other, gated as any run is: on that Mesa's own baseline
and flakes file (--baseline auto, harness/run/gating.py; `-- --baseline none` for none). A baseline
changes no verdict in the matrix, only how the run reports it; a flakes entry makes its failure a
flake. `--mesa system` is the system's Mesa. A results directory's release is the `mesa` its
entries record.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness.sources import catalog
from harness.base import args as args_mod, config, options
from harness.run import gating
from harness.model import ids
from harness.model.outcome import Record
from harness.results import release_matrix as matrix, files as results
from harness.mesa import runtime as mesa
from harness.sources.shader_test import FAMILY as SHADER_TEST
from harness.report.html import slug
from harness.base.errors import UsageError

PROG = "python -m harness matrix"
SYSTEM = "system"                       # --mesa system: the system's Mesa
MESA_FLAG = options.OPTIONS["mesa"].flag      # each run's Mesa, by the run option that names it
DEFAULT_OUT = Path("results") / "matrix"


class MatrixError(UsageError):
    """Bad input: one line for the user."""


def versioned(path: Path) -> list[Record]:
    """A run's Records (harness.results.files.read), each with its release in `mesa` (results.fill_mesa)."""
    entries = results.fill_mesa(results.read(path))
    unnamed = [e for e in entries if not e.mesa]
    if unnamed:
        named = sorted({e.mesa for e in entries} - {""})
        raise MatrixError(f"{path}: {unnamed[0].key} records no Mesa version, and the run names "
                          f"{', '.join(named) or 'none'}")
    return entries


def selection(cases: list[str], failures_of: str | None, k: str, tests: list[str],
              targets: list[str]) -> list[str]:
    """The pytest arguments that choose the cases and targets."""
    cases = list(cases)
    if failures_of:
        failed = [e for e in results.read(Path(failures_of)) if e.status.blames_driver()]
        if not failed:
            raise MatrixError(f"--failures-of {failures_of}: no fail, timeout or crash in it")
        cases += [e.key for e in failed]
        targets = targets or sorted({e.target for e in failed})
    paths = [str(Path(p).resolve()) for p in tests]
    if not paths and cases:
        paths = _sources(cases)
    elif not paths and k:
        paths = [f"tests/{family}" for family in catalog.FAMILIES]
    if not paths:
        raise MatrixError("choose the cases: --case ID, --failures-of RESULTS, -k EXPR or test paths")
    return (paths + [a for c in cases for a in ("--case", c)] + (["-k", k] if k else [])
            + [a for t in targets for a in ("--target", t)])


def _sources(cases: list[str]) -> list[str]:
    """Where the cases come from: their families' folders, a shader_test's file."""
    families: dict[str, bool] = {}
    files: dict[str, bool] = {}
    for name in cases:
        case_id = (ids.split(name) or (name,))[0]
        prefix = catalog.prefix(case_id)
        if prefix in catalog.FAMILIES:
            families[f"tests/{prefix}"] = True
        elif prefix == SHADER_TEST:
            source = catalog.sources()[SHADER_TEST]
            assert isinstance(source, catalog.ShaderTestSource)         # the one source that has files
            files[str(source.locate(case_id))] = True
        else:
            raise catalog.NoSuchCase(f"--case {name}: no case source owns it (an id starts with one of "
                                     f"{', '.join(p + '/' for p in catalog.sources())})")
    return list(families) + [a for f in files for a in ("--shader-tests", f)]


def pytest_command(mesa_path: str, folder: Path, chosen: list[str], extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "auto", *chosen,
            *([] if mesa_path == SYSTEM else [MESA_FLAG, str(Path(mesa_path).resolve())]),
            "--results-dir", str(folder.resolve()), *extra]


def run_each(mesas: list[str], out: Path, chosen: list[str], extra: list[str]) -> list[Path]:
    """Each Mesa's run, one after the other; the results directories that hold results."""
    folders: dict[str, str] = {}
    for path in mesas:
        build = None if path == SYSTEM else mesa.chosen(path)
        name = slug(build.version) if build else SYSTEM
        if name in folders:
            raise MatrixError(f"--mesa {folders[name]} and --mesa {path} are both Mesa {name}")
        folders[name] = path
    env = {k: v for k, v in config.environ().items() if k != "HARNESS_MESA"}     # --mesa decides
    try:
        gating_options = args_mod.taken(extra, ("baseline", "flakes"))[0]
        gates = {name: gating.choose(gating_options["baseline"], gating_options["flakes"],
                                     None if path == SYSTEM else mesa.chosen(path))
                 for name, path in folders.items()}
    except (args_mod.ArgsError, gating.GateError) as exc:
        raise MatrixError(str(exc)) from None
    done = []
    for name, path in folders.items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "results.json").unlink(missing_ok=True)           # no stale verdicts
        print(f"{PROG}: Mesa {name} ({path}): {gates[name].line.removeprefix('harness: ')}; running, output in "
              f"{folder / 'pytest.log'}", file=sys.stderr)
        with open(folder / "pytest.log", "w") as log:
            code = subprocess.run(pytest_command(path, folder, chosen, extra), cwd=catalog.ROOT, env=env,
                                  stdout=log, stderr=subprocess.STDOUT).returncode
        if (folder / "results.json").is_file():
            done.append(folder)
        else:
            print(f"{PROG}: Mesa {name} ({path}): no results (pytest exit {code}; see its log)", file=sys.stderr)
    return done


def junit(table: matrix.Matrix) -> Any:
    """One test case per case and target: properties `mesa <release>` (its verdict there) and
    one per change; failed where the newest release with a verdict fails it (a JUnitXml)."""
    import junitparser
    # junitparser's classes are partly untyped: used through Any, its JUnitXml returned as Any
    jp: Any = junitparser
    Failure, JUnitXml, Properties, Property, Skipped, TestCase, TestSuite = (
        jp.Failure, jp.JUnitXml, jp.Properties, jp.Property, jp.Skipped, jp.TestCase, jp.TestSuite)
    suite = TestSuite("release matrix")
    suite.add_property("mesa_releases", ", ".join(table.versions))
    for row in table.rows:
        case = TestCase(row.key, f"{row.target}.{catalog.prefix(row.case_id)}")
        props = Properties()
        for name, value in [("case_id", row.case_id), ("target", row.target),
                            *((f"mesa {v}", s.value) for v, s in row.verdicts.items()),
                            *((t.kind, str(t)) for t in row.changes)]:
            props.append(Property(name, value))
        case.append(props)
        latest = row.latest
        if latest is None:
            case.result = [Skipped("no pass or failure on any release")]
        elif latest[1].blames_driver():
            case.result = [Failure("; ".join([f"{latest[1]} on Mesa {latest[0]}"] + [str(t) for t in row.changes]))]
        suite.add_testcase(case)
    xml = JUnitXml()
    xml.add_testsuite(suite)
    return xml


def write(table: matrix.Matrix, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "matrix.json", out / "matrix-junit.xml"]
    written[0].write_text(json.dumps(table.to_json(), indent=1) + "\n")
    junit(table).write(str(written[1]))
    return written


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.usage = f"{PROG} [OPTIONS] [PATH...] [-- PYTEST ARGS...]"
    parser.description = ("Chosen cases on several Mesa builds: the verdict per release in version order, "
                          "and where it changed.")
    parser.add_argument("tests", nargs="*", metavar="PATH", help="test paths to run (pytest's)")
    # The run settings, each Mesa's run's (pytest's options, handed on); --mesa names the Mesas.
    options.add_arguments(parser, (*options.SETTINGS, "target", "case"), {
        "mesa": options.Use(many=f"here: each a Mesa build to run on; '{SYSTEM}': the system's Mesa")})
    parser.add_argument("--from-results", nargs="+", default=[], metavar="RESULTS",
                        help="runs already made (results dirs, results.json or JUnit), one Mesa or more each")
    parser.add_argument("--failures-of", metavar="RESULTS", help="the fail, timeout and crash entries of a run")
    parser.add_argument("-k", default="", metavar="EXPR", help="pytest's -k expression")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT, metavar="OUT",
                        help=f"where the runs, matrix.json and matrix-junit.xml go (default: {DEFAULT_OUT})")


def run(args: argparse.Namespace) -> int:
    extra: list[str] = args.passthrough             # pytest's arguments, after --
    settings = options.as_args(options.values(args, options.but(options.SETTINGS, mesa="the runs' own")))
    try:
        if not (args.mesa or args.from_results):
            raise MatrixError("give --mesa PATH (to run) or --from-results RESULTS (runs already made)")
        if not args.mesa and (args.tests or args.case or args.failures_of or args.k or extra):
            raise MatrixError("test paths, --case, --failures-of, -k and pytest arguments choose what --mesa runs")
        if not args.mesa and settings:
            raise MatrixError(f"{' '.join(settings)}: the run settings are for what --mesa runs")
        folders = [Path(p) for p in args.from_results]
        if args.mesa:
            chosen = selection(args.case, args.failures_of, args.k, args.tests, args.target)
            folders += run_each(args.mesa, args.output, chosen, settings + extra)
        table = matrix.build([e for folder in folders for e in versioned(folder)])
        print(matrix.format_text(table))
        for name in args.case:
            if not any(name in (row.case_id, row.key) for row in table.rows):
                print(f"{PROG}: --case {name}: no result on any release", file=sys.stderr)
        print("\n".join(str(p) for p in write(table, args.output)))
    except UsageError as exc:                           # MatrixError, a results file, a Mesa, a case id
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    return 0
