"""Fetch one suite's Khronos validation layer (bin/fetch-validation-layer), for
`harness blame --validation-layer-path`: a layer as new as the Mesa it watches.

Debian 12's layer (1.3.239) cannot read the SPIR-V of a 26.x zink ("Invalid capability operand");
sid's can. apt downloads the suite's `vulkan-validationlayers` on a private state
(harness/mesa/fetch.py's Apt), dpkg -x unpacks it, and the layer's JSON is rewritten with the
library's absolute path: the package's JSON names the bare `libVkLayer_khronos_validation.so`,
which the Vulkan loader would dlopen from the library path, i.e. the system's older layer.

The layer is built against its suite's C and C++ libraries (sid's: GLIBC_2.38, GLIBCXX_3.4.32), so
it loads only in a process that has them: a fetched Mesa of that suite (bin/fetch-mesa sid) runs
under its own loader and libraries; a Debian 12 process does not load it. Nothing is installed.

Exit 0 and the folder to pass on stdout; exit 1 and one line when the registry lacks it.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness.mesa.fetch import ROOT, SUITES, Apt, FetchError, publish

PACKAGE = "vulkan-validationlayers"
JSON = "usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"
LIBRARY = "usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so"


def layer_json(package_json: dict[str, Any], library: Path) -> dict[str, Any]:
    """The package's layer JSON with the library named by its absolute path."""
    layer = dict(package_json["layer"], library_path=str(library))
    return dict(package_json, layer=layer)


def fetch(suite: str, dest_dir: Path) -> Path:
    """dest_dir/<version>/: the layer's JSON (what --validation-layer-path takes) and root/, the package."""
    apt = Apt(suite, dest_dir / ".apt")
    apt.update()
    apt.run("apt-get", "install", "--download-only", "-y", PACKAGE)
    debs = sorted((apt.state / "archives").glob(f"{PACKAGE}_*.deb"))
    if not debs:
        raise FetchError(f"{suite} downloaded no {PACKAGE}")
    version = debs[-1].name.split("_")[1]
    dest = dest_dir / version
    if (dest / ".fetched").exists():
        return dest

    def fill(partial: Path) -> None:
        (partial / "root").mkdir()
        subprocess.run(["dpkg", "-x", str(debs[-1]), str(partial / "root")], check=True)
        package_json = json.loads((partial / "root" / JSON).read_text())
        library = (dest / "root" / LIBRARY).resolve()
        (partial / Path(JSON).name).write_text(json.dumps(layer_json(package_json, library), indent=2) + "\n")

    return publish(dest, fill, f"{version} {suite}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bin/fetch-validation-layer", description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", nargs="?", default="sid", help=f"one of {', '.join(SUITES)} (default: sid)")
    parser.add_argument("--dest", default=str(ROOT / "mesa" / ".validation-layer"),
                        help="where the folders go (default: mesa/.validation-layer/)")
    args = parser.parse_args(argv)
    if args.suite not in SUITES:
        print(f"fetch-validation-layer: no suite {args.suite!r} (one of {', '.join(SUITES)})", file=sys.stderr)
        return 2
    try:
        print(fetch(args.suite, Path(args.dest).resolve()))
    except FetchError as exc:
        print(f"fetch-validation-layer: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
