"""The pass-through TCS a GL-on-Vulkan layer injects for a program with a TES and no TCS.

Vulkan tessellates only with both stages and has no default levels. The generated TCS copies
every output of the (translated) VS for gl_InvocationID, whatever its type, builtins included,
and writes the levels from the push constant the runner updates before each draw. Switched off
(`--vk-without passthrough-tcs`) it is the naive version: position only, levels fixed at 1.
"""
from __future__ import annotations

import re

from harness.backends.vk.translate import LAYER_BLOCK, STRUCT

OUT_DECL = re.compile(r"^layout\((?P<layout>[^)]*)\)\s*(?P<quals>(?:(?:flat|noperspective|smooth|centroid|sample)\s+)*)"
                      r"out\s+(?P<type>\w+)\s+(?P<name>\w+)\s*(?P<array>\[\s*\d*\s*\])?\s*;", re.M)
OUT_BLOCK = re.compile(r"^layout\((?P<layout>[^)]*)\)\s*(?:(?:flat|noperspective|smooth|centroid|sample)\s+)*"
                       r"out\s+(?P<block>\w+)\s*\{(?P<body>[^}]*)\}\s*(?P<inst>\w+)\s*;", re.M)
MEMBER_NAMES = re.compile(r"(\w+)\s*(?:\[\s*\d+\s*\])?\s*;")


def passthrough_tcs(vs: str, patch_vertices: int, faithful: bool = True) -> str:
    lines = ["#version 460", LAYER_BLOCK, f"layout(vertices = {patch_vertices}) out;"]
    lines += [m[0] for m in STRUCT.finditer(vs)]
    body = ["gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;"]
    clip = _clip_distances(vs)
    if faithful:
        # gl_PerVertex as the VS has it: redeclared the same way, or left implicit like the VS's.
        block = re.search(r"out\s+gl_PerVertex\s*\{([^}]*)\}\s*;", vs)
        if block:
            lines.append(f"in gl_PerVertex {{{block[1]}}} gl_in[gl_MaxPatchVertices];")
            lines.append(f"out gl_PerVertex {{{block[1]}}} gl_out[];")
        if re.search(r"\bgl_PointSize\b", vs):
            body.append("gl_out[gl_InvocationID].gl_PointSize = gl_in[gl_InvocationID].gl_PointSize;")
        for k in range(clip):
            body.append(f"gl_out[gl_InvocationID].gl_ClipDistance[{k}] = gl_in[gl_InvocationID].gl_ClipDistance[{k}];")
        for i, m in enumerate(OUT_DECL.finditer(vs)):
            if "xfb_" in m["layout"]:
                continue
            layout, type_, array = _location_only(m["layout"]), m["type"], m["array"] or ""
            lines.append(f"layout({layout}) in {type_} _pass_in{i}[]{array};")
            lines.append(f"layout({layout}) out {type_} _pass_out{i}[]{array};")
            body.append(f"_pass_out{i}[gl_InvocationID] = _pass_in{i}[gl_InvocationID];")
        for i, m in enumerate(OUT_BLOCK.finditer(vs)):
            layout = _location_only(m["layout"])
            members = _unqualified(m["body"])
            lines.append(f"layout({layout}) in {m['block']} {{{members}}} _pass_block_in{i}[];")
            lines.append(f"layout({layout}) out {m['block']} {{{members}}} _pass_block_out{i}[];")
            for name in MEMBER_NAMES.findall(m["body"]):
                body.append(f"_pass_block_out{i}[gl_InvocationID].{name} = _pass_block_in{i}[gl_InvocationID].{name};")
        body += [f"gl_TessLevelOuter[{i}] = _layer.outer[{i}];" for i in range(4)]
        body += [f"gl_TessLevelInner[{i}] = _layer.inner[{i}];" for i in range(2)]
    else:
        body += [f"gl_TessLevelOuter[{i}] = 1.0;" for i in range(4)]
        body += [f"gl_TessLevelInner[{i}] = 1.0;" for i in range(2)]
    return "\n".join(lines) + "\n\nvoid main()\n{\n" + "".join(f"    {b}\n" for b in body) + "}\n"


def _location_only(layout: str) -> str:
    """Keep location/component; a TCS has no use for xfb or other qualifiers."""
    kept = [q.strip() for q in layout.split(",") if q.strip().startswith(("location", "component"))]
    return ", ".join(kept)


def _unqualified(body: str) -> str:
    return re.sub(r"\b(flat|noperspective|smooth|centroid|sample)\s+", "", body)


def _clip_distances(vs: str) -> int:
    declared = re.search(r"out\s+float\s+gl_ClipDistance\s*\[\s*(\d+)\s*\]", vs)
    if declared:
        return int(declared[1])
    used = [int(i) for i in re.findall(r"gl_ClipDistance\s*\[\s*(\d+)\s*\]", vs)]
    return max(used) + 1 if used else 0
