"""NVIDIA's shader disk cache, one folder for each child that runs at the same time as others.

NVIDIA's GL driver serves its disk cache (~/.cache/nvidia/GLCache) to one process at a time;
the other processes compile every program again, with a folder of its own each (warm, or a
copy of one warm folder) they link as fast as one process alone (docs/decisions.md#shader-cache-per-child). The driver does not create that folder: without it, it caches nothing.

So a child of a target that may load NVIDIA's driver (Target.shader_cache_slot) claims a slot
before its driver loads: the first folder slots()/K it can lock, held until it exits. Before a
run starts its children, `seed` copies slot 0 into the slots the run will use that have no
cache yet, so that N children at once start as warm as one. A cached binary is the driver's
own compiler output, as when one process runs alone; a user who sets the variable, or turns
the cache off (`__GL_SHADER_DISK_CACHE=0`), keeps that choice. Other drivers ignore it.
"""
from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Mapping, MutableMapping
from pathlib import Path

from harness.base.config import cache_home

VARIABLE = "__GL_SHADER_DISK_CACHE_PATH"
LIMIT = 64                       # slots; a child beyond them keeps the driver's default cache
LOCK = "lock"


def slots(environ: Mapping[str, str]) -> Path:
    return cache_home(environ) / "nvidia-shader-cache"


def chosen_by_user(environ: Mapping[str, str]) -> bool:
    return VARIABLE in environ or environ.get("__GL_SHADER_DISK_CACHE") == "0"


def claim(environ: MutableMapping[str, str]) -> int | None:
    """Point this process's NVIDIA shader cache at the first free slot and return the lock's
    descriptor, which must stay open while the process lives; None where the user chose, or no
    slot could be had (a read-only home, every slot taken)."""
    if chosen_by_user(environ):
        return None
    for k in range(LIMIT):
        folder = slots(environ) / str(k)
        fd = _lock(folder)
        if fd is not None:
            environ[VARIABLE] = str(folder)
            return fd
    return None


def seed(count: int, environ: Mapping[str, str]) -> list[int]:
    """Copy slot 0's cache into each of slots 1..count-1 that has none, each while holding both
    slots' locks (no child is writing either); returns the slots seeded. Nothing happens where
    slot 0 has no cache or is in use."""
    source = slots(environ) / "0"
    if chosen_by_user(environ) or count < 2 or not _cached(source):
        return []
    held = _lock(source)
    if held is None:
        return []
    seeded = []
    try:
        for k in range(1, count):
            target = slots(environ) / str(k)
            if _cached(target):
                continue
            fd = _lock(target)
            if fd is None:
                continue
            try:
                if not _cached(target):          # another run may have seeded it meanwhile
                    _copy(source, target)
                    seeded.append(k)
            finally:
                os.close(fd)
    finally:
        os.close(held)
    return seeded


def _lock(folder: Path) -> int | None:
    """An exclusive lock on the folder (made if missing), or None if another process holds it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _cached(folder: Path) -> bool:
    try:
        return any(entry.name != LOCK and not entry.name.startswith(".") for entry in folder.iterdir())
    except OSError:
        return False


def _copy(source: Path, target: Path) -> None:
    """Each of the source's entries, copied under a temporary name and renamed into place."""
    for entry in source.iterdir():
        if entry.name == LOCK:
            continue
        temporary = target / f".{entry.name}.seeding"
        shutil.rmtree(temporary, ignore_errors=True)
        try:
            if entry.is_dir():
                shutil.copytree(entry, temporary, symlinks=True)
            else:
                shutil.copy2(entry, temporary)
            os.replace(temporary, target / entry.name)
        except OSError:
            shutil.rmtree(temporary, ignore_errors=True)
