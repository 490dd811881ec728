"""Command line of the harness (the conformance run itself is `pytest`, see README):

  python -m harness targets [NAME ...] [--json]     what each target is and whether it runs here
  python -m harness env TARGET [--mesa PATH]          the target's environment, as shell exports
  python -m harness run TARGET [--mesa PATH] -- CMD   a program (shader_runner) as the target's child starts
  python -m harness compare OLD NEW                 regressions, fixes, still failing, new skips...
  python -m harness report RESULTS... [-o DIR]      static HTML dashboard
  python -m harness merge OUT SHARD...              join sharded results
  python -m harness matrix --mesa PATH... [SELECTION]  verdicts per Mesa release, regressions, fixes
  python -m harness parallel N|auto [PYTEST ARGS]   the run over N pytest processes, merged
  python -m harness bisect CASE_ID... --tree MESA --good G --bad B [--fixed]   a Mesa commit, bisected
  python -m harness bisect-run CASE_ID... --target T   for `git bisect run` (ids: harness/sources/catalog.py)
  python -m harness blame CASE_ID... [--mesa PATH]...   evidence table and the component at fault
  python -m harness export CASE_ID --format F [-o DIR] standalone reproducer
  python -m harness explore --family F --seed N --budget B --target T   seeded exploration, findings
  python -m harness reduce CASE_ID --target T         shrink a failing case (harness/cli/explore.py)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import sys
import traceback

from pathlib import Path

from harness.run import baseline, core, export, gating
from harness.triage import bisect_run as bisect, blame
from harness.sources import catalog
from harness.results import compare, files as results
from harness.base import config, plugins
from harness.mesa import runtime as mesa
from harness.executor import targets as targets_mod
from harness.executor.executor import probe as probe_target
from harness.model.status import Reply

SHOWN_LIMITS = ("GL_MAX_VARYING_COMPONENTS", "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
                "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", "GL_MAX_FRAGMENT_INPUT_COMPONENTS",
                "GL_MAX_PATCH_VERTICES", "GL_MAX_TESS_GEN_LEVEL",
                "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", "GL_MAX_CLIP_DISTANCES",
                "GL_MAX_TEXTURE_COORDS")


def probe(name: str, gl_platform: str, build: mesa.Build | None = None) -> dict:
    target = targets_mod.get(name)
    entry = {"name": name, "backend": target.backend, "description": target.description,
             "default": target.default, "env": target.environment({}, build),
             "launcher": target.command([], {}, build)}
    if target.unavailable:
        return entry | {"available": False, "reason": target.unavailable}
    result = probe_target(target, gl_platform=gl_platform, mesa=build)
    if result.status is not Reply.OK:
        return entry | {"available": False, "reason": result.message or result.status}
    return entry | {"available": True, **result.observation}


def format_target(entry: dict) -> str:
    env = " ".join(f"{k}={v}" for k, v in entry["env"].items()) or "(inherited environment)"
    head = f"{entry['name']}{' (default)' if entry['default'] else ''}: {entry['description']}\n  env: {env}"
    if entry["launcher"]:
        head += f"\n  starts under: {' '.join(entry['launcher'])}"
    if not entry["available"]:
        return f"{head}\n  NOT AVAILABLE: {entry['reason']}"
    lines = [head, f"  renderer: {entry['renderer']} ({entry['vendor']}) via {entry['platform']}"]
    if entry.get("mesa"):
        lines.append(f"  Mesa {entry['mesa']}: " + (", ".join(entry["mesa_libraries"]) or "no Mesa library loaded"))
    for profile, facts in entry["profiles"].items():
        lines.append(f"  {profile:6}: {facts['version']}, GLSL {facts['glsl_version']}")
    limits = {}
    for facts in entry["profiles"].values():
        limits.update(facts["limits"])
    lines += [f"    {name} = {limits[name]}" for name in SHOWN_LIMITS if name in limits]
    return "\n".join(lines)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        plugins.load(config.knobs().plugins)       # $HARNESS_PLUGINS: their backends and targets
    except plugins.PluginError as exc:
        print(f"python -m harness: {exc}", file=sys.stderr)
        return 2
    if argv[:1] == ["report"]:
        from harness.report.html import main as report_main       # its own argument parser
        return report_main(argv[1:])
    if argv[:1] == ["matrix"]:
        from harness.cli.matrix import main as matrix_main        # its own argument parser
        return matrix_main(argv[1:])
    if argv[:1] in (["explore"], ["reduce"]):                    # their own argument parsers
        from harness.cli import explore as explore_cli
        return (explore_cli.explore_main if argv[0] == "explore" else explore_cli.reduce_main)(argv[1:])
    if argv[:1] == ["bisect"]:                                    # its own argument parser
        from harness.triage.mesa_bisect import main as bisect_main
        return bisect_main(argv[1:])
    if argv[:1] == ["parallel"]:                                  # the rest is pytest's
        from harness.cli import parallel
        from harness.scheduler.processes import ParallelError
        try:
            return parallel.main(argv[1:])
        except ParallelError as exc:
            print(f"python -m harness parallel: {exc}", file=sys.stderr)
            return 4
    parser = argparse.ArgumentParser(prog="python -m harness")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("targets", help="list targets: available or why not, renderer, version, limits")
    cmd.add_argument("names", nargs="*", help="targets to probe (default: all)")
    cmd.add_argument("--gl-platform", choices=("egl", "glfw"), default="egl")
    cmd.add_argument("--json", action="store_true", help="machine-readable output")
    _mesa_option(cmd)
    cmd = sub.add_parser("env", help="the environment a target's child gets, as shell exports "
                                     "(to run shader_runner or a reproducer the way the harness does)")
    cmd.add_argument("target")
    _mesa_option(cmd)
    cmd = sub.add_parser("run", help="run a program (piglit's shader_runner, a reproducer) with the "
                                     "target's environment, through its Mesa's loader as its child starts")
    cmd.add_argument("target")
    _mesa_option(cmd)
    cmd.add_argument("program", nargs="*", help="-- PROGRAM [ARGS...]")
    cmd = sub.add_parser("compare", help="compare two runs (results dirs, results.json or JUnit)")
    cmd.add_argument("old")
    cmd.add_argument("new")
    cmd.add_argument("--by-id", action="store_true", help="match cases by id alone: one target against another")
    sub.add_parser("report", help="static HTML dashboard: report RESULTS... [-o DIR]")
    sub.add_parser("matrix", help="verdicts per Mesa release: matrix --mesa PATH... [SELECTION] | --from-results DIR...")
    cmd = sub.add_parser("merge", help="join shard results into OUT")
    cmd.add_argument("out")
    cmd.add_argument("shards", nargs="+")
    cmd.add_argument("--junit-limit", type=int, default=None, metavar="N",
                     help="at most N failures in junit.xml (default: the shards' own --junit-limit)")
    cmd.add_argument("--junit-link", default=None, metavar="TEMPLATE",
                     help="a link in each JUnit failure, {id} {target} {name} {stem} substituted (default: the shards')")
    cmd = sub.add_parser("bisect-run", help="exit 0 if the cases pass, 1 if one fails, 125 if untestable")
    cmd.add_argument("case_ids", nargs="+", metavar="CASE_ID")
    cmd.add_argument("--target", required=True)
    cmd.add_argument("--vk-without", default="")
    cmd.add_argument("--vk-path", choices=("auto", "native", "split"), default="auto",
                     help="Vulkan targets: how direct multi-draws are issued (default: zink's choice)")
    cmd.add_argument("--flake-retries", type=int, default=1, metavar="N",
                     help="re-run a failing case up to N times; one that then passes is a flake, not bad (default 1)")
    cmd.add_argument("--baseline", action="append", default=[], metavar="auto|none|FILE",
                     help="the baseline that labels a verdict (default auto: the Mesa's own, harness/run/gating.py); "
                          "its flakes file forgives a listed flake; good or bad is the verdict's")
    cmd.add_argument("--flakes", action="append", default=[], metavar="FILE",
                     help="'REGEX STATUS[,STATUS]' lines: a listed failure is a flake, not bad (repeatable)")
    _mesa_option(cmd)
    _shader_tests_option(cmd)
    cmd = sub.add_parser("blame", help="run a failing case on every setup that tells the components apart; "
                                       "print the evidence and the component (docs/triage.md)")
    cmd.add_argument("case_ids", nargs="+", metavar="CASE_ID")
    cmd.add_argument("--mesa", action="append", default=[], metavar="PATH",
                     help="a Mesa to run it on (repeatable; 'system' is the system's; default: the system's)")
    cmd.add_argument("--case-timeout", type=float, default=20.0, metavar="SECONDS")
    cmd.add_argument("--validation-layer-path", default="", metavar="DIR",
                     help="a folder with a (newer) validation layer's JSON, searched before the system's")
    cmd.add_argument("--failure", default="", metavar="REGEX",
                     help="the failure under triage, searched in each row's first line: a row failing otherwise "
                          "(another known defect) is set aside, and the verdict lists it")
    _shader_tests_option(cmd)
    cmd = sub.add_parser("export", help="write a standalone reproducer of a case")
    cmd.add_argument("case_id")
    _shader_tests_option(cmd)
    cmd.add_argument("--format", choices=export.FORMATS, default="glsl")
    cmd.add_argument("-o", "--output", default=".", help="folder (default: the current one)")
    cmd.add_argument("--vk-without", default="", help="vkrunner: translations to leave out")
    cut = argv.index("--") if "--" in argv else len(argv)     # `run`'s program, options and all
    program = argv[cut + 1:]
    args = parser.parse_args(argv[:cut])
    if args.command == "run":
        args.program = args.program + program
    try:
        return COMMANDS[args.command](args)
    except (catalog.NoSuchCase, targets_mod.UnknownTarget, results.ResultsError, mesa.MesaError,
            export.Unsupported, gating.GateError, baseline.BaselineError) as exc:
        print(f"python -m harness {args.command}: {exc}", file=sys.stderr)
        return 128 if args.command == "bisect-run" else 2          # 128+: `git bisect run` stops
    except Exception:                                               # a harness bug: say where
        traceback.print_exc()
        print(f"python -m harness {args.command}: harness error (the traceback above)", file=sys.stderr)
        return 2


def _mesa_option(cmd) -> None:
    cmd.add_argument("--mesa", default=None, metavar="PATH",
                     help="the Mesa build the Mesa targets load (default $HARNESS_MESA, else the system's)")


def _shader_tests_option(cmd) -> None:
    cmd.add_argument("--shader-tests", action="append", default=[], metavar="DIR",
                     help=f"where to look for the file of a shader_test/ id (repeatable; then "
                          f"${catalog.SEARCH_ENV}, then this checkout's tests/)")


def _targets(args) -> int:
    names = targets_mod.parse_list(",".join(args.names)) if args.names else list(targets_mod.TARGETS)
    build = mesa.chosen(args.mesa)
    entries = [probe(name, args.gl_platform, build) for name in names]
    print(json.dumps(entries, indent=1) if args.json else "\n\n".join(format_target(e) for e in entries))
    # Asking for particular targets that cannot run is an error; listing them all is not.
    return 1 if args.names and not all(e["available"] for e in entries) else 0


def _env(args) -> int:
    """Exports, and HARNESS_RUN: the loader a --mesa build's programs start under (its libraries
    are never put in LD_LIBRARY_PATH, which the shell's other programs would inherit)."""
    target = targets_mod.get(args.target)
    build = mesa.chosen(args.mesa)
    base = config.environ()
    env = target.environment(base, build)
    env["HARNESS_RUN"] = shlex.join(target.command([], base, build))
    print("\n".join(f"export {name}={shlex.quote(value)}" for name, value in env.items()
                     if base.get(name) != value))
    if env["HARNESS_RUN"]:
        print("# start programs that load this Mesa as: $HARNESS_RUN shader_runner FILE -auto")
    return 0


def _run(args) -> int:
    if not args.program:
        raise mesa.MesaError("no program to run (harness run TARGET -- PROGRAM ARGS...)")
    program = shutil.which(args.program[0])         # a loader takes a path, not a name to look up
    if program is None:
        raise mesa.MesaError(f"{args.program[0]}: no such program")
    target = targets_mod.get(args.target)
    build = mesa.chosen(args.mesa)
    base = config.environ()
    argv = target.command([program, *args.program[1:]], base, build)
    os.execve(argv[0], argv, target.environment(base, build))


def _compare(args) -> int:
    diff = compare.compare(results.read(args.old), results.read(args.new), by_id=args.by_id)
    print(compare.format_report(diff, f"old: {args.old}", f"new: {args.new}"))
    return 1 if diff.regressions else 0


def _merge(args) -> int:
    if args.junit_limit is not None and args.junit_limit < 0:
        raise results.ResultsError(f"--junit-limit {args.junit_limit}: expected a number of failures, 0 or more")
    junit = {name: value for name, value in (("limit", args.junit_limit), ("link", args.junit_link))
             if value is not None}
    entries = results.merge([Path(p) for p in args.shards], Path(args.out), junit)
    print(f"{len(entries)} results from {len(args.shards)} shards in {args.out}")
    return 0


def _bisect(args) -> int:
    settings = config.RunSettings(mesa=mesa.chosen(args.mesa), vk_without=config.split_names(args.vk_without),
                                  vk_path=args.vk_path)
    gate = gating.choose(args.baseline, args.flakes, settings.mesa)
    print(gate.line, flush=True)                        # the first line: what gates the run
    rules = core.Rules(baseline=baseline.load(gate.baselines), flakes=tuple(baseline.load_flakes(gate.flakes)),
                       flake_retries=args.flake_retries)
    return bisect.bisect_run(args.case_ids, targets_mod.get(args.target), settings=settings,
                             shader_tests=args.shader_tests, rules=rules)


def _blame(args) -> int:
    """Exit 0 where every case's component is named, 1 where one is undecided."""
    cases = [catalog.find(case_id, args.shader_tests) for case_id in args.case_ids]
    try:
        re.compile(args.failure)
    except re.error as e:
        print(f"python -m harness blame: --failure {args.failure!r}: {e}", file=sys.stderr)
        return 2
    builds = [None if m == "system" else mesa.chosen(m) for m in (args.mesa or ["system"])]
    if args.validation_layer_path and not Path(args.validation_layer_path, "VkLayer_khronos_validation.json").is_file():
        print(f"python -m harness blame: no VkLayer_khronos_validation.json in {args.validation_layer_path} "
              "(bin/fetch-validation-layer prints such a folder)", file=sys.stderr)
        return 2
    layers, notes = blame.layer_paths(builds, str(Path(args.validation_layer_path).resolve())
                                      if args.validation_layer_path else "")
    for note in notes:
        print(note, flush=True)
    undecided = False
    for case in cases:
        rows = blame.gather(case, builds, args.case_timeout, layers)
        text, verdict = blame.report(case.id, rows, args.failure)
        print(text + "\n", flush=True)
        undecided |= verdict.component == "undecided"
    return 1 if undecided else 0


def _export(args) -> int:
    written = export.export(catalog.find(args.case_id, args.shader_tests), args.format, Path(args.output),
                            frozenset(config.split_names(args.vk_without)))
    print("\n".join(str(p) for p in written))
    return 0


COMMANDS = {"targets": _targets, "env": _env, "run": _run, "compare": _compare, "merge": _merge, "bisect-run": _bisect, "blame": _blame,
            "export": _export}


if __name__ == "__main__":
    sys.exit(main())
