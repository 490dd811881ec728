"""Command line: `python -m harness targets [NAME ...] [--json]`."""
from __future__ import annotations

import argparse
import json
import sys

from harness import targets as targets_mod
from harness.executor import probe as probe_target

SHOWN_LIMITS = ("GL_MAX_VARYING_COMPONENTS", "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
                "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", "GL_MAX_FRAGMENT_INPUT_COMPONENTS",
                "GL_MAX_PATCH_VERTICES", "GL_MAX_TESS_GEN_LEVEL",
                "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", "GL_MAX_CLIP_DISTANCES",
                "GL_MAX_TEXTURE_COORDS")


def probe(name: str, gl_platform: str) -> dict:
    target = targets_mod.get(name)
    entry = {"name": name, "backend": target.backend, "description": target.description,
             "default": target.default, "env": dict(target.env)}
    if target.unavailable:
        return entry | {"available": False, "reason": target.unavailable}
    result = probe_target(target, gl_platform)
    if result.status != "ok":
        return entry | {"available": False, "reason": result.message or result.status}
    return entry | {"available": True, **result.observation}


def format_target(entry: dict) -> str:
    env = " ".join(f"{k}={v}" for k, v in entry["env"].items()) or "(inherited environment)"
    head = f"{entry['name']}{' (default)' if entry['default'] else ''}: {entry['description']}\n  env: {env}"
    if not entry["available"]:
        return f"{head}\n  NOT AVAILABLE: {entry['reason']}"
    lines = [head, f"  renderer: {entry['renderer']} ({entry['vendor']}) via {entry['platform']}"]
    for profile, facts in entry["profiles"].items():
        lines.append(f"  {profile:6}: {facts['version']}, GLSL {facts['glsl_version']}")
    limits = {}
    for facts in entry["profiles"].values():
        limits.update(facts["limits"])
    lines += [f"    {name} = {limits[name]}" for name in SHOWN_LIMITS if name in limits]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("targets", help="list targets: available or why not, renderer, version, limits")
    cmd.add_argument("names", nargs="*", help="targets to probe (default: all)")
    cmd.add_argument("--gl-platform", choices=("egl", "glfw"), default="egl")
    cmd.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args(argv)
    try:
        names = targets_mod.parse_list(",".join(args.names)) if args.names else list(targets_mod.TARGETS)
    except targets_mod.UnknownTarget as exc:
        print(f"python -m harness: {exc}", file=sys.stderr)
        return 2
    entries = [probe(name, args.gl_platform) for name in names]
    if args.json:
        print(json.dumps(entries, indent=1))
    else:
        print("\n\n".join(format_target(e) for e in entries))
    # Asking for particular targets that cannot run is an error; listing them all is not.
    return 1 if args.names and not all(e["available"] for e in entries) else 0


if __name__ == "__main__":
    sys.exit(main())
