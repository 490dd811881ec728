#!/usr/bin/env python3
"""Variants of an explored varyings case, to find what makes a driver refuse its program, with
the program's components counted three ways against the limits the driver reports.

    python3 bench/gpu/varyings_variants.py ID [--findings FINDINGS.json] [--grid] > ids.txt
    python3 bench/gpu/varyings_variants.py --count ID...        # the counts of given ids

Each output line: `<explored id> <label> gen=<n> dbl=<n> slots=<n>`, where for the components
that reach the FS (the user varyings and the legacy builtins the FS reads, gl_ClipDistance
apart):
- gen: as the family counts them (tests/varyings/cases.py components(): one per scalar);
- dbl: each double-precision scalar as two (GL 4.6 compatibility 11.1.2.1 and GLSL 4.00 4.3.6:
  doubles "may be counted as consuming two components");
- slots: whole vec4 locations, four components each, a dvec3/dvec4 taking two (GLSL 4.00
  4.3.8.1/4.4 layout rules: "dvec3 and dvec4 ... consume two consecutive locations"), a
  matrix one per column, a struct member per its own locations.
The variants: the case itself, each user varying / builtin / control dropped, each array one
shorter, each double type swapped for its float twin, dvec2 and dvec4; --grid adds a fixed grid
of GLSL 4.00 compatibility vs-gs-fs programs (a struct, k flat dvec3[n] arrays, gl_TexCoord[6],
gl_ClipDistance) that does not depend on the exploration reproducing.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harness.model import families  # noqa: E402
from harness.sources.explored import id_codec as ids  # noqa: E402

FLOAT_TWIN = {"double": "float", "dvec2": "vec2", "dvec3": "vec3", "dvec4": "vec4", "dmat2": "mat2"}


def cases_module():
    return families.family_module(families.ROOT / "tests" / "varyings" / "cases.py")


def locations(type_: str, array: int) -> int:
    f = cases_module()
    if type_ in f.STRUCTS:
        return sum(locations(member, 0) for _, member in f.STRUCTS[type_]) * max(array, 1)
    scalar, cols, rows = f.TYPES[type_]
    per_column = 2 if scalar == "double" and rows >= 3 else 1
    return cols * per_column * max(array, 1)


def counts(params: dict) -> dict:
    f = cases_module()
    gen = dbl = slots = 0
    for name, type_, qualifier, array, location, component in params["users"]:
        v = f.Varying(name or "u", type_, qualifier, array, location, component)
        gen += v.components
        dbl += v.components * (2 if v.scalar == "double" else 1)
        slots += 4 * locations(type_, array)
    builtins = 4 * len(params["builtins"])
    return {"gen": gen + builtins, "dbl": dbl + builtins, "slots": slots + builtins}


def variants(params: dict) -> list[tuple[str, dict]]:
    out = [("as-found", params)]
    for i, user in enumerate(params["users"]):
        p = copy.deepcopy(params)
        del p["users"][i]
        out.append((f"drop-user{i}-{user[1]}{'[' + str(user[3]) + ']' if user[3] else ''}", p))
        if user[3]:
            p = copy.deepcopy(params)
            p["users"][i][3] -= 1
            out.append((f"user{i}-array{user[3] - 1}", p))
        if user[1] in FLOAT_TWIN:
            for swap in (FLOAT_TWIN[user[1]], "dvec2", "dvec4"):
                if swap != user[1]:
                    p = copy.deepcopy(params)
                    p["users"][i][1] = swap
                    out.append((f"user{i}-{swap}", p))
    for key in ("builtins", "controls"):
        for item in params[key]:
            p = copy.deepcopy(params)
            p[key] = [x for x in p[key] if x != item]
            out.append((f"drop-{item}", p))
    if params["chain"] != "vs-fs":
        out.append(("chain-vs-fs", copy.deepcopy(params) | {"chain": "vs-fs"}))
    if params["version"] != 450:
        out.append(("glsl450compat", copy.deepcopy(params) | {"version": 450}))
    return out


def grid() -> list[tuple[str, dict]]:
    out = []
    base = {"chain": "vs-gs-fs", "version": 400, "compat": True, "builtins": ["tex6"], "controls": ["clipdist"],
            "users": [], "face": "front", "clip_vertex": False, "separable": False, "fs_users": None,
            "reverse": False, "limit": None, "tag": "explored"}
    for struct in (False, True):
        for k in (1, 2, 3):
            for n in (1, 2, 3):
                users = ([[None, "S", "", 0, None, None]] if struct else []) + \
                        [[None, "dvec3", "flat", n, None, None] for _ in range(k)]
                out.append((f"grid-{'S+' if struct else ''}{k}x-flat-dvec3[{n}]", base | {"users": users}))
    return out


def reduced_ids(findings: Path) -> list[str]:
    data = json.loads(findings.read_text())
    found = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("reduced_id"), str) and node["reduced_id"].startswith("varyings/explore/"):
                found.append(node["reduced_id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(data)
    return found


def line(label: str, params: dict) -> str:
    try:
        case_id = ids.encode("varyings", params)
        ids.find(case_id)                      # the builder takes it
    except Exception as exc:  # noqa: BLE001 - a variant the builder refuses is left out, said so
        return f"# {label}: not built ({exc})"
    c = counts(params)
    return f"{case_id} {label} gen={c['gen']} dbl={c['dbl']} slots={c['slots']}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--findings", type=Path, action="append", default=[])
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--count", action="store_true", help="only the counts of the given ids")
    args = parser.parse_args()
    wanted = list(args.ids)
    for path in args.findings:
        if path.is_file():
            wanted += reduced_ids(path)
    for case_id in dict.fromkeys(wanted):
        _, params = ids.decode(case_id)
        if args.count:
            print(line("given", params))
            continue
        for label, p in variants(params):
            print(line(label, p))
    if args.grid:
        for label, p in grid():
            print(line(label, p))
    return 0


if __name__ == "__main__":
    sys.exit(main())
