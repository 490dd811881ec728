"""Which component a failing case's evidence names: pure rules over an evidence table.

The table has one row per setup the case ran on (harness/triage/blame.py gathers it), per Mesa:
- `llvmpipe`: GL on llvmpipe (Mesa's GL front end, the state tracker, llvmpipe, the draw module);
- `zink/lavapipe`: GL on zink over lavapipe (the same front end, zink, lavapipe);
- `zink/other`: zink over another Vulkan driver, where the machine has one;
- `layer/native`, `layer/split`: the harness's Vulkan layer on lavapipe in each multi-draw path
  (docs/vk-paths.md), one of them the path zink takes there (`zinks_path`);
each with its status and, where the validation layer watched it, its first error.

The rules, in order (docs/triage.md says why each holds):
1. zink handed the driver invalid SPIR-V or an invalid call (the validation layer on zink), and
   that zink row fails -> zink. (A report on a zink row that passes is another defect: the
   verdict names it and the rules go on.)
2. The layer made an invalid Vulkan call (the validation layer on the layer) -> the harness's layer.
3. Nothing fails -> undecided (nothing to blame).
4. The GL side (llvmpipe, zink/lavapipe) passes, the layer fails in a path -> the harness's layer
   if it fails only in the path zink does not take; else undecided (lavapipe fails the calls zink
   makes, yet zink over it passes: the evidence conflicts).
5. llvmpipe fails, zink/lavapipe passes -> llvmpipe.
6. zink/lavapipe fails, llvmpipe passes -> lavapipe if the layer fails on lavapipe in zink's path;
   else zink if zink fails over another Vulkan driver too; else undecided (zink over lavapipe alone
   cannot tell zink from lavapipe, or another driver passes where the layer's calls pass).
7. Both fail -> the gallium draw module if the layer fails on lavapipe in zink's path (lavapipe runs
   it as llvmpipe does); else the GL front end / state tracker if the layer passes in both paths
   and zink over another driver (where present) fails too; else undecided.
8. llvmpipe fails, zink over lavapipe says nothing of this failure (set aside, skipped, erred), the
   layer fails on lavapipe in zink's path -> the gallium draw module (rule 7's first reason, which
   never needed zink's row).
Across Mesas: the Mesas where the case fails must agree, or the verdict is undecided.
Mixing releases (mixed_verdicts), where rule 6 cannot tell zink from lavapipe: zink of Mesa A over
lavapipe of Mesa B, and the other way round; the failure follows zink A or lavapipe A.

Another defect on one row (set_aside): given the failure under triage as a regular expression
(`--failure`), a row that fails with a first line it does not match fails of something else (on
22.3.6, lavapipe-tes-struct-input's case crashes zink in its injected TCS before the TES reads
anything); such a row, and what the validation layer said of its process, says nothing, and the
verdict lists it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from harness.model.blame import Blame

SETUPS = ("llvmpipe", "zink/lavapipe", "zink/other", "zink/mixed", "layer/native", "layer/split")
MIXED = "zink/lavapipe@"           # + the lavapipe's Mesa: zink of the row's Mesa over another release's lavapipe
FAILING = ("fail", "crash", "timeout")


@dataclass(frozen=True)
class Row:
    setup: str                     # one of SETUPS
    mesa: str                      # the Mesa version it loaded
    status: str                    # pass, fail, crash, timeout, skip, error
    message: str = ""              # the verdict's first line
    validation: str = ""           # the validation layer's first error ('' none or not watched)
    zinks_path: bool = False       # a layer row in the multi-draw path zink takes on lavapipe
    renderer: str = ""             # the GL or Vulkan renderer string the setup reported
    recorded: str = ""             # gathered on another machine: the evidence file (blame --evidence)


@dataclass(frozen=True)
class Verdict:
    component: Blame
    reason: str


def _fails(rows: list[Row], setup: str) -> bool | None:
    """True/False where the setup ran and gave a verdict on the driver, None where it did not."""
    told = [r for r in rows if r.setup == setup and r.status in FAILING + ("pass",)]
    if not told:
        return None
    return any(r.status in FAILING for r in told)


def set_aside(rows: list[Row], failure: str) -> tuple[list[Row], list[Row]]:
    """(rows, set aside): with `failure` (a regular expression of the failure under triage, searched
    in a row's first line) given, each failing row whose first line it does not match is another
    defect's: it becomes status 'aside' (says nothing), its validation report dropped."""
    if not failure:
        return rows, []
    pattern = re.compile(failure)
    aside = [r for r in rows if r.status in FAILING and not pattern.search(r.message)]
    return [replace(r, status="aside", validation="") if r in aside else r for r in rows], aside


def judge_mesa(rows: list[Row], failure: str = "", mixed: Verdict | None = None) -> Verdict:
    """The rules above, over one Mesa's rows (its mixed rows apart); `failure`: set_aside's;
    `mixed`: what mixing releases says (mixed_verdicts), where zink over lavapipe alone cannot."""
    rows, aside = set_aside(_plain(rows), failure)
    verdict = _judge_mesa(rows)
    if mixed is not None and verdict.component is Blame.UNDECIDED and _fails(rows, "zink/lavapipe") \
            and _fails(rows, "llvmpipe") is False:
        verdict = Verdict(mixed.component, f"{mixed.reason} (without the mix: {verdict.reason})")
    if aside:
        listed = ", ".join(f"{r.setup} ({r.status}: {r.message or '-'})" for r in aside)
        verdict = Verdict(verdict.component, f"{verdict.reason}; set aside, failing otherwise than "
                                             f"/{failure}/: {listed}")
    return verdict


def _judge_mesa(rows: list[Row]) -> Verdict:
    verdict = _judge_told(rows)
    unheard = [r for r in rows if r.setup.startswith("zink") and r.validation and r.status not in FAILING]
    if unheard:   # zink's invalid SPIR-V that its driver ran right: another defect, not this failure's
        listed = ", ".join(f"{r.setup} ({r.status}): {r.validation}" for r in unheard)
        verdict = Verdict(verdict.component, f"{verdict.reason}; the validation layer also reports zink's Vulkan "
                                             f"use where zink passes, another defect: {listed}")
    return verdict


def _judge_told(rows: list[Row]) -> Verdict:
    for r in rows:
        if r.setup.startswith("zink") and r.validation and r.status in FAILING:
            return Verdict(Blame.ZINK, f"the validation layer reports zink's Vulkan use on {r.setup}: {r.validation}")
    for r in rows:
        if r.setup.startswith("layer") and r.validation:
            return Verdict(Blame.LAYER, f"the validation layer reports the harness's layer ({r.setup}): "
                                            f"{r.validation}")
    llvmpipe, zink, other = _fails(rows, "llvmpipe"), _fails(rows, "zink/lavapipe"), _fails(rows, "zink/other")
    layer = {r.setup: _fails(rows, r.setup) for r in rows if r.setup.startswith("layer/")}
    zinks = next((r.setup for r in rows if r.setup.startswith("layer/") and r.zinks_path), None)
    in_zinks_path = layer.get(zinks) if zinks else None
    others = [s for s, failed in layer.items() if s != zinks and failed]
    if not any(r.status in FAILING for r in rows):
        return Verdict(Blame.UNDECIDED, "the case fails on no setup here: nothing to blame")
    if not llvmpipe and not zink and not any(layer.values()):
        if zink is None:
            return Verdict(Blame.UNDECIDED, "only zink over another Vulkan driver fails here, and zink over lavapipe "
                                        "gave no verdict: gather its row where lavapipe is (blame --evidence)")
        return Verdict(Blame.UNDECIDED, "zink over another Vulkan driver fails and zink over lavapipe passes: that "
                                    "driver, or a path zink takes over it only; an intermittent failure needs "
                                    "more --repeats")
    if not llvmpipe and not zink:
        if in_zinks_path is False and others:
            return Verdict(Blame.LAYER, f"only the harness's layer fails ({', '.join(others)}), not in the path "
                                            f"zink takes ({zinks}), and llvmpipe and zink pass")
        return Verdict(Blame.UNDECIDED, "the layer fails on lavapipe in the path zink takes, yet zink over lavapipe "
                                    "passes: the evidence conflicts")
    if llvmpipe and zink is False:
        return Verdict(Blame.LLVMPIPE, "llvmpipe fails; zink over lavapipe passes (llvmpipe's driver, or a state "
                                   "tracker path zink does not take: read the source)")
    if zink and llvmpipe is False:
        if in_zinks_path:
            return Verdict(Blame.LAVAPIPE, f"zink over lavapipe fails and so do the Vulkan calls zink makes, issued by "
                                       f"the harness's layer on lavapipe ({zinks}); llvmpipe passes")
        if other and in_zinks_path is False:
            return Verdict(Blame.ZINK, "zink fails over lavapipe and over another Vulkan driver; the Vulkan calls zink "
                                   f"makes pass on lavapipe ({zinks}); llvmpipe passes (zink, or a state tracker "
                                   "path only zink takes: read the source)")
        why = "no other Vulkan driver to tell zink from lavapipe" if other is None else \
            "zink over another Vulkan driver passes, yet the layer's calls pass on lavapipe"
        return Verdict(Blame.UNDECIDED, f"zink over lavapipe fails, llvmpipe passes: {why}")
    if llvmpipe and zink:
        if in_zinks_path:
            return Verdict(Blame.DRAW, f"llvmpipe and zink over lavapipe fail, and lavapipe fails the "
                                                  f"Vulkan calls zink makes ({zinks}): code lavapipe shares with "
                                                  f"llvmpipe")
        if in_zinks_path is False and not others and other is not False:
            more = "" if other is None else " and over another Vulkan driver"
            return Verdict(Blame.FRONT_END, f"llvmpipe and zink{more} fail the same, while lavapipe "
                                                           f"passes the Vulkan calls in every path")
        return Verdict(Blame.UNDECIDED, "llvmpipe and zink over lavapipe fail, but the Vulkan evidence does not agree "
                                    "(the layer fails outside zink's path, or zink over another driver passes)")
    if llvmpipe and zink is None and in_zinks_path:
        return Verdict(Blame.DRAW, f"llvmpipe fails, and lavapipe fails the Vulkan calls zink makes "
                                              f"({zinks}): code lavapipe shares with llvmpipe (zink over lavapipe "
                                              f"says nothing of this failure)")
    return Verdict(Blame.UNDECIDED, "the GL setups gave no verdict on the driver (skipped or harness errors)")


def _plain(rows: list[Row]) -> list[Row]:
    return [r for r in rows if not r.setup.startswith(MIXED)]


def mixed_verdicts(by_mesa: dict[str, list[Row]]) -> dict[str, Verdict]:
    """Per Mesa A whose zink fails over its own lavapipe: whether the failure follows zink A or
    lavapipe A across releases. zink A failing over lavapipe B too, where zink B passes over it,
    follows zink A (as over another Vulkan driver: rule 6); zink A passing over lavapipe B while
    zink B fails over lavapipe A follows lavapipe A (zink A over lavapipe B alone could pass by
    taking another path there, so the other direction is needed). Mixes that disagree say nothing.
    `by_mesa`: each Mesa's rows, those failing otherwise already set aside (set_aside)."""
    found = {}
    for a, group in by_mesa.items():
        if not _fails(_plain(group), "zink/lavapipe"):
            continue
        said = set()
        for r in group:
            if not r.setup.startswith(MIXED) or r.status not in FAILING + ("pass",):
                continue
            b = r.setup[len(MIXED):]
            other = by_mesa.get(b, [])
            if _fails(_plain(other), "zink/lavapipe") is not False:
                continue
            back = next((o for o in other if o.setup == MIXED + a and o.status in FAILING + ("pass",)), None)
            if r.status in FAILING:
                said.add((Blame.ZINK, f"the failure follows zink {a}: it fails over lavapipe {b} too, where zink {b} passes "
                                  "(zink, or a state tracker path only zink takes: read the source)"))
            elif back is not None and back.status in FAILING:
                said.add((Blame.LAVAPIPE, f"the failure follows lavapipe {a}: zink {b} fails over it, while zink {a} "
                                      f"passes over lavapipe {b} and zink {b} over its own"))
        if len({component for component, _ in said}) == 1:
            found[a] = Verdict(next(iter(said))[0], "; ".join(sorted(reason for _, reason in said)))
    return found


def judge(rows: list[Row], failure: str = "") -> Verdict:
    """Over every Mesa: the Mesas where the case fails (of `failure`, where given) must agree."""
    by_mesa: dict[str, list[Row]] = {}
    for r in rows:
        by_mesa.setdefault(r.mesa, []).append(r)
    kept = {mesa: set_aside(group, failure)[0] for mesa, group in by_mesa.items()}
    mixed = mixed_verdicts(kept)
    verdicts = {mesa: judge_mesa(group, failure, mixed.get(mesa)) for mesa, group in by_mesa.items()}
    failing = {m: v for m, v in verdicts.items() if any(r.status in FAILING for r in _plain(kept[m]))}
    if not failing:
        return Verdict(Blame.UNDECIDED, "the case fails on no setup and no Mesa: nothing to blame")
    components = {v.component for v in failing.values()}
    passing = sorted(set(verdicts) - set(failing))
    nowhere = "passes everywhere" if not failure else f"fails of /{failure}/ nowhere"
    tail = f" ({nowhere} on {', '.join(passing)})" if passing else ""
    if len(components) == 1:
        verdict = next(iter(failing.values()))
        where = ", ".join(failing)
        return Verdict(verdict.component, f"on Mesa {where}: {verdict.reason}{tail}")
    return Verdict(Blame.UNDECIDED, "the Mesas disagree: " + "; ".join(f"{m}: {v.component} ({v.reason})"
                                                                   for m, v in failing.items()) + tail)
