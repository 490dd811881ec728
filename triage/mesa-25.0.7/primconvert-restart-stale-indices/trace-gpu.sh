#!/usr/bin/env bash
# trace.sh on the lent GPU machine: zink 26.2.6 over NVIDIA's Vulkan (zink-system), the whole
# family in one pytest process, where the NVIDIA flakes line's restarted quad strip and polygon
# cases fail; then those four cases alone. The machine has no compiler: build the layer here and
# carry it (.trace), with bench/gpu/primitives.sh's zink carry (.gl, .mesa, .whl/base):
#
#   cc -shared -fPIC -O1 -fvisibility=hidden -o .trace/libpoly_trace.so \
#       triage/mesa-25.0.7/primconvert-restart-stale-indices/trace-layer.c
#   bash triage/mesa-25.0.7/primconvert-restart-stale-indices/trace-gpu.sh OUT    (on the machine)
#
# OUT gets each run's summary, its failed case ids, and one draw log per process (logs.tar.xz).
set -uo pipefail
o=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$o"
source bench/gpu/env.sh
install_base_wheels || exit 1
use_zink_system || exit 1
export TARGET=zink-system PYTHON=python3 POLY_LAYER_SO=$PWD/.trace/libpoly_trace.so POLY_PER_PROCESS=1
step "the family, one process, traced"
timeout -s INT -k 20 300 "$here/trace.sh" "$HARNESS_MESA" "$o/family.log" --case-timeout 30 \
    --results-dir /tmp/trace-family | tee "$o/family.txt"
step "the four cases alone, traced"
timeout -s INT -k 20 120 "$here/trace.sh" "$HARNESS_MESA" "$o/alone.log" --case-timeout 30 \
    --results-dir /tmp/trace-alone \
    --case primitives/quad_strip/pv-last/elements-bv-ushort/restart-fixed \
    --case primitives/quad_strip/pv-first-quads-follow/elements-bv-ushort/restart-fixed \
    --case primitives/quad_strip/pv-last/elements-instanced-bv-uint/restart-fixed \
    --case primitives/polygon/pv-first/elements-bv-ushort/restart-fixed | tee "$o/alone.txt"
for run in family alone; do
    python3 -c 'import json, sys
res = json.load(open(sys.argv[1]))["results"]
bad = [r["id"] for r in res if r["status"] not in ("pass", "skip")]
print(f"{sys.argv[2]}: {len(res)} results, {len(bad)} failed", *bad, sep="\n  ")' \
        "/tmp/trace-$run/results.json" "$run" | tee "$o/$run-failed.txt"
done
(cd "$o" && tar -cJf logs.tar.xz --remove-files $(ls | grep -E '\.log\.[0-9]+$'))
