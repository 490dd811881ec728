"""Which path the Vulkan layer takes for a GL direct multi-draw, chosen as zink chooses it.

- `native`: one `vkCmdDrawMultiEXT` / `vkCmdDrawMultiIndexedEXT` (VK_EXT_multi_draw) with every
  entry of the GL call, zero-count ones included, and `gl_DrawID` read from the native
  `DrawIndex` builtin. zink takes it where the device offers VK_EXT_multi_draw (its draw
  template's HAS_MULTIDRAW) and shaderDrawParameters: in zink_draw.cpp the draw id is pushed
  only when `(!HAS_MULTIDRAW && num_draws > 1) || (HAS_MULTIDRAW && num_draws > 1 &&
  !dinfo->increment_draw_id)`.
- `split`: one `vkCmdDraw` / `vkCmdDrawIndexed` per entry of non-zero count, each told its index
  through the layer's push constant (the `draw-id` translation): zink without VK_EXT_multi_draw.

Every other draw (single, indirect, indirect-count) is the same call in both paths; so is
`gl_BaseVertex` (`indexed ? BaseVertex : 0`, which zink lowers the same way whatever the device).
Pure logic: the device's features come in as booleans, so the choice is self-tested without one.
"""
from __future__ import annotations

from dataclasses import dataclass

from harness.model import glfacts

PATHS = ("native", "split")
CHOICES = ("auto",) + PATHS


class PathError(ValueError):
    """A path the device cannot take, or an unknown name: one line for the user."""


@dataclass(frozen=True)
class Choice:
    path: str                       # "native" or "split"
    why: str                        # how it was chosen, for the target's info and results

    def describe(self) -> str:
        return f"multi-draw path {self.path} ({self.why})"


def missing(multi_draw: bool, draw_parameters: bool) -> list[str]:
    """What the native path needs that the device lacks."""
    return [name for name, have in (("VK_EXT_multi_draw (multiDraw)", multi_draw),
                                     ("shaderDrawParameters", draw_parameters)) if not have]


def choose(requested: str, multi_draw: bool, draw_parameters: bool) -> Choice:
    """`requested` is auto, native or split; auto takes native exactly where zink does."""
    if requested not in CHOICES:
        raise PathError(f"unknown Vulkan path {requested!r} (known: {', '.join(CHOICES)})")
    lacks = missing(multi_draw, draw_parameters)
    if requested == "split":
        return Choice("split", "--vk-path split")
    if requested == "native":
        if lacks:
            raise PathError(f"--vk-path native: the Vulkan device lacks {' and '.join(lacks)}")
        return Choice("native", "--vk-path native")
    if lacks:
        return Choice("split", f"auto: the device lacks {' and '.join(lacks)}, as zink splits")
    return Choice("native", "auto: the device offers VK_EXT_multi_draw and shaderDrawParameters, as zink does")


def depends_on_path(case) -> bool:
    """Whether the paths record any of the case's draws differently: a GL direct multi-draw."""
    return any(d.command in glfacts.MULTI_COMMANDS and d.command not in glfacts.INDIRECT_COMMANDS
               for d in case.draws())
