"""A case as a test in piglit's own form (`harness export --format piglit`): the `.shader_test`
where shader_runner can run the case as a test that can fail, else a C test on piglit's
framework (templates/piglit.c.j2) with its `CMakeLists.gl.txt` line and its `tests/opengl.py`
entry beside it.

The files are laid out as in piglit's tree (tests/spec/<area>/...), so copying the output's
`tests` folder over a piglit checkout adds them; the two fragments name where their lines go.
The C test's data are the standalone program's (export_c.values: the programs, draws and the
expected values the harness's oracle computed), rendered through the partials both share.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from harness.model.case import Case, Draw, NewList
from harness.run import export_c
from harness.run.export import shader_test, shader_test_unsupported
from harness.run.export_c import NotExportable

TEMPLATE = "piglit.c.j2"
# GL_PARAMETER_BUFFER's first word, which no count-draw reads: 0, as a test that leaves the
# buffer bound must hold (a plain indirect draw on Mesa's state tracker reads it as its count;
# triage/mesa-22.3.6/st-indirect-draw-parameter-buffer).
PARAMETER_WORD = "0"
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


@dataclass(frozen=True)
class Placement:
    """Where a test goes in piglit's tree: tests/spec/<area>/, executable <area>-<name>."""
    area: str
    name: str

    @property
    def executable(self) -> str:
        return f"{self.area}-{self.name}"

    @property
    def group(self) -> str:
        """The group name in piglit's tests/opengl.py for the area ('ARB_foo', '!opengl 4.5')."""
        if self.area.startswith("gl-"):
            return f"!opengl {self.area[3:]}"
        return re.sub(r"^(arb|ext|amd|nv|khr)_", lambda m: m[1].upper() + "_", self.area)

    def cmake_line(self) -> str:
        return f"piglit_add_executable ({self.executable} {self.name}.c)"

    def opengl_entry(self) -> str:
        return ("with profile.test_list.group_manager(\n        PiglitGLTest,\n"
                f"        grouptools.join('spec', '{self.group}')) as g:\n"
                f"    g(['{self.executable}'], '{self.name}')\n")


def area(case: Case) -> str:
    """The spec folder a piglit developer would look in: the extension the case exercises."""
    commands = {d.command for d in _draws(case)}
    sources = "\n".join(source for shaders in (case.shaders,) + case.programs for _, source in shaders)
    if any(c.endswith("IndirectCount") for c in commands):
        return "arb_indirect_parameters"
    if "gl_DrawID" in sources:
        return "arb_shader_draw_parameters"
    if any(stage in ("tcs", "tes") for stage, _ in case.shaders):
        return "arb_tessellation_shader"
    major, minor = case.requires.gl_version
    return f"gl-{major}.{minor}"


def _draws(case: Case) -> list[Draw]:
    return [s if isinstance(s, Draw) else s.draw for s in case.steps if isinstance(s, (Draw, NewList))]


def placement(case: Case, name: str = "") -> Placement:
    """`name` (default: the case's family and a hash of its id) must be a piglit test name."""
    name = name or f"{case.id.split('/')[0]}-{hashlib.sha1(case.id.encode()).hexdigest()[:10]}"
    if not NAME_RE.match(name):
        raise NotExportable(f"--name {name!r}: lower-case letters, digits, '_', '.' and '-'")
    return Placement(area(case), name)


def c_test(case: Case) -> str:
    """The C test's source, in piglit's style (tab indents)."""
    why = export_c.unsupported(case)
    if why:
        raise NotExportable(f"--format piglit: case {case.id}: {why}")
    req = case.requires
    text = export_c.render(case, TEMPLATE, piglit=True, parameter_word=PARAMETER_WORD,
                           extensions=list(req.extensions), absent_extensions=list(req.absent_extensions),
                           limits=[(name, op, value) for name, op, value in req.limits])
    return re.sub(r"^(?: {4})+", lambda m: "\t" * (len(m[0]) // 4), text, flags=re.M)


def export(case: Case, out_dir: Path, name: str = "") -> list[Path]:
    """Writes the test under out_dir/tests/spec/<area>/, and for a C test the two fragments
    (<name>.CMakeLists.gl.txt, <name>.opengl.py) in out_dir; returns the paths written."""
    where = placement(case, name)
    folder = out_dir / "tests" / "spec" / where.area
    if not shader_test_unsupported(case):
        path = folder / "execution" / f"{where.name}.shader_test"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(shader_test(case))
        return [path]
    if export_c.unsupported(case):
        raise NotExportable(f"--format piglit: case {case.id}: not a shader_test "
                            f"({shader_test_unsupported(case)}), not a C test ({export_c.unsupported(case)})")
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / f"{where.name}.c", out_dir / f"{where.name}.CMakeLists.gl.txt",
               out_dir / f"{where.name}.opengl.py"]
    written[0].write_text(c_test(case))
    written[1].write_text(f"# tests/spec/{where.area}/CMakeLists.gl.txt\n{where.cmake_line()}\n")
    written[2].write_text(f"# tests/opengl.py\n{where.opengl_entry()}")
    return written
