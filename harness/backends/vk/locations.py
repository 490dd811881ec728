"""Where each varying of a program goes: per interface (a stage and the next), the same location
for the same name on both sides, as GL matches varyings by name; explicit locations kept; the
legacy builtins after the user's (slot-map) or at 0 on top of them (without it)."""
from __future__ import annotations

from harness.backends.vk.program import (ARRAYED_INPUTS, COMPAT_MEMBERS, FS_READS, LEGACY, STAGE_ORDER, TEXCOORDS,
                                         Program, Varying, models)
from harness.glsl import types
from harness.glsl.model import Shader


def interface(stage: str, shader: Shader) -> list[Varying]:
    """The user varyings a stage declares, a declarator each (not builtins, VS attributes or FS
    outputs), and its user blocks."""
    found = []
    for d in shader.declarations:
        storage = d.storage or ""
        direction = {"varying": "in" if stage == "fs" else "out", "attribute": "in"}.get(storage, storage)
        if direction not in ("in", "out") or (stage == "vs" and direction == "in") or \
                (stage == "fs" and direction == "out"):
            continue
        if d.kind == "variable":
            found += [Varying(stage, direction, x.name, d, x.dims) for x in d.declarators
                      if not x.name.startswith("gl_")]
        elif d.kind == "block" and not d.type.startswith("gl_"):
            found.append(Varying(stage, direction, d.type, d, d.instance.dims if d.instance else ()))
    return found


def per_vertex(v: Varying) -> bool:
    """The outer array of a TCS/TES/GS input (or TCS output) is per vertex, not a location array."""
    return not v.decl.patch and ((v.direction == "in" and v.stage in ARRAYED_INPUTS) or
                                 (v.direction == "out" and v.stage == "tcs"))


def size(v: Varying, structs: dict[str, list[tuple[str, tuple[str, ...]]]]) -> int:
    """Locations one varying takes."""
    if v.decl.kind == "block":
        per = sum(types.locations(m.type, structs) * types.element_count(x.dims + m.type_dims)
                  for m in v.decl.members for x in m.declarators)
    else:
        per = types.locations(v.decl.type, structs) * types.element_count(v.decl.type_dims)
    dims = v.dims[1:] if per_vertex(v) else v.dims
    return per * types.element_count(dims)


def stage_order(program: Program) -> list[str]:
    return [s for s in STAGE_ORDER if s in program.shaders]


def interface_index(program: Program, stage: str, direction: str) -> int:
    """Which interface a stage's inputs or outputs belong to."""
    return stage_order(program).index(stage) - (1 if direction == "in" else 0)


def legacy_refs(shader: Shader, stage: str) -> list[tuple[str, str, int, int, str | None]]:
    """Every use of a legacy builtin: (access, builtin, first token, end token, gl_TexCoord index)
    where access is "bare", "in" (gl_in[i].gl_X) or "out" (gl_out[i].gl_X), and the index is the
    text inside gl_TexCoord[...] (None when not indexed)."""
    t, refs = shader.tokens, []
    names = COMPAT_MEMBERS | set(FS_READS)
    for i in shader.code():
        token = t[i]
        if token.kind != "ident" or token.text not in names:
            continue
        if token.text in ("gl_Color", "gl_SecondaryColor") and stage != "fs":
            continue                                   # the VS's are vertex attributes
        first, access = i, "bare"
        if i >= 1 and t[i - 1].is_("."):
            if i >= 2 and t[i - 2].is_("]"):
                opener = shader.close(i - 2)
                if opener >= 1 and t[opener - 1].text in ("gl_in", "gl_out"):
                    first, access = opener - 1, t[opener - 1].text[3:]
            if access == "bare":
                continue                               # a member of something else
        end, index = i + 1, None
        if token.text == "gl_TexCoord" and end < len(t) and t[end].is_("["):
            close = shader.close(end)
            index = shader.source(end + 1, close).strip()
            end = close + 1
        refs.append((access, token.text, first, end, index))
    return refs


def legacy_key(builtin: str, index: str | None) -> str | None:
    """"gl_TexCoord", "3" -> "TexCoord3"; the whole array or a variable index -> None."""
    if builtin == "gl_TexCoord":
        return f"TexCoord{index}" if index is not None and index.isdigit() else None
    return FS_READS.get(builtin, builtin[3:])


def _texcoord_size(shader: Shader) -> int:
    sizes = [types.element_count(x.dims) for d in shader.variables() for x in d.declarators
             if x.name == "gl_TexCoord" and x.dims and x.dims[0].isdigit()]
    sizes += [types.element_count(x.dims) for d in shader.blocks() for m in d.members for x in m.declarators
              if x.name == "gl_TexCoord" and x.dims and x.dims[0].isdigit()]
    return max(sizes, default=TEXCOORDS)


def _stage_legacy(program: Program, stage: str) -> set[str]:
    """The legacy slots a stage reads or writes."""
    used = set()
    for _, builtin, _, _, index in legacy_refs(program.models[stage], stage):
        key = legacy_key(builtin, index)
        if key is None:
            used |= {f"TexCoord{k}" for k in range(program.texcoord_array)}
        else:
            used.add(key)
    return used


def assign_locations(program: Program) -> None:
    """Per interface (producer/consumer pair): same name -> same location on both sides, as GL
    matches varyings by name; explicit locations kept; the legacy builtins the pair uses after
    the last user location (at 0, on top of the user's, without `slot-map`)."""
    shaders = models(program)
    structs = {}
    for shader in shaders.values():
        for s in shader.structs():
            structs[s.type] = [(m.type, x.dims + m.type_dims) for m in s.members for x in m.declarators]
    program.structs = structs
    variable = [(stage, shader) for stage, shader in shaders.items()
                if any(legacy_key(b, i) is None for _, b, _, _, i in legacy_refs(shader, stage))]
    if variable:       # every stage then passes gl_TexCoord[] as one array, so any index reaches it
        program.texcoord_array = max(_texcoord_size(shader) for _, shader in variable)
    stage_legacy = {stage: _stage_legacy(program, stage) for stage in shaders}
    program.legacy_used = tuple(n for n in LEGACY if any(n in used for used in stage_legacy.values()))
    order = stage_order(program)
    for index in range(len(order)):       # the last one: outputs nothing consumes (captured ones)
        sides = [(order[index], "out")] + ([(order[index + 1], "in")] if index + 1 < len(order) else [])
        sizes: dict[str, int] = {}
        explicit: dict[str, int] = {}
        for stage, direction in sides:
            for v in interface(stage, shaders[stage]):
                if v.direction != direction:
                    continue
                if v.explicit_location is not None:
                    explicit[v.name] = v.explicit_location
                sizes[v.name] = max(sizes.get(v.name, 0), size(v, structs))
        taken = set()
        for name, loc in explicit.items():
            taken |= set(range(loc, loc + sizes[name]))
        next_free = 0
        for name in sorted(sizes):
            if name in explicit:
                program.locations[(index, name)] = explicit[name]
                continue
            while any(loc in taken for loc in range(next_free, next_free + sizes[name])):
                next_free += 1
            program.locations[(index, name)] = next_free
            taken |= set(range(next_free, next_free + sizes[name]))
            next_free += sizes[name]
        names = tuple(n for n in program.legacy_used if any(n in stage_legacy[stage] for stage, _ in sides))
        base = 0 if "slot-map" in program.without else (max(taken) + 1 if taken else 0)
        program.legacy[index] = (base, names)


def locations_used(program: Program) -> int:
    """The most locations any interface needs."""
    ends = [loc + 1 for loc in program.locations.values()]
    ends += [base + len(names) for base, names in program.legacy.values() if names]
    return max(ends, default=0)


def legacy_location(program: Program, index: int, name: str) -> int:
    base, names = program.legacy[index]
    return base + names.index(name)
