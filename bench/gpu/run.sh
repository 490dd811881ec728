#!/usr/bin/env bash
# GPU validation: every family on the machine's GL (system-gl) and Vulkan (system-vk, through the
# harness's layer), and Mesa's zink over the machine's Vulkan (zink-system), each with -n auto
# and -n 0, through bench/bench.py (cases/s, verdicts, time outside the driver, the floor).
#
#   bash bench/gpu/run.sh [RESULTS_DIR [PARTS]]   (from the repository root; default results/gpu,
#                                                  PARTS nvidia,zink: the machine's drivers, then zink)
#
# Made for the lent NVIDIA machine (see README, "GPU validation"), which lacks the GL/Vulkan
# loaders, glslang, PyOpenGL and vulkan. What it finds in the working tree is used:
#   .gl/*.deb    Debian's loaders (libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
#                 unpacked into / when the machine has none, and glslang-tools into /tmp/glslang;
#   .whl/*.whl   PyOpenGL, vulkan, cffi, pycparser for its Python, installed into /tmp/site;
#   .mesa/*.deb  Debian's Mesa (libgl1-mesa-dri, libegl-mesa0 and what they link) for zink-system,
#                 unpacked into /tmp/mesa, never into /; only libraries the machine lacks are used;
#   .vvl/*.deb   Debian's vulkan-validationlayers, unpacked into /tmp/vvl, for --vk-validation.
set -uo pipefail
out=${1:-results/gpu}
parts=${2:-nvidia,zink}
mkdir -p "$out"
source "$(dirname "$0")/env.sh"

[[ $parts == *nvidia* ]] && {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
    nproc
    [ -n "$nv_egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
    python3 -m harness targets
    python3 bench/bench.py --no-piglit --drivers system-gl,system-vk --families tess,draw_params,varyings \
        --memory-targets system-gl,system-vk --results "$out"
} 2>&1 | tee "$out/bench.txt"

# zink over the machine's Vulkan, with Mesa's EGL vendor and DRI drivers from .mesa (env.sh).
if [[ $parts == *zink* ]] && ls .mesa/*.deb >/dev/null 2>&1; then
    {
        use_mesa
        echo "== zink-system: Mesa $(dpkg-deb -f .mesa/libgl1-mesa-dri_*.deb Version)"
        if python3 -m harness targets zink-system; then
            python3 bench/bench.py --no-piglit --drivers zink-system --families tess,draw_params,varyings \
                --memory-targets '' --results "$out"
        else
            echo "zink-system did not start; where the Vulkan driver stops being found:"
            python3 bench/gpu/zink_probe.py
        fi
    } 2>&1 | tee "$out/zink.txt"
fi
