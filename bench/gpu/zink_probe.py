#!/usr/bin/env python3
"""Why zink cannot use the machine's Vulkan driver: creates a Vulkan instance in a fresh process
after loading, step by step, what zink's process has loaded (Mesa's libglapi, Mesa's EGL with
its DRI driver), and prints at which step the driver stops being found.

    python3 bench/gpu/zink_probe.py        (with bench/gpu/run.sh's Mesa environment; with
                                            $HARNESS_MESA set, zink-system's --mesa environment)
    python3 bench/gpu/zink_probe.py --each-library /tmp/mesa/only

The second form puts each library of the folder alone ahead of LD_LIBRARY_PATH and says which
ones stop the machine's Vulkan driver from making an instance.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from harness.mesa import runtime as mesa
from harness.executor import targets  # noqa: E402

STEPS = {   # what a step loads before vkCreateInstance; the second field: with zink's environment
    "nothing, plain environment": ("", False),
    "nothing, zink-system's environment": ("", True),
    # Mesa 25 has no libglapi (it is inside libgallium): the step then says so and goes on.
    "Mesa's libglapi": ("try:\n    ctypes.CDLL('libglapi.so.0', mode=ctypes.RTLD_GLOBAL)\n"
                        "except OSError as exc:\n    print('libglapi:', exc)", True),
    "Mesa's DRI driver (zink inside)": (
        "import os\n"
        "ctypes.CDLL(os.environ['LIBGL_DRIVERS_PATH'] + '/zink_dri.so', mode=ctypes.RTLD_GLOBAL)", True),
    "Mesa's EGL, initialised (zink creates its own instance there)": (
        "from harness.backends.gl.context import open_contexts, select_platform\n"
        "select_platform('egl')\n"
        "try:\n    open_contexts('egl')\nexcept Exception as exc:\n    print('EGL:', exc)", True),
}
INSTANCE = """
import vulkan as vk
info = vk.VkInstanceCreateInfo(pApplicationInfo=vk.VkApplicationInfo(apiVersion=vk.VK_MAKE_VERSION(1, 1, 0)))
try:
    instance = vk.vkCreateInstance(info, None)
    names = [vk.vkGetPhysicalDeviceProperties(p).deviceName for p in vk.vkEnumeratePhysicalDevices(instance)]
    print('vkCreateInstance: ok,', names)
except vk.VkError as exc:
    print('vkCreateInstance:', type(exc).__name__)
"""


def instance(env: dict, before: str = "") -> list[str]:
    """What a fresh process prints making a Vulkan instance after running `before`."""
    program = "import ctypes\n" + before + "\n" + INSTANCE
    out = subprocess.run([sys.executable, "-c", program], env={**env, "VK_LOADER_DEBUG": "error"},
                         capture_output=True, text=True, timeout=120)
    return (out.stdout + out.stderr).strip().splitlines()


def each_library(folder: Path) -> int:
    base = os.environ.get("LD_LIBRARY_PATH", "").split(":")
    base = [p for p in base if p and Path(p).resolve() != folder.resolve()]
    with tempfile.TemporaryDirectory() as alone:
        for lib in sorted(folder.iterdir()):
            link = Path(alone) / lib.name
            link.symlink_to(lib.resolve())
            lines = instance({**os.environ, "LD_LIBRARY_PATH": ":".join([alone] + base)})
            link.unlink()
            print(f"{lib.name:40} {lines[-1] if lines else '?'}")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--each-library"]:
        return each_library(Path(sys.argv[2]))
    zink = targets.get("zink-system")
    build = mesa.locate(os.environ["HARNESS_MESA"]) if os.environ.get("HARNESS_MESA") else None
    for step, (code, zink_env) in STEPS.items():
        lines = instance(zink.environment(os.environ, build) if zink_env else dict(os.environ), code)
        print(f"after loading {step}:")
        print("".join(f"    {line}\n" for line in lines[-6:]), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
