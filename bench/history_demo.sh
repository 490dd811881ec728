#!/usr/bin/env bash
# The results history on real runs, from a checkout with bin/selftest's
# set-up done: bench/history_demo.sh OUT
#   - two CI lanes of three pipelines each, the system's Mesa 22.3.6 (conformance-system) and
#     sid's 26.2.6 (conformance-sid), every default target on draw_params; GitLab's variables
#     set as a pipeline sets them. The third system pipeline plants a failure: the Vulkan layer's
#     draw-id translation off (--vk-without draw-id), a hazard switch of the harness.
#   - a lane whose Mesa moved from 22.3.6 to 26.2.6 (nightly-debian, zink): the 26.x
#     draw-parameters crash shows as a regression with a Mesa range to bisect.
#   - 20 runs of the 45 program-deleting tess/seq cases on zink over bookworm-backports' 25.0.7
#     (seq-delete-25.0.7): zink-seq-delete-crash, an intermittent defect, measured.
# Then everything ingested into OUT/history.sqlite, the flakes and a bisect plan printed, the
# static dashboard written to OUT/site and screenshotted by Debian's chromium into OUT/*.png.
set -euo pipefail
OUT=$(realpath -m "${1:?usage: bench/history_demo.sh OUT}")
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
bin/fetch-mesa 26.2.6-1 >/dev/null && bin/fetch-mesa "25.0.7-2~bpo12+1" >/dev/null

pipeline() {     # pipeline ID JOB RESULTS [CONFORMANCE ARGS...]: one CI-like run (its exit status is the gate's)
    local id=$1 job=$2 out=$3
    shift 3
    CI_PIPELINE_ID=$id CI_JOB_NAME=$job CI_JOB_ID=$((id * 10)) CI_COMMIT_SHA=$(git rev-parse HEAD) \
    CI_PIPELINE_URL=https://gitlab.example/harness/-/pipelines/$id \
        bin/conformance --results-dir "$OUT/$out" "$@" 2>&1 | tail -1 || true
}
for id in 101 102 103; do
    planted=()
    [ $id = 103 ] && planted=(--vk-without draw-id)
    pipeline $id conformance-system sys-$id -k draw_params "${planted[@]}"
    pipeline $id conformance-sid sid-$id -k draw_params --mesa mesa/26.2.6-1
done
pipeline 104 nightly-debian up-104 -k draw_params --target zink
pipeline 105 nightly-debian up-105 -k draw_params --target zink --mesa mesa/26.2.6-1
for n in $(seq 1 20); do
    pipeline $((300 + n)) seq-delete-25.0.7 seq-$n --mesa "mesa/25.0.7-2~bpo12+1" --target zink \
        -k 'tess/seq and delete' --flake-retries 0
done

H=(.venv/bin/python -m harness history --store "$OUT/history.sqlite")
"${H[@]}" ingest "$OUT"/sys-* "$OUT"/sid-* "$OUT"/up-* "$OUT"/seq-*
"${H[@]}" runs --limit 8
"${H[@]}" flakes --lane seq-delete-25.0.7
"${H[@]}" bisect 'draw_params/DrawArrays/f5c4/glsl450/gs[zink]' --lane nightly-debian --tree /path/to/mesa --dry-run
.venv/bin/python -m harness dashboard --store "$OUT/history.sqlite" --static "$OUT/site"

shot() {         # shot PAGE PNG HEIGHT
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --user-data-dir="$OUT/chromium" --hide-scrollbars \
        --window-size=1280,"$3" --screenshot="$2" "file://$1" 2>/dev/null
}
slug() { .venv/bin/python -c "import sys; from harness.history import dashboard; print(dashboard.slug(sys.argv[1]))" "$1"; }
shot "$OUT/site/index.html" "$OUT/index.png" 1500
shot "$OUT/site/cases/$(slug draw_params/sequence/multi-then-singles/glsl450/vs).html" "$OUT/planted.png" 1300
shot "$OUT/site/cases/$(slug draw_params/DrawArrays/f5c4/glsl450/gs).html" "$OUT/bisect.png" 2400
shot "$OUT/site/flakes.html" "$OUT/flakes.png" 1100
ls "$OUT"/*.png
