"""`python -m harness targets [NAME ...] [--json]`: what each target is and whether it runs here."""
from __future__ import annotations

import argparse
import json
from typing import Any

from harness.base import options
from harness.executor import targets as targets_mod
from harness.executor.probe import probe as probe_target
from harness.executor.settings import resolve
from harness.base.config import RunSettings
from harness.model.facts import Facts
from harness.model.status import Reply

SHOWN_LIMITS = ("GL_MAX_VARYING_COMPONENTS", "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
                "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", "GL_MAX_FRAGMENT_INPUT_COMPONENTS",
                "GL_MAX_PATCH_VERTICES", "GL_MAX_TESS_GEN_LEVEL",
                "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", "GL_MAX_CLIP_DISTANCES",
                "GL_MAX_TEXTURE_COORDS")

# A probe starts a target's child as a run would, so it takes the run's settings (without a
# spawner, whatever --no-spawner says: one child per target).
OPTIONS = options.SETTINGS


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("names", nargs="*", help="targets to probe (default: all)")
    options.add_arguments(cmd, OPTIONS)
    cmd.add_argument("--json", action="store_true", help="machine-readable output")


def probe(name: str, settings: RunSettings) -> dict[str, Any]:
    target = targets_mod.get(name)
    build = settings.mesa
    entry = {"name": name, "backend": target.backend, "description": target.description,
             "default": target.default, "env": target.environment({}, build),
             "launcher": target.command([], {}, build)}
    if target.unavailable:
        return entry | {"available": False, "reason": target.unavailable}
    result = probe_target(target, settings)
    if result.status is not Reply.OK:
        return entry | {"available": False, "reason": result.message or result.status}
    return entry | {"available": True, **(result.info or Facts()).to_json()}


def format_target(entry: dict[str, Any]) -> str:
    env = " ".join(f"{k}={v}" for k, v in entry["env"].items()) or "(inherited environment)"
    head = f"{entry['name']}{' (default)' if entry['default'] else ''}: {entry['description']}\n  env: {env}"
    if entry["launcher"]:
        head += f"\n  starts under: {' '.join(entry['launcher'])}"
    if not entry["available"]:
        return f"{head}\n  NOT AVAILABLE: {entry['reason']}"
    facts = Facts.from_json(entry)
    lines = [head, f"  renderer: {facts.renderer} ({facts.vendor}) via {facts.platform}"]
    if facts.mesa:
        lines.append(f"  Mesa {facts.mesa}: " + (", ".join(facts.mesa_libraries) or "no Mesa library loaded"))
    for name, profile in facts.profiles.items():
        lines.append(f"  {name:6}: {profile.version}, GLSL {profile.glsl_version}")
    limits: dict[str, int] = {}
    for profile in facts.profiles.values():
        limits.update(profile.limits)
    lines += [f"    {name} = {limits[name]}" for name in SHOWN_LIMITS if name in limits]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    names = targets_mod.parse_list(",".join(args.names)) if args.names else list(targets_mod.TARGETS)
    settings = resolve(options.values(args, OPTIONS), fork=False)
    entries = [probe(name, settings) for name in names]
    print(json.dumps(entries, indent=1) if args.json else "\n\n".join(format_target(e) for e in entries))
    # Asking for particular targets that cannot run is an error; listing them all is not.
    return 1 if args.names and not all(e["available"] for e in entries) else 0
