"""Backends run a Case on a driver and return what they observed; they know nothing of pytest.

A backend has `info() -> Facts` and `run(case) -> Observation` (the `Backend` protocol), and
raises these to say why not. One whose facts cost queries may hand them to a replacement child
(the `AdoptingBackend` protocol).
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, runtime_checkable

from harness.base.errors import CaseOutcome
from harness.model.facts import Facts, Known, Profile
from harness.model.observation import Observation


class Backend(Protocol):
    """What the child holds (harness/executor/child.py): made by registry.make from the child's options."""

    def info(self) -> Facts:
        """The context's facts: renderer, version, each profile's limits (its extensions not listed)."""
        ...

    def run(self, case: Any) -> Observation:
        """What one case (harness.model.case.Case) left to read back, step by step."""
        ...


@runtime_checkable
class AdoptingBackend(Backend, Protocol):
    """A backend whose facts cost queries, which a replacement child of the same options takes
    instead of querying them again (GLBackend's): `known()`, after `info()`, is what it hands
    down; `adopt(known)` takes them."""

    def known(self) -> Known:
        ...

    def adopt(self, known: Known) -> None:
        ...


class Skip(CaseOutcome):
    """The context lacks something the case requires; the message names it."""


class BackendError(CaseOutcome):
    """The driver did not do what the case asks (GL error, compile or link failure, ...): the
    verdict `fail`. Raised only where a driver's answer was just checked (the sites listed in
    tests/selftest/static/test_driver_blame.py); the harness's own faults are HarnessFault, bad
    input UsageError (harness/base/errors.py)."""


class DeviceLost(CaseOutcome):
    """The driver lost its device while the case ran (VK_ERROR_DEVICE_LOST): the case could not
    finish, as if its process had died, so its verdict is a crash; and the backend cannot run
    another case, so the executor replaces the child that holds it. The message names the call."""


def version_refusal(req: Any, facts: Profile) -> str:
    """Why check_requirements skips a case before it looks at extensions or limits: the case
    cannot run as written, or the context's GL version is below the case's; '' if neither.
    `facts`: the case's profile's (one of a backend's info() profiles)."""
    if getattr(req, "unsupported", ""):
        return str(req.unsupported)
    if facts.version_number < tuple(req.gl_version):
        return f"needs GL {req.gl_version[0]}.{req.gl_version[1]} {req.profile}, context has {facts.version}"
    return ""


def check_requirements(case: Any, facts: Profile, query: Callable[[str], int | None] | None = None) -> None:
    """Skip, naming what is missing, where the context lacks the case's GL version, an
    extension or a limit. `facts`: the case's profile's, its extensions listed;
    `query(name)` answers limits that `facts` does not list."""
    req = case.requires
    refused = version_refusal(req, facts)
    if refused:
        raise Skip(refused)
    extensions = facts.extensions or ()
    missing = [e for e in req.extensions if e not in extensions]
    if missing:
        raise Skip(f"needs extension(s) {', '.join(missing)}")
    present = [e for e in getattr(req, "absent_extensions", ()) if e in extensions]
    if present:
        raise Skip(f"needs extension(s) {', '.join(present)} to be absent")
    for name, op, value in req.limits:
        have = facts.limits.get(name)
        if have is None and query is not None:
            have = query(name)
        if have is None:
            raise Skip(f"needs {name} {op} {value}, which this target does not report")
        if not (have >= value if op == ">=" else have == value):
            raise Skip(f"needs {name} {op} {value}, context has {have}")


def readback_bytes(count: int, item: int, capacity: int) -> int:
    """Bytes to read back for `count` items of `item` bytes, where the driver reported `count` (a
    query result), at most the buffer's `capacity`: a wrong count is the driver's to answer in the
    verdict (xfb_primitives_written = 2147483648, expected 4), not a read past the buffer or a size
    over PyOpenGL's int32, as NVIDIA's ~2^31 primitives written was."""
    return max(0, min(count * item, capacity))


def indirect_commands(draw: Any) -> tuple[bytes, int]:
    """A draw's entries as GL's Draw{Arrays,Elements}IndirectCommand structs (the same layout as
    Vulkan's VkDraw{,Indexed}IndirectCommand), at the draw's offset and stride; and the stride."""
    import struct
    elements = "Elements" in draw.command
    stride = draw.indirect_stride or (20 if elements else 16)    # 0: tightly packed
    data = bytearray(draw.indirect_offset + stride * max(len(draw.entries), 1))
    for i, e in enumerate(draw.entries):
        fields = ((e.count, e.instance_count, e.first, e.base_vertex, e.base_instance) if elements
                  else (e.count, e.instance_count, e.first, e.base_instance))
        struct.pack_into("<5I" if elements else "<4I", data, draw.indirect_offset + i * stride,
                         *[v & 0xFFFFFFFF for v in fields])         # baseVertex is a signed int
    return bytes(data), stride
