#!/bin/sh
# Run the failing order on zink with a small Vulkan layer (trace-layer.c) that logs every indexed
# draw zink records: its indexCount and the index values it will read, taken from zink's mapped
# memory when the draw is recorded (after u_primconvert wrote them). Triage evidence, not part of
# the harness. Needs cc and the Vulkan headers (libvulkan-dev).
#
#   triage/mesa-25.0.7/primconvert-restart-stale-indices/trace.sh MESA_DIR LOG [PYTEST_ARG...]
#
# LOG gets one line per vkCmdDrawIndexed; the pytest summary goes to stdout. Without PYTEST_ARGs:
# the four quad strip index-switch cases, then the polygon case (collection order, the default
# two executor children); with them, those arguments instead (e.g. `--jobs 1 --case ID ...`).
# TARGET (default zink), PYTHON (default .venv/bin/python), POLY_LAYER_SO (a layer built before)
# and POLY_PER_PROCESS (a log per process, LOG.<pid>) change the run: trace-gpu.sh sets them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mesa=$1
log=$2
shift 2
layer=$(mktemp -d)
if [ -n "${POLY_LAYER_SO:-}" ]; then        # built elsewhere (a machine without a compiler)
    cp "$POLY_LAYER_SO" "$layer/libpoly_trace.so"
else
    cc -shared -fPIC -O1 -fvisibility=hidden -o "$layer/libpoly_trace.so" "$here/trace-layer.c"
fi
cat > "$layer/poly_trace.json" <<JSON
{"file_format_version": "1.2.0", "layer": {"name": "VK_LAYER_POLY_trace", "type": "GLOBAL",
 "library_path": "$layer/libpoly_trace.so", "api_version": "1.4.0", "implementation_version": "1",
 "description": "logs indexed draws", "functions": {"vkGetInstanceProcAddr": "poly_GetInstanceProcAddr",
 "vkGetDeviceProcAddr": "poly_GetDeviceProcAddr"}}}
JSON
qs=primitives/quad_strip/pv-last
cases="--case $qs/elements-ushort-then-ubyte/restart-fixed-index --case $qs/elements-ubyte-then-ushort/restart-fixed-index
       --case $qs/elements-ushort-then-ubyte/restart-index-ffff --case $qs/elements-ubyte-then-ushort/restart-index-ff"
cases="$cases --case primitives/polygon/pv-last/elements-ushort-then-ubyte/restart-fixed-index"
[ $# -gt 0 ] && cases="$*"
rm -f "$log"
cd "$root"
# VK_LAYER_PATH for the older loaders (Debian 12's), VK_ADD_LAYER_PATH for the newer ones
POLY_LOG=$log VK_LAYER_PATH=$layer VK_ADD_LAYER_PATH=$layer VK_INSTANCE_LAYERS=VK_LAYER_POLY_trace \
    ${PYTHON:-.venv/bin/python} -m pytest -q -p no:xdist -p no:cacheprovider tests/primitives --target "${TARGET:-zink}" --mesa "$mesa" \
    --baseline none $cases \
    | grep -E '^(fail:|FAILED|[0-9]+ (passed|failed))' || true
rm -rf "$layer"
