#!/usr/bin/env bash
# What the GPU calls of 2026-11-26 ran: the varyings exploration on NVIDIA's GL, the zink-over-NVIDIA
# hangs of the draw-parameters exploration, NVIDIA's GL batched against isolated; results in
# bench/results/2026-11-26-gpu.md. From the root of a tree of this branch on the lent H100:
#
#   bash bench/gpu/explorations.sh zink|nvidia|followup OUT_DIR
#
# zink     Mesa 26.2.6's zink over NVIDIA's Vulkan (.mesa/: bin/fetch-mesa sid's closure, as
#          bench/gpu/run.sh's header says): every draw_params case ungated, then every family gated
#          on baselines/nvidia-h100-580.159.04-zink-mesa-26.2.6-1.csv (whether it lacked the first-count-zero line);
#          `harness explore --family draw_params --seed 4242 --budget 150 --target zink-system`
#          (the exploration that met the hangs), and bench/gpu/hang_triage.py on its hanging cases.
# nvidia   NVIDIA's GL: the limits it reports (bench/gpu/gl_limits.py), `harness explore --family
#          varyings --seed 4242 --budget 120 --target system-gl` (NVIDIA's GS link error) and the variants
#          of its findings (bench/gpu/varyings_variants.py, run by bench/gpu/run_ids.py); the hanging
#          ids of the zink part ($HANG_IDS, a file) on system-vk and system-gl; then bench/bench.py's
#          batched and isolated rows on system-gl (what batches save on a GPU's driver).
# Each step is bounded (timeout) so that the whole part ends inside the device's 10 minutes.
set -uo pipefail
part=$1
o=$2
mkdir -p "$o"
source "$(dirname "$0")/env.sh"        # PYTHONUNBUFFERED, and the clock: deadline, left, step

step "machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
command -v cc gcc cuda-gdb py-spy
python3 -c 'import hypothesis, sys; print("python", sys.version.split()[0], "hypothesis", hypothesis.__version__)'

case $part in
zink*|followup)
    use_zink_system || exit 1
    step "targets zink-system"
    timeout 120 python3 -m harness targets zink-system
    ;;
nvidia*|bench|vkcount|varyfind|gatednv)
    [ -n "$nv_egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
    step "targets"
    timeout 120 python3 -m harness targets system-gl
    timeout 120 python3 -m harness targets system-vk
    ;;
esac

# The exploration that met the hangs (a budget in seconds: "150" alone is 150
# cases), then, if it met none, the same with a context per case (--batch 1, the command as it
# ran before batches); then bench/gpu/hang_triage.py on the hanging cases found.
explore_and_triage() {
    local folders=() batch
    for batch in 64 1; do
        step "explore draw_params on zink-system, seed 4242, budget ${EXPLORE_BUDGET:-150s}, batch $batch"
        timeout $(( $(left) - 200 > 260 ? 260 : $(left) - 200 )) python3 -m harness explore --family draw_params \
            --seed 4242 --budget "${EXPLORE_BUDGET:-150s}" --batch $batch --target zink-system \
            --results-dir "$o/t3-explore-b$batch"
        echo "explore exit $?"
        timeout 60 python3 -m harness explore summary "$o/t3-explore-b$batch"
        folders+=(--from "$o/t3-explore-b$batch")
        grep -rqs '"timeout"' "$o/t3-explore-b$batch" && break
        (( $(left) > 400 )) || break
    done
    step "hang triage"
    timeout $(( $(left) - 15 )) python3 bench/gpu/hang_triage.py --target zink-system "${folders[@]}" \
        --max 2 --debug sync,noreorder,nobgc,noshobj --out "$o/t3-triage"
}

case $part in
zink)
    step "zink-system limits"
    timeout 60 python3 -m harness exec zink-system -- python3 bench/gpu/gl_limits.py
    step "draw_params on zink-system, ungated"
    timeout 180 python3 -m pytest -q -p no:cacheprovider tests/draw_params --target zink-system --case-timeout 20 \
        -n 8 --baseline none --results-dir "$o/t2-draw_params" 2>&1 | tail -n 25
    echo "failures.csv:"; cat "$o/t2-draw_params/failures.csv"
    step "every family on zink-system, gated"
    timeout 300 python3 -m pytest -q -p no:cacheprovider tests/tess tests/draw_params tests/varyings \
        --target zink-system --case-timeout 20 -n auto \
        --baseline baselines/nvidia-h100-580.159.04-zink-mesa-26.2.6-1.csv --results-dir "$o/t2-gated" 2>&1 | tail -n 25
    echo "pytest exit ${PIPESTATUS[0]}"
    explore_and_triage
    ;;
zinkexplore)
    explore_and_triage
    ;;
bench)
    step "bench, system-gl, batched and isolated"
    timeout $(( $(left) - 10 )) python3 bench/bench.py --no-piglit --drivers system-gl \
        --families tess,draw_params,varyings --memory-targets '' --batch "${BATCH:-64}" --results "$o/t4-bench"
    echo "bench exit $?"
    ;;
nvidia|nvidia1)
    step "system-gl limits"
    timeout 60 python3 bench/gpu/gl_limits.py
    step "explore varyings on system-gl, seed 4242, budget 120s"
    timeout 200 python3 -m harness explore --family varyings --seed 4242 --budget 120s --target system-gl \
        --results-dir "$o/t1-explore"
    echo "explore exit $?"
    timeout 60 python3 -m harness explore summary "$o/t1-explore"
    step "variants of the varyings findings, and the grid"
    python3 bench/gpu/varyings_variants.py --findings "$o/t1-explore/varyings/findings.json" --grid \
        ${VARYINGS_IDS:-} > "$o/t1-variants.txt"
    cat "$o/t1-variants.txt"
    timeout 240 python3 bench/gpu/run_ids.py --target system-gl --ids-file "$o/t1-variants.txt" \
        --json "$o/t1-variants.json" 2>&1 | cut -c1-400 | grep -v '^    \[' | head -n 400
    if [ -s "${HANG_IDS:-/nonexistent}" ]; then
        for t in system-vk system-gl; do
            step "the zink hangs' cases on $t"
            timeout 120 python3 bench/gpu/run_ids.py --target $t --ids-file "$HANG_IDS" --case-timeout 20 \
                --json "$o/t3-hangs-$t.json"
        done
    fi
    [ $part = nvidia1 ] && { step end; exit 0; }
    step "bench, system-gl, batched and isolated"
    timeout $(( $(left) - 10 )) python3 bench/bench.py --no-piglit --drivers system-gl \
        --families tess,draw_params,varyings --memory-targets '' --batch 64 --results "$o/t4-bench"
    echo "bench exit $?"
    ;;
gatednv)
    # the kept varyings case on NVIDIA's Vulkan (the harness's layer) and GL alone, then every family
    # gated on baselines/nvidia-h100-580.159.04.csv on both, as docs/gpu.md's CI-style run
    step "the kept varyings case on system-vk and system-gl"
    for t in system-vk system-gl; do
        timeout 60 python3 bench/gpu/run_ids.py --target $t --ids-file "$KEPT_IDS" 2>&1 | head -n 8 | cut -c1-300
    done
    step "every family on system-gl and system-vk, gated on baselines/nvidia-h100-580.159.04.csv"
    timeout $(( $(left) - 10 )) python3 -m pytest -q -p no:cacheprovider -n auto tests/tess tests/draw_params \
        tests/varyings --target system-gl --target system-vk --baseline baselines/nvidia-h100-580.159.04.csv \
        --results-dir "$o/gated-nvidia" 2>&1 | tail -n 12
    echo "pytest exit ${PIPESTATUS[0]}"
    ;;
zinkgated)
    step "every family on zink-system, gated on baselines/nvidia-h100-580.159.04-zink-mesa-26.2.6-1.csv"
    timeout $(( $(left) - 10 )) python3 -m pytest -q -p no:cacheprovider -n auto tests/tess tests/draw_params \
        tests/varyings --target zink-system --case-timeout 20 \
        --baseline baselines/nvidia-h100-580.159.04-zink-mesa-26.2.6-1.csv --results-dir "$o/gated-zink" 2>&1 | tail -n 12
    echo "pytest exit ${PIPESTATUS[0]}"
    ;;
varyfind)
    # The varyings exploration's finding: seed 4242's draws (the same on any target for one Hypothesis version: drawn
    # here without a driver, bench/results/2026-11-26-gpu.md) that match the finding's description
    # (a GLSL 4.00 compatibility vs-gs-fs program, a struct, dvec3 arrays, gl_TexCoord[6],
    # gl_ClipDistance), and their variants, on NVIDIA's GL, with the whole link log
    step "the candidates and their variants on system-gl"
    timeout 200 python3 bench/gpu/run_ids.py --target system-gl --ids-file "$VARY_IDS" --json "$o/varyfind.json" \
        2>&1 | cut -c1-300
    ;;
vkcount)
    # NVIDIA's Vulkan alone (the harness's layer): each count-buffer value in a fresh child (a device
    # loss ends the child's device), then the first value that lost it again under the validation layer
    step "count-buffer values past maxdrawcount on system-vk, a child each"
    while read -r id label; do
        printf '%s: ' "$label"
        timeout 40 python3 bench/gpu/run_ids.py --target system-vk --case-timeout 8 --stall 5 "$id" 2>&1 | tail -n +2 \
            | head -n 2 | tr '\n' ' '; echo
    done < "$CRAFTED"
    if [ -n "${VVL_DEB:-}" ]; then
        dpkg -x "$VVL_DEB" /tmp/vvl
        j=/tmp/vvl/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json
        sed -i "s|\"library_path\": \"[^\"]*\"|\"library_path\": \"/tmp/vvl/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so\"|" $j
        step "the same under the validation layer (sid's), system-vk --vk-validation"
        grep -E 'count0x(1|8)' "$CRAFTED" | while read -r id label; do
            printf '%s: ' "$label"
            VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d timeout 40 python3 bench/gpu/run_ids.py \
                --target system-vk --vk-validation --case-timeout 8 --stall 5 "$id" 2>&1 | tail -n +2 | head -n 6
        done
    fi
    ;;
zinkpbuf)
    # The zink-over-NVIDIA hang's cause: Mesa's state tracker hands the bound GL_PARAMETER_BUFFER to a
    # plain glDrawArraysIndirect as its draw count (st_indirect_draw_vbo), so zink issues
    # vkCmdDrawIndirectCount(maxDrawCount 1) reading the count the harness's buffer holds at offset 0
    # (0xDEADBEEF). Count values past maxDrawCount through each path ($CRAFTED: explored ids of
    # Multi*IndirectCount draws with count-buffer values 1 .. 2^32-1), and the standalone C
    # programs of $PB (bench/results/2026-11-26-gpu.md says how they were made), on NVIDIA's
    # Vulkan through the harness's layer first (a fresh machine), NVIDIA's GL, then zink.
    nozink=(env -u HARNESS_MESA -u HARNESS_EGL_PLATFORM)
    for t in system-vk system-gl; do
        step "count-buffer values past maxdrawcount on $t"
        timeout 150 "${nozink[@]}" python3 bench/gpu/run_ids.py --target $t --ids-file "$CRAFTED" --case-timeout 8 \
            --stall 5 --json "$o/crafted-$t.json" 2>&1 | grep -v '^    \['
    done
    step "the C programs on NVIDIA's GL"
    timeout 120 "${nozink[@]}" python3 bench/gpu/run_programs.py --target system-gl --limit 10 --no-stacks \
        $(ls "$PB"/pb-* | grep -v '\.c$')
    step "the C programs on zink over NVIDIA (EGL device 0)"
    timeout 90 python3 bench/gpu/run_programs.py --target zink-system --device 0 --limit 10 "$PB/pb-orig"
    timeout 150 python3 bench/gpu/run_programs.py --target zink-system --device 0 --limit 10 --no-stacks \
        $(ls "$PB"/pb-* | grep -v '\.c$' | grep -v pb-orig)
    step "count-buffer values past maxdrawcount on zink-system"
    timeout $(( $(left) - 10 )) python3 bench/gpu/run_ids.py --target zink-system --ids-file "$CRAFTED" \
        --case-timeout 8 --stall 5 --json "$o/crafted-zink-system.json" 2>&1 | grep -v '^    \['
    ;;
zinkrepeat)
    # named cases, each line of $REPEAT_IDS run in turn in one harness child (a new child after a hang)
    step "repeats on zink-system ($(python3 -m harness targets zink-system 2>&1 | grep -m1 renderer))"
    timeout $(( $(left) - 10 )) python3 bench/gpu/run_ids.py --target zink-system --ids-file "$REPEAT_IDS" \
        --case-timeout 8 --stall 5 --json "$o/repeat.json" 2>&1 | grep -v '^    \['
    ;;
zinkdeep|zink25)
    # the hang of explore seed 4242 that reproduces alone, and its variants (a reduction by hand),
    # on zink over NVIDIA, the harness's own Vulkan layer on NVIDIA and NVIDIA's GL
    h0=${H0:-draw_params/explore/v1-k0as12.ak1as36.0.az.0.f.36z.k1as31.n.aa17.2.6.0.1zz.0.f.0z.k1as21.n.aa0.1.9.0.0zz.0.f.0zz.s15.f.460z}
    python3 bench/gpu/draw_params_variants.py "$h0" > "$o/v.txt"
    cat "$o/v.txt"
    targets=${VARIANT_TARGETS:-zink-system system-vk system-gl}
    for t in $targets; do
        step "$h0 and its variants on $t"
        unset_mesa=(); [ $t = zink-system ] || unset_mesa=(env -u HARNESS_MESA -u HARNESS_EGL_PLATFORM)
        timeout 240 "${unset_mesa[@]}" python3 bench/gpu/run_ids.py --target $t --ids-file "$o/v.txt" --case-timeout 8 --stall 5 \
            --json "$o/v-$t.json" 2>&1 | grep -v '^    \['
    done
    [ $part = zink25 ] && { step end; exit 0; }
    # the smallest variant that hangs on zink
    min=$(python3 - "$o/v-zink-system.json" "$o/v.txt" <<'PY'
import json, sys
labels = {l.split()[0]: len(l) for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")}
hung = [r["id"] for r in json.load(open(sys.argv[1]))["records"] if r["status"] == "timeout"]
print(min(hung, key=lambda i: labels.get(i, 1e9)) if hung else "")
PY
)
    echo "smallest hanging variant: ${min:-none}"
    step "stacks and the standalone C program of ${min:-$h0}"
    timeout 200 python3 bench/gpu/hang_triage.py --target zink-system "${min:-$h0}" --max 1 --skip debug --out "$o/deep"
    step "validation layer (sid's 1.4.363) in zink's process"
    dpkg -x "${VVL_DEB:?}" /tmp/vvl
    j=/tmp/vvl/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json
    sed -i "s|\"library_path\": \"[^\"]*\"|\"library_path\": \"/tmp/vvl/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so\"|" $j
    grep library_path $j
    printf 'khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\nkhronos_validation.report_flags = error,warn\nkhronos_validation.log_filename = %s\n' \
        "$o/vvl-zink.log" > /tmp/vvl/zink.txt
    vsid=$(awk '$2 == "chain-vs" {print $1}' "$o/v.txt")
    VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
    VK_LAYER_SETTINGS_PATH=/tmp/vvl/zink.txt timeout 120 python3 bench/gpu/run_ids.py --target zink-system \
        --case-timeout 15 --stall 10 --json "$o/vvl-zink.json" ${min:-$h0} $vsid 2>&1 | grep -v '^    \['
    echo "--- the layer's log (errors and warnings, unique lines):"
    sed -E 's/0x[0-9a-f]+/0x_/g' "$o/vvl-zink.log" | sort | uniq -c | sort -rn | cut -c1-700 | head -n 40
    step "validation layer on the harness's own Vulkan layer (system-vk --vk-validation)"
    VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d timeout 120 env -u HARNESS_MESA python3 bench/gpu/run_ids.py \
        --target system-vk --vk-validation --case-timeout 20 --json "$o/vvl-vk.json" "$h0" ${min:-} 2>&1 | head -n 40
    step "the other hanging ids of the exploration, each twice, on zink-system"
    for id in $(cat "${OTHER_HANGS_FILE:-/dev/null}"); do
        timeout 60 python3 bench/gpu/run_ids.py --target zink-system --case-timeout 12 --stall 6 "$id" "$id" 2>&1 \
            | grep -v '^    \['
    done
    ;;
followup)
    [ -n "${FOLLOWUP:-}" ] && source "$FOLLOWUP"
    ;;
esac
step "end"
