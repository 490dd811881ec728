#!/usr/bin/env bash
# The GPU calls of 2026-11-26 (second session) that gathered the triage evidence only a machine with another
# Vulkan driver than lavapipe gives. From the root of a tree of this branch on the lent H100:
#
#   bash bench/gpu/zink_system_evidence.sh nv26|nv25 OUT_DIR
#
# nv26  .mesa/ holds sid's Mesa 26.2.6 closure (bench/gpu/run.sh's header):
#       - NVIDIA's Vulkan features and limits that zink's choices depend on (bench/gpu/vk_features.py);
#       - the three wrong-value multi-draw findings of the zink-system exploration (ids in
#         bench/gpu/zink_system_multidraw_findings.txt) on zink-system, system-gl and system-vk (the harness's layer,
#         each multi-draw path), each alone in a fresh child, twice;
#       - `harness blame` of each with the setups this machine has (llvmpipe, zink over NVIDIA),
#         saved for `blame --evidence` on the CPU machine.
# poison  (nv26's .mesa/) whether the findings above follow a hang on the same GPU: the three ids
#       on zink-system, system-gl and system-vk in fresh processes; then the parameter-buffer hang
#       (triage/mesa-22.3.6/st-indirect-draw-parameter-buffer) on zink-system; then the three ids
#       again on each, in fresh processes; then once more after 60 s.
# poison2 (nv26's .mesa/) whether what persists after the hang is a shader cache: each phase
#       with its own Mesa (the harness's cache home, XDG_CACHE_HOME: --mesa sets MESA_SHADER_CACHE_DIR
#       under it) and NVIDIA (__GL_SHADER_DISK_CACHE_PATH, a folder the driver needs made) caches: the three ids (fresh caches A), the hang (caches A), then the three ids with
#       caches A, with both fresh, with Mesa's A and NVIDIA's fresh, with Mesa's fresh and NVIDIA's A.
# flag  (nv25's .mesa/) the harness's flag after a hang (harness/run/gpu_hangs.py): the three ids,
#       the parameter-buffer hang, the three ids again, each through bench/gpu/run_ids.py
#       (core.run_case), printing each message's flag line.
# separable (nv26's .mesa/) the TCS-less separable tess cases on NVIDIA's GL, the harness's layer
#       on NVIDIA's Vulkan, and zink 26.2.6 over it (each target in a fresh process, ungated).
# gated  (nv26's .mesa/) every family gated as docs/gpu.md's CI-style runs: system-gl and system-vk on
#       baselines/nvidia-h100-580.159.04.csv (the layer now in the dynamic vertex-input path there),
#       zink-system on baselines/nvidia-h100-580.159.04-zink-mesa-26.2.6-1.csv.
# nv25  .mesa/ holds trixie's Mesa 25.0.7 closure less mesa-vulkan-drivers:
#       - the three findings on zink-system first (a control: no hang yet on this machine);
#       - `harness blame` of zink-seq-delete-crash's case, 5 runs a setup, saved likewise;
#       - bench/shared_programs.py over NVIDIA (zink-program-from-destroyed-context).
set -uo pipefail
part=$1
o=$2
mkdir -p "$o"
source "$(dirname "$0")/env.sh"        # PYTHONUNBUFFERED, and the clock: deadline, left, step
ids=bench/gpu/zink_system_multidraw_findings.txt

step "machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
use_zink_system || exit 1
step "targets"
timeout 120 python3 -m harness targets zink-system system-vk system-gl llvmpipe

case $part in
nv26)
    step "NVIDIA's Vulkan features (vk_features.py)"
    timeout 60 python3 -m harness exec system-vk -- python3 bench/gpu/vk_features.py > "$o/vk-features-nvidia.json"
    echo "exit $?"; cat "$o/vk-features-nvidia.json"
    for t in zink-system system-gl system-vk:native system-vk:split; do
        for run in 1 2; do
            step "the three findings on $t, run $run"
            timeout 120 python3 bench/gpu/run_ids.py --target "${t%%:*}" --vk-path "$( [ "${t#*:}" != "$t" ] && echo "${t#*:}" || echo auto)" \
                --case-timeout 20 --ids-file $ids --json "$o/ids-${t/:/-}-$run.json" 2>&1 | cut -c1-600 | head -n 40
        done
    done
    step "blame, the setups this machine has, saved"
    timeout $((deadline - SECONDS - 10)) python3 -m harness blame $(grep -v '^#' $ids) --mesa "$HARNESS_MESA" \
        --setups llvmpipe,zink/other --repeats 2 --save-evidence "$o/blame-nv26.json"
    echo "blame exit $?"
    ;;
poison)
    hang=draw_params/explore/v1-k0as12.ak1as36.0.az.0.f.36z.k1as31.n.aa17.2.6.0.1zz.0.f.0z.k1as21.n.aa0.1.9.0.0zz.0.f.0zz.s15.f.460z
    three() {
        for t in zink-system system-gl system-vk; do
            step "$1: the three findings on $t (a fresh process)"
            timeout 90 python3 bench/gpu/run_ids.py --target $t --case-timeout 20 --ids-file $ids \
                --json "$o/$1-$t.json" 2>&1 | cut -c1-400 | head -n 12
        done
        nvidia-smi --query-gpu=utilization.gpu,pstate,clocks.sm,memory.used --format=csv,noheader
    }
    three before
    step "the parameter-buffer hang on zink-system"
    timeout 60 python3 bench/gpu/run_ids.py --target zink-system --case-timeout 20 $hang 2>&1 | cut -c1-300 | head -n 5
    three after
    sleep 60
    three later
    ;;
poison2)
    hang=draw_params/explore/v1-k0as12.ak1as36.0.az.0.f.36z.k1as31.n.aa17.2.6.0.1zz.0.f.0z.k1as21.n.aa0.1.9.0.0zz.0.f.0zz.s15.f.460z
    with() {   # with MESA_CACHE NV_CACHE LABEL: the three ids on zink-system
        step "$3: the three findings on zink-system, Mesa cache $1, NVIDIA cache $2"
        mkdir -p /tmp/c/home-$1 /tmp/c/nv-$2
        XDG_CACHE_HOME=/tmp/c/home-$1 __GL_SHADER_DISK_CACHE_PATH=/tmp/c/nv-$2 timeout 90 \
            python3 bench/gpu/run_ids.py --target zink-system --case-timeout 20 --ids-file $ids \
            --json "$o/$3.json" 2>&1 | cut -c1-300 | grep '^draw_params'
        du -s /tmp/c/* 2>/dev/null
    }
    rm -rf /tmp/c; mkdir -p /tmp/c
    with A A before
    step "the parameter-buffer hang on zink-system, caches A"
    XDG_CACHE_HOME=/tmp/c/home-A __GL_SHADER_DISK_CACHE_PATH=/tmp/c/nv-A timeout 60 \
        python3 bench/gpu/run_ids.py --target zink-system --case-timeout 20 $hang 2>&1 | cut -c1-300 | grep '^draw_params'
    with A A after-AA
    with B B after-BB
    with A C after-AC
    with D A after-DA
    ;;
flag)
    hang=draw_params/explore/v1-k0as12.ak1as36.0.az.0.f.36z.k1as31.n.aa17.2.6.0.1zz.0.f.0z.k1as21.n.aa0.1.9.0.0zz.0.f.0zz.s15.f.460z
    for phase in before hang after; do
        step "$phase"
        if [ $phase = hang ]; then set -- $hang; else set -- --ids-file $ids; fi
        timeout 90 python3 bench/gpu/run_ids.py --target zink-system --case-timeout 20 "$@" \
            --json "$o/$phase.json" 2>&1 | cut -c1-300 | grep '^draw_params'
        python3 -c "import json,sys; [print(' ', r['id'][-30:], r['status'], (r['message'].splitlines() or [''])[-1][:260]) for r in json.load(open(sys.argv[1]))['records']]" "$o/$phase.json"
    done
    cat ~/.cache/gl-layer-harness/gpu-hangs.jsonl
    ;;
separable)
    for t in system-gl system-vk zink-system; do
        step "tess -k separable on $t (the TCS-less separable cases, the separable type cases among them)"
        timeout 150 python3 -m pytest -q -p no:cacheprovider tests/tess -k separable --target $t --baseline none \
            --case-timeout 20 -n 0 --results-dir "$o/sep-$t" 2>&1 | tail -n 4
        python3 -c "import json,sys; [print(' ', r['id'], r['status'], r['message'].splitlines()[0][:200] if r['message'] else '') for r in json.load(open(sys.argv[1]))['results'] if r['status'] != 'pass']" "$o/sep-$t/results.json" | head -n 8
    done
    ;;
gated)
    step "every family on system-gl and system-vk, gated"
    timeout 240 python3 -m pytest -q -p no:cacheprovider -n auto tests/tess tests/draw_params tests/varyings \
        --target system-gl --target system-vk --baseline baselines/nvidia-h100-580.159.04.csv \
        --results-dir "$o/gated-nvidia" 2>&1 | tail -n 12
    echo "pytest exit ${PIPESTATUS[0]}"
    step "every family on zink-system, gated"
    timeout 240 python3 -m pytest -q -p no:cacheprovider -n auto tests/tess tests/draw_params tests/varyings \
        --target zink-system --case-timeout 20 --baseline baselines/nvidia-h100-580.159.04-zink-mesa-26.2.6-1.csv \
        --results-dir "$o/gated-zink" 2>&1 | tail -n 12
    echo "pytest exit ${PIPESTATUS[0]}"
    ;;
nv25)
    step "control on a fresh machine: the three findings on zink-system (Mesa 25.0.7)"
    timeout 90 python3 bench/gpu/run_ids.py --target zink-system --case-timeout 20 --ids-file $ids 2>&1 \
        | cut -c1-300 | grep '^draw_params'
    step "blame zink-seq-delete-crash's case, 5 runs a setup, saved"
    timeout 300 python3 -m harness blame tess/seq/quads/fractional_odd/shared-tes-x3/delete2 --mesa "$HARNESS_MESA" \
        --setups llvmpipe,zink/other --repeats 5 --save-evidence "$o/blame-nv25.json"
    echo "blame exit $?"
    step "programs shared across contexts, zink over NVIDIA"
    timeout $((deadline - SECONDS - 10)) python3 bench/shared_programs.py --mesa "$HARNESS_MESA" --target zink-system
    echo "exit $?"
    ;;
esac
step end
