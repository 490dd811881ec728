"""The case a shader_test becomes: the parse state (see state.py), the steps the [test] commands
append (each carrying the state in effect for it), the Read steps the probes add their checks
to, and the Case made of them at the end."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from harness.model.case import (Case, Clear, Dispatch, Draw, DrawEntry, DrawState, Link, ProgramQuery, Read, Readback, SetState, Step,
                                step_label)
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.ids import FAMILY
from harness.sources.shader_test.sections import Script
from harness.sources.shader_test.state import Checks, Context, DisplayList, DrawingState, Vertices
from harness.sources.shader_test.vertex_data import vs_reads


@dataclass
class Builder:
    script: Script
    context: Context = field(default_factory=Context)
    shaders: list[tuple[str, str]] = field(default_factory=list)
    vertices: Vertices = field(default_factory=Vertices)
    state: DrawingState = field(default_factory=DrawingState)
    display_list: DisplayList = field(default_factory=DisplayList)
    checks: Checks = field(default_factory=Checks)
    steps: list[Step] = field(default_factory=list)
    link: str = ""                                  # "success" or "error": a `link ...` command
    atomic_counters: int = 0                        # `atomic counters N`
    rebound: str = ""                               # a `probe ssbo` of a binding other than 0
    formats: dict[int, str] = field(default_factory=dict)   # a 2D rgbw texture's image format by unit
    framebuffer: str = ""                           # `fb tex 2d`: the image's format, RGBA8 or RGBA32F
    unsupported: str = ""                           # why the case is skipped

    def vs_reads(self, name: str) -> bool:
        return vs_reads(self.shaders, name)

    def take_state(self) -> DrawState:
        return self.state.take()

    def draw(self, command: str, mode: str, entries: tuple[DrawEntry, ...], label: str) -> None:
        """A Draw step for one drawing command."""
        self.check_rebound(label)
        self.steps.append(Draw(command, mode, entries, state=self.take_state(), label=label))

    def check_rebound(self, label: str) -> None:
        if self.rebound:
            raise Unsupported(f"command {label!r}: after {self.rebound}, which leaves that buffer bound at "
                              f"storage binding 0 in shader_runner")

    def read(self, number: int, image: bool = False, counters: bool = False, storage: tuple[int, ...] = (),
             queries: tuple[ProgramQuery, ...] = ()) -> int:
        """The index of the Read step that reads these (Read's fields) at this line: the last
        step, if it is a Read, gets them added; otherwise a new one. `ssbo` commands since the
        last step are made first."""
        if self.state.pending_storage:
            self.steps.append(SetState(self.take_state(), f"storage buffers (before line {number})"))
        last = self.steps[-1] if self.steps else None
        if not isinstance(last, Read):
            acted = [s for s in self.steps if not isinstance(s, (SetState, Read))]
            last = Read(f"read back after {step_label(acted, len(acted) - 1) if acted else 'the start'}")
            self.steps.append(last)
        self.steps[-1] = dataclasses.replace(last, image=last.image or image, counters=last.counters or counters,
                                             storage=tuple(sorted(set(last.storage) | set(storage))),
                                             queries=last.queries + queries)
        return len(self.steps) - 1

    def finish(self) -> None:
        """The checks of a file once its last command ran."""
        if self.link == "error" or not self.steps:
            # shader_runner's check is then the link alone: `link error` passes when the program
            # does not link, a file without steps when it does
            if self.steps:
                raise Unsupported("file: `link error` with draws or probes after it")
            self.steps = [Link(f"link {self.link or 'success'} (shader_runner links the program first)")]
            self.checks.counts = {0: [("link_failed", int(self.link == "error"))]}
            return
        if self.display_list.mode:
            raise Unsupported("file: `newlist` without `endlist`")
        if self.framebuffer and not isinstance(self.steps[0], Clear):
            raise Unsupported("file: `fb tex 2d` with a step before the first `clear` (it would read the rgbw texels)")
        if self.context.separable and len({s for s, _ in self.shaders}) < len(self.shaders):
            raise Unsupported("file: SSO ENABLED with several shaders a stage")
        if self.context.separable and (self.checks.queries or any(isinstance(s, Dispatch) for s in self.steps)):
            raise Unsupported("file: SSO ENABLED with program queries or compute")
        if not self.checks.any():
            # shader_runner then passes when the program links and the commands run; the harness
            # also asks that no draw leaves a GL error
            self.checks.gl_error = True
            for index in range(len(self.steps)):
                self.checks.counts[index] = [("gl_error", 0)]

    def case(self, id_: str, source: str) -> Case:
        expect = () if self.unsupported else self.checks.expectations()
        params = (("source", source),) if source else ()
        readback = Readback(image=self.context.size, clear=0.0, image_format=self.framebuffer or "RGBA8", keep_image=True,
                            atomic_counters=self.atomic_counters, gl_error=self.checks.gl_error)
        return Case(id=id_, family=FAMILY, shaders=tuple(self.shaders),
                    requires=self.context.requirements(self.unsupported), vertices=self.vertices.rows,
                    attributes=self.vertices.attributes(), steps=tuple(self.steps), readback=readback,
                    expect=expect, description=f"piglit shader_test {source}" if source else "piglit shader_test",
                    params=params, separable=self.context.separable)
