"""Fetch one of Debian's packaged Mesas, with its whole runtime, into mesa/<version>/ (bin/fetch-mesa).

WHICH is a suite (bookworm, bookworm-backports, trixie, trixie-backports, sid) or a package
version (26.2.6-1, or just 26.2.6 when one suite holds it). Apt resolves the closure: the Mesa
packages installed against an empty dpkg status, so every library they need comes along, the C
library included; apt-get downloads them and dpkg -x unpacks them. Nothing is installed and the
system's apt state is untouched: each suite has a private apt folder under mesa/.apt/.

The C library's own packages (source glibc) are unpacked apart, into <version>/libc/: a Mesa
built for a newer C library than the host's runs under that loader (harness/mesa/runtime.py), one
built for an older or the same runs under the host's, and then its libc must not be on any
library path. Safe to run again: a complete folder (its .fetched stamp) is kept.

Exit 0 and the folder's path on stdout; exit 1 and one line when the registry lacks it.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

from harness.base.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
MIRROR = os.environ.get("MESA_DEBIAN_MIRROR", "http://deb.debian.org/debian")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
# Each suite with the suites apt needs beside it to resolve a closure (a backports suite holds
# only what it backports).
SUITES = {
    "bookworm": ("bookworm", "bookworm-updates"),
    "bookworm-backports": ("bookworm-backports", "bookworm", "bookworm-updates"),
    "trixie": ("trixie", "trixie-updates"),
    "trixie-backports": ("trixie-backports", "trixie", "trixie-updates"),
    "sid": ("sid",),
}
# What a target loads of Mesa; apt adds mesa-libgallium, libglapi-mesa, libdrm... by dependency.
MESA_PACKAGES = ("libgl1-mesa-dri", "libegl-mesa0", "libgbm1", "mesa-vulkan-drivers")
# Not Mesa's, but what every Mesa process loads first: kept with Mesa's era (the ICD loader
# is what enumerates lavapipe; glvnd's EGL dispatches to libEGL_mesa).
LOADER_PACKAGES = ("libegl1", "libvulkan1")
LIBC_SOURCE = "glibc"


class FetchError(UsageError):
    """One line for the user."""


class Apt:
    """apt-get and apt-cache on a private state for one suite (and its companions)."""

    def __init__(self, suite: str, state: Path, deb_src: bool = False):
        self.suite, self.state = suite, state / (suite + ("-src" if deb_src else ""))
        (self.state / "lists" / "partial").mkdir(parents=True, exist_ok=True)
        (self.state / "archives" / "partial").mkdir(parents=True, exist_ok=True)
        (self.state / "status").touch()           # empty: apt resolves the whole closure
        components = "main"
        (self.state / "sources.list").write_text("".join(
            f"{kind} [signed-by={KEYRING}] {MIRROR} {s} {components}\n" for s in SUITES[suite]
            for kind in (("deb", "deb-src") if deb_src else ("deb",))))

    def options(self) -> list[str]:
        s = self.state
        return ["-q", "-o", f"Dir::Etc::SourceList={s / 'sources.list'}", "-o", "Dir::Etc::SourceParts=/dev/null",
                "-o", f"Dir::State::Lists={s / 'lists'}", "-o", f"Dir::State::status={s / 'status'}",
                "-o", f"Dir::Cache={s}", "-o", f"Dir::Cache::archives={s / 'archives'}",
                "-o", "Dir::Etc::Preferences=/dev/null", "-o", "Dir::Etc::PreferencesParts=/dev/null",
                "-o", "APT::Sandbox::User=root", "-o", "APT::Install-Recommends=false",
                # a backports suite is NotAutomatic: its versions win only when asked for by version
                "-o", "APT::Default-Release=" + SUITES[self.suite][0]]

    def run(self, tool: str, *args: str) -> str:
        proc = subprocess.run([tool, *self.options(), *args], capture_output=True, text=True)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise FetchError(f"{tool} {' '.join(args[:2])} ({self.suite}): {last}")
        return proc.stdout

    def update(self) -> None:
        self.run("apt-get", "update")

    def mesa_version(self) -> str:
        """The Mesa version this suite holds (its own, not a companion's)."""
        for line in self.run("apt-cache", "madison", MESA_PACKAGES[0]).splitlines():
            version, source = (f.strip() for f in line.split("|")[1:3])
            if f" {SUITES[self.suite][0]}/" in f" {source}":
                return version
        raise FetchError(f"{self.suite} holds no {MESA_PACKAGES[0]}")

    def source_versions(self, package: str) -> list[str]:
        """The versions of a source package this suite (and its companions) hold."""
        out = self.run("apt-cache", "showsrc", "--only-source", package)
        return re.findall(r"^Version: (\S+)$", out, re.M)

    def download_closure(self, version: str) -> list[Path]:
        """The .deb files of the Mesa packages at VERSION and everything they depend on."""
        for deb in (self.state / "archives").glob("*.deb"):
            deb.unlink()                          # only this closure's files below
        wanted = [f"{p}={version}" for p in MESA_PACKAGES] + list(LOADER_PACKAGES)
        self.run("apt-get", "install", "--download-only", "-y", *wanted)
        return sorted((self.state / "archives").glob("*.deb"))


def resolve(which: str, state: Path) -> tuple[Apt, str]:
    """The suite's apt and the full Debian version WHICH names."""
    if which in SUITES:
        apt = Apt(which, state)
        apt.update()
        return apt, apt.mesa_version()
    for suite in SUITES:
        apt = Apt(suite, state)
        apt.update()
        version = apt.mesa_version()
        if names(which, version):
            return apt, version
    raise FetchError(f"no suite of {MIRROR} holds Mesa {which} (suites asked: {', '.join(SUITES)}); "
                     f"a version sid dropped is gone from the registry")


def names(which: str, version: str) -> bool:
    """Whether WHICH names this package version: the version itself, or its upstream part
    (26.2.6 for 26.2.6-1)."""
    return which == version or version.startswith(which + "-")


def unpack(debs: list[Path], dest: Path) -> None:
    """dpkg -x each package into dest, the C library's into dest/libc."""
    for deb in debs:
        source = subprocess.run(["dpkg-deb", "-f", str(deb), "Source"], capture_output=True,
                                text=True, check=True).stdout.split(" ")[0].strip()
        subprocess.run(["dpkg", "-x", str(deb), str(dest / "libc" if source == LIBC_SOURCE else dest)], check=True)


def folder_name(version: str) -> str:
    return version.split(":")[-1]                 # an epoch is no part of a folder's name


def fetch(which: str, mesa_dir: Path) -> Path:
    state = mesa_dir / ".apt"
    for done in mesa_dir.glob("*/.fetched"):      # a version already here (a suite may have moved on)
        if which not in SUITES and names(which, done.read_text().split()[0]):
            return done.parent
    apt, version = resolve(which, state)
    dest = mesa_dir / folder_name(version)
    if (dest / ".fetched").exists():
        return dest
    print(f"fetch-mesa: Mesa {version} from {MIRROR} {apt.suite}, with its runtime", file=sys.stderr)
    debs = apt.download_closure(version)

    def fill(partial: Path) -> None:
        unpack(debs, partial)
        (partial / ".packages").write_text("".join(f"{d.name}\n" for d in debs))

    return publish(dest, fill, f"{version} {apt.suite}")


def publish(dest: Path, fill: Callable[[Path], None], stamp: str) -> Path:
    """Make DEST whole or not at all: `fill` a fresh DEST.partial, stamp it `.fetched` ('<version>
    <suite>': what it is and where it came from, so a later call finds it without the
    registry), then put it in DEST's place."""
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    fill(partial)
    (partial / ".fetched").write_text(stamp + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    partial.rename(dest)
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bin/fetch-mesa", description=__doc__.split("\n\n")[0])
    parser.add_argument("which", help=f"a suite ({', '.join(SUITES)}) or a Mesa package version")
    parser.add_argument("--mesa-dir", default=str(ROOT / "mesa"), help="where the folders go (default: mesa/)")
    args = parser.parse_args(argv)
    try:
        print(fetch(args.which, Path(args.mesa_dir)))
    except FetchError as exc:
        print(f"fetch-mesa: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
