"""The option table (harness/base/options.py): each option declared once, the same on argparse and
pytest, a command's own default only with its reason; and the resolver that makes a run's
settings of them (harness/executor/settings.py)."""
from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

import pytest
from conftest import PINNED, PINNED_MESA, ROOT

from harness.base import config, options
from harness.base.config import ChildOptions, GlPlatform, VkPatchPath, VkPath, VkPaths, VkPointSize, VkVertexInput
from harness.executor.settings import DEFAULT, resolve
from harness.executor.targets import get


def _parser(names, uses=None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    options.add_arguments(parser, names, uses)
    return parser


# Flags of the table that mean something else where these declare them: the history's queries
# filter stored runs by a Mesa version or target name; explore's --resume continues its own journal.
OTHER_MEANINGS = {"harness/cli/history.py": {"--mesa", "--target"}, "harness/cli/history_export.py": {"--mesa"},
                  "harness/cli/explore.py": {"--resume"}}


def test_each_flag_is_declared_in_the_table_alone():
    """No module under harness/ but the table names a run option's flag in an add_argument or
    addoption call: a new option is one entry of the table."""
    flags = {option.flag for option in options.OPTIONS.values()}
    found = []
    for path in sorted((ROOT / "harness").rglob("*.py")):
        flags_here = flags - OTHER_MEANINGS.get(str(path.relative_to(ROOT)), set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("add_argument", "addoption"):
                named = {arg.value for arg in node.args if isinstance(arg, ast.Constant)} & flags_here
                found += [f"{path.relative_to(ROOT)}:{node.lineno} {flag}" for flag in named]
    assert found == []


def test_argparse_and_pytest_get_the_same_declaration():
    calls = []

    class Group:
        def addoption(self, *flags, **keywords):
            calls.append((flags, keywords))
    options.add_options(Group())
    assert [flags for flags, _ in calls] == [(o.flag,) for o in options.OPTIONS.values()]
    parser = _parser(list(options.OPTIONS))
    defaults = vars(parser.parse_args([]))
    for _, keywords in calls:
        option = options.OPTIONS[keywords["dest"]]
        assert defaults[option.dest] == (option.default if option.action != "store_true" else False), option.flag


def test_a_commands_own_default_needs_its_reason_and_shows_it():
    with pytest.raises(ValueError, match="needs its reason"):
        _parser(["batch"], {"batch": options.Use(8)})
    parser = _parser(["case_timeout"], {"case_timeout": options.TRIAGE_TIMEOUT})
    assert parser.parse_args([]).case_timeout == config.TRIAGE_CASE_TIMEOUT
    assert "here: 20" in parser.format_help().replace("\n", " ")
    with pytest.raises(KeyError, match="no_such_option"):
        _parser(["no_such_option"])


def test_a_command_may_say_what_an_option_means_there():
    """exploration's --jobs is its children, not pytest processes: its help says so, alone."""
    from harness.__main__ import command_parser
    from harness.cli.explore import JOBS_HELP
    text = " ".join(command_parser("explore").format_help().split())
    assert " ".join(JOBS_HELP.split()) in text and "pytest processes" not in text
    assert command_parser("explore").parse_args(["--family", "tess", "--target", "llvmpipe"]).jobs == "auto"


def test_one_and_many_change_how_often_an_option_is_given():
    one = _parser(["target"], {"target": options.ONE})
    assert one.parse_args(["--target", "zink"]).target == "zink"
    with pytest.raises(SystemExit):
        one.parse_args([])              # required
    many = _parser(["mesa"], {"mesa": options.Use(many="here: each a Mesa")})
    assert many.parse_args(["--mesa", "a", "--mesa", "b"]).mesa == ["a", "b"]
    assert _parser(["mesa"]).parse_args(["--mesa", "a", "--mesa", "b"]).mesa == "b"


def test_shader_tests_takes_several_values_and_repeats_everywhere():
    parser = _parser(["shader_tests"])
    assert parser.parse_args(["--shader-tests", "a", "b", "--shader-tests", "c"]).shader_tests == ["a", "b", "c"]
    assert parser.parse_args([]).shader_tests == [] and parser.parse_args([]).shader_tests is not \
        options.OPTIONS["shader_tests"].default          # a list of its own, not the table's


def test_the_resolver_makes_the_settings_of_the_options():
    args = _parser(list(options.OPTIONS)).parse_args(
        ["--case-timeout", "7", "--gl-platform", "glfw", "--vk-without", "draw-id,slot-map", "--vk-path", "split",
         "--vk-point-size", "written", "--no-spawner", "--batch", "3", "--vk-validation"])
    settings = resolve(options.values(args), mesa=None, children=2)
    assert (settings.case_timeout, settings.gl_platform, settings.vk_without) == \
        (7.0, GlPlatform.GLFW, ("draw-id", "slot-map"))
    assert settings.vk_paths == VkPaths(VkPath.SPLIT, VkPatchPath.AUTO, VkVertexInput.AUTO, VkPointSize.WRITTEN)
    assert (settings.fork, settings.batch, settings.children, settings.vk_validation) == (False, 3, 2, True)
    # an option the command does not take has the table's default
    assert resolve({}, mesa=None) == resolve(options.values(_parser(list(options.OPTIONS)).parse_args([])),
                                             mesa=None)
    assert resolve({}, mesa=None).case_timeout == config.CASE_TIMEOUT
    assert DEFAULT.fork is False and DEFAULT.mesa is None


def test_the_resolver_falls_back_to_harness_mesa(monkeypatch):
    """--mesa, else $HARNESS_MESA (set by conftest to the pinned Mesa), else the system's."""
    if PINNED:
        assert Path(resolve({}).mesa.root) == PINNED_MESA.resolve()
        assert Path(resolve({"mesa": str(PINNED_MESA)}).mesa.root) == PINNED_MESA.resolve()
    monkeypatch.delenv("HARNESS_MESA", raising=False)
    assert resolve({}).mesa is None


def test_child_options_round_trip_through_json_with_the_targets_paths_first():
    run = resolve({"vk_path": "native", "vk_vertex_input": "dynamic", "gl_platform": "glfw"}, mesa=None)
    for name in ("lavapipe", "lavapipe-split", "llvmpipe"):
        child = run.child_options(get(name))
        again = ChildOptions.from_arg(child.to_arg())
        assert again == child and isinstance(again.gl_platform, GlPlatform)
        assert all(isinstance(value, type(default)) for value, default in
                   zip(vars(again.vk_paths).values(), vars(VkPaths()).values()))
    split = run.child_options(get("lavapipe-split")).vk_paths
    assert (split.multi_draw, split.vertex_input) == ("split", "static")
    assert json.loads(run.child_options(get("lavapipe")).to_arg())["vk_paths"]["multi_draw"] == "native"


# The commands that run cases, each with its parser, and the settings each deliberately leaves out
# (the reason is written where it leaves them out). pytest and `harness parallel` take pytest's
# options, every one of the table (test_argparse_and_pytest_get_the_same_declaration).
LEFT_OUT = {"reduce": {"batch"}, "bisect": {"mesa"}}
# The commands that run no case, and take only what they use (the reason is written there).
RUN_NO_CASE = {"env", "exec", "compare", "merge", "export", "report", "history", "dashboard"}


def _command_parsers() -> dict[str, argparse.ArgumentParser]:
    import harness.__main__ as main
    return {name: main.command_parser(name) for name in main.COMMANDS if name not in RUN_NO_CASE | {"parallel"}}


def test_every_command_that_runs_cases_takes_every_run_setting():
    """A new option marked `setting` in the table reaches every command that runs cases, or this
    fails: each command's parser has every setting's flag, but the few it leaves out with a reason."""
    import harness.__main__ as main
    parsers = _command_parsers()
    assert set(parsers) | RUN_NO_CASE | {"parallel"} == set(main.COMMANDS)
    missing = {}
    for name, parser in parsers.items():
        flags = {flag for action in parser._actions for flag in action.option_strings}
        wanted = {options.OPTIONS[setting].flag for setting in set(options.SETTINGS) - LEFT_OUT.get(name, set())}
        missing[name] = sorted(wanted - flags)
    assert missing == {name: [] for name in parsers}


def test_the_resolver_fills_each_setting_by_its_field():
    """Every setting is a RunSettings field of its name, or one of the few converted explicitly."""
    from dataclasses import fields
    from harness.base.config import RunSettings
    from harness.executor import settings as settings_mod
    names = {field.name for field in fields(RunSettings)}
    assert [s for s in options.SETTINGS if s not in names and s not in settings_mod.CONVERTED] == []
    for name in set(options.SETTINGS) - set(settings_mod.CONVERTED):
        value = options.OPTIONS[name].type("3") if options.OPTIONS[name].type else "3"
        assert getattr(resolve({name: value}, mesa=None), name) == value, name


def test_as_args_hands_on_the_values_that_differ_from_the_defaults():
    assert options.as_args({"case_timeout": config.CASE_TIMEOUT, "batch": 4, "vk_validation": True,
                            "no_spawner": False, "baseline": ["a", "b"], "vk_without": ""}) == \
        ["--batch=4", "--vk-validation", "--baseline=a", "--baseline=b"]
    assert options.but(("a", "b"), a="why") == ("b",)
    with pytest.raises(ValueError):
        options.but(("a", "b"), c="why")
