"""[vertex data] as vertex attributes. The header names the columns (`name/type/size`, or
`name/type/size/K` for piglit_vbo's matrix column K at the name's location + K); each row gives
one vertex. piglit_vbo finds a name's location with glGetAttribLocation after linking, so an
explicit layout(location) wins over the location the harness binds."""
from __future__ import annotations

import re

from harness.glsl.model import ParseError, parse
from harness.glsl.preprocess import PreprocessError, preprocess
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.sections import Script
from harness.sources.shader_test.state import Column, Vertices
from harness.sources.shader_test.values import integer, number

Layout = list[tuple[str, int]]                      # (column key, components)


def vs_reads(shaders: list[tuple[str, str]], name: str) -> bool:
    """Whether a vertex shader of the program names `name`."""
    return any(re.search(rf"\b{name}\b", source) for stage, source in shaders if stage == "vs")


def read_vertex_data(vertices: Vertices, script: Script, shaders: list[tuple[str, str]]) -> None:
    lines = script.vertex_data
    if not lines:
        return
    number_, header = lines[0]
    layout = _layout(vertices, header, number_)
    explicit = _explicit_locations(shaders, {n.split("/")[0] for n, _ in layout})
    taken = {0} if _rect_position_needed(layout, script, shaders) else set()
    for name, _ in layout:                   # explicit locations (and their columns) first
        base, _, column = name.partition("/")
        if base in explicit:
            taken.add(explicit[base] + int(column or 0))
    for name, components in layout:
        if "/" in name:
            continue
        if name in ("piglit_vertex", "gl_Vertex"):
            location = 0
        elif name.isdigit():
            location = int(name)
        elif name in explicit:
            location = explicit[name]
        else:
            location = min(set(range(len(layout) + 2)) - taken)
        taken.add(location)
        vertices.columns[name] = Column(location, components, [])
    for name, components in layout:
        if "/" in name:
            base, column = name.split("/")
            base_column = vertices.columns.get(base)
            base_location = explicit.get(base, base_column.location if base_column else None)
            if base_location is None:
                raise Unsupported(f"vertex data column {name!r} (line {number_}): no location for {base!r} "
                                  f"(neither an explicit one nor a column of its own)")
            vertices.columns[name] = Column(base_location + int(column), components, [])
    _rows(vertices, layout, lines[1:])


def _layout(vertices: Vertices, header: str, line: int) -> Layout:
    """The header's columns; each column's type goes to `vertices.types`."""
    layout = []
    for column in header.split():
        m = re.match(r"^(\w+)/(\w+)/(?:[iu]?vec)?([1-4])(?:/([0-3]))?$", column) or \
            re.match(r"^(\w+)/(float|int|uint)/(float|int|uint)()$", column)
        if not m or m[2] not in ("float", "int", "uint"):
            raise Unsupported(f"vertex data column {column!r} (line {line}); float, int and uint columns only")
        key = f"{m[1]}/{m[4]}" if m[4] else m[1]
        layout.append((key, 1 if not m[3].isdigit() else int(m[3])))
        vertices.types[key] = m[2]
    return layout


def _rows(vertices: Vertices, layout: Layout, rows: list[tuple[int, str]]) -> None:
    width = sum(c for _, c in layout)
    for line, row in rows:
        values = row.split()
        if len(values) != width:
            raise Unsupported(f"vertex data row {row!r} (line {line}): {len(values)} values, "
                              f"the header names {width}")
        at = 0
        for name, components in layout:
            read = number if vertices.types[name] == "float" else integer
            try:
                vertices.columns[name].data.extend(read(v) for v in values[at:at + components])
            except ValueError as exc:           # not a number: the file's fault, said in one line
                raise Unsupported(f"vertex data row {row!r} (line {line}): {exc}") from exc
            at += components
        vertices.rows += 1


def _explicit_locations(shaders: list[tuple[str, str]], names: set[str]) -> dict[str, int]:
    """The VS inputs among `names` that have a layout(location = N)."""
    found = {}
    for stage, source in shaders:
        if stage != "vs" or "location" not in source:
            continue
        try:
            shader = parse(preprocess(stage, source))
        except (ParseError, PreprocessError):
            continue                  # the driver's compiler will say; the bound locations stand
        for d in shader.variables("in"):
            if d.location is not None:
                found.update({x.name: d.location for x in d.declarators if x.name in names})
    return found


def _rect_position_needed(layout: Layout, script: Script, shaders: list[tuple[str, str]]) -> bool:
    names = {n for n, _ in layout}
    return "piglit_vertex" in names or "gl_Vertex" in names or vs_reads(shaders, "gl_Vertex") or \
        vs_reads(shaders, "piglit_vertex") or any(re.match(r"^draw (instanced )?rect", line)
                                                   for _, line in script.test)
