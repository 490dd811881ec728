#!/usr/bin/env python3
"""Variants of an explored draw_params case, for reducing a hang by hand (the zink-over-NVIDIA hangs): each
draw alone, each draw dropped, the other chains (vs, gs, tes) and GLSL versions, the other index
types, each indirect draw at offset 0, each instance count 1. One line per variant:
`<explored id> <label> <what the draws are>`, ready for bench/gpu/run_ids.py --ids-file.

    python3 bench/gpu/draw_params_variants.py ID... > variants.txt
"""
from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harness.sources.explored import id_codec as ids  # noqa: E402
from harness.sources.explored.draw_params import canonical_draw  # noqa: E402


def describe(params: dict) -> str:
    draws = "; ".join(f"{d['command']}{d['entries']}" + (f" off{d['offset']}" if d["offset"] else "")
                      + (f" stride{d['stride']}" if d["stride"] else "")
                      + (f" drawcount{d['draw_count']}" if d["draw_count"] is not None else "")
                      + (" restart" if d["restart"] else "") for d in params["draws"])
    return f"{params['chain']} glsl{params['version']} {params['index_type']}: {draws}"


def variants(params: dict) -> list[tuple[str, dict]]:
    out = [("as-found", params)]
    draws = params["draws"]
    if len(draws) > 1:
        for i in range(len(draws)):
            out.append((f"draw{i}-alone", params | {"draws": [draws[i]]}))
            out.append((f"drop-draw{i}", params | {"draws": draws[:i] + draws[i + 1:]}))
    for chain in ("vs", "gs", "tes"):
        if chain != params["chain"]:
            out.append((f"chain-{chain}", params | {"chain": chain}))
    if not params["only_draw_id"]:
        out.append(("only-draw-id", params | {"only_draw_id": True}))
    for version in (450, 460):
        if version != params["version"]:
            out.append((f"glsl{version}", params | {"version": version}))
    for index_type in ("uint", "ushort", "ubyte"):
        if index_type != params["index_type"]:
            out.append((f"index-{index_type}", params | {"index_type": index_type}))
    for i, d in enumerate(draws):
        if d["offset"]:
            p = copy.deepcopy(params)
            p["draws"][i]["offset"] = 0
            out.append((f"draw{i}-offset0", p))
        for j, e in enumerate(d["entries"]):
            if e[1] > 1:
                p = copy.deepcopy(params)
                p["draws"][i]["entries"][j][1] = 1
                out.append((f"draw{i}-entry{j}-instances1", p))
            if e[4]:
                p = copy.deepcopy(params)
                p["draws"][i]["entries"][j][4] = 0
                out.append((f"draw{i}-entry{j}-baseinstance0", p))
    return out


def main() -> int:
    seen = set()
    for case_id in sys.argv[1:]:
        _, params = ids.decode(case_id)
        for label, p in variants(params):
            p = p | {"draws": [canonical_draw(d) for d in p["draws"]]}
            try:
                vid = ids.encode("draw_params", p)
                ids.find(vid)
            except Exception as exc:  # noqa: BLE001 - a variant the builder refuses: said, left out
                print(f"# {label}: not built ({exc})")
                continue
            if vid not in seen:
                seen.add(vid)
                print(f"{vid} {label} {describe(p)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
