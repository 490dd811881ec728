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
#                 unpacked into /tmp/mesa, never into /; only libraries the machine lacks are used.
set -uo pipefail
out=${1:-results/gpu}
parts=${2:-nvidia,zink}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

if ! ldconfig -p | grep -q 'libvulkan.so.1 ' && ls .gl/lib*.deb >/dev/null 2>&1; then
    for deb in .gl/lib*.deb; do dpkg -x "$deb" /; done
    ldconfig
fi
if ! command -v glslangValidator >/dev/null && ls .gl/glslang-tools_*.deb >/dev/null 2>&1; then
    dpkg -x .gl/glslang-tools_*.deb /tmp/glslang
    export PATH=/tmp/glslang/usr/bin:$PATH
fi
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site:$PWD
fi
nv=/usr/local/nvidia/share
if [ -f $nv/vulkan/icd.d/nvidia_icd.json ]; then
    export VK_DRIVER_FILES=$nv/vulkan/icd.d/nvidia_icd.json
fi
nv_egl=$nv/glvnd/egl_vendor.d/10_nvidia.json

[[ $parts == *nvidia* ]] && {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
    nproc
    [ -f $nv_egl ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
    python3 -m harness targets
    python3 bench/bench.py --no-piglit --drivers system-gl,system-vk --families tess,draw_params,varyings \
        --memory-targets system-gl,system-vk --results "$out"
} 2>&1 | tee "$out/bench.txt"

# zink over the machine's Vulkan: Mesa's EGL vendor and DRI drivers from /tmp/mesa. Libraries the
# machine already has stay the machine's own (older copies ahead of them can break its driver).
if [[ $parts == *zink* ]] && ls .mesa/*.deb >/dev/null 2>&1; then
    for deb in .mesa/*.deb; do dpkg -x "$deb" /tmp/mesa; done
    mkdir -p /tmp/mesa/only
    for lib in /tmp/mesa/usr/lib/x86_64-linux-gnu/lib*.so.*; do
        name=$(basename "$lib")
        case $name in libEGL_mesa*|libglapi*|libgbm*) ;; *) ldconfig -p | grep -q "^\s*$name " && continue ;; esac
        ln -sf "$lib" /tmp/mesa/only/
    done
    sed "s|libEGL_mesa.so.0|/tmp/mesa/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0|" \
        /tmp/mesa/usr/share/glvnd/egl_vendor.d/50_mesa.json > /tmp/mesa/50_mesa.json
    {
        export __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/mesa/50_mesa.json
        export LD_LIBRARY_PATH=/tmp/mesa/only LIBGL_DRIVERS_PATH=/tmp/mesa/usr/lib/x86_64-linux-gnu/dri
        echo "== zink-system: Mesa $(dpkg-deb -f .mesa/libgl1-mesa-dri_*.deb Version)"
        if python3 -m harness targets zink-system; then
            python3 bench/bench.py --no-piglit --drivers zink-system --families tess,draw_params,varyings \
                --memory-targets '' --results "$out"
        else
            echo "zink-system did not start; the Vulkan loader's and Mesa's own words:"
            VK_LOADER_DEBUG=error,warn MESA_DEBUG=1 ZINK_DEBUG=validation EGL_LOG_LEVEL=debug \
                LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink EGL_PLATFORM=surfaceless \
                python3 -c 'from harness.backends.gl.runner import GLBackend; print(GLBackend().info()["renderer"])' 2>&1 | tail -40
        fi
    } 2>&1 | tee "$out/zink.txt"
fi
