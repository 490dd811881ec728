#!/bin/bash
# The dashboard of bench/results/2026-12-07-defects-dashboard.md: four short real runs (the
# primitives family's quad strips and the direct multi-draws) ingested into a history, the static
# dashboard written, and a run's page shot in headless chromium, its failures grouped by defect.
#   bench/defects_demo.sh OUT        (about 3 minutes on 2 cores)
set -u
OUT=$(realpath -m "${1:?usage: bench/defects_demo.sh OUT}")
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
pipeline() {     # pipeline ID JOB RESULTS [CONFORMANCE ARGS...]: one CI-like run
    local id=$1 job=$2 out=$3
    shift 3
    CI_PIPELINE_ID=$id CI_JOB_NAME=$job CI_JOB_ID=$((id * 10)) CI_COMMIT_SHA=$(git rev-parse HEAD) \
    CI_PIPELINE_URL=https://gitlab.example/harness/-/pipelines/$id \
        bin/conformance --results-dir "$OUT/$out" "$@" 2>&1 | tail -1 || true
}
# 22.3.6's baseline less zink-quads-primitive-id's lines: those failures come back new, and the
# dashboard labels them with the defect whose record covers them
.venv/bin/python - "$OUT/trimmed-22.3.6.csv" <<'PY'
import re, sys
out, current = [], None
for line in open("baselines/mesa-22.3.6-1+deb12u2.csv"):
    mark = re.match(r"# defect: (\S+)", line)
    current = mark.group(1) if mark else current
    if not (current == "zink-quads-primitive-id" and line.strip() and not line.startswith("#")):
        out.append(line)
open(sys.argv[1], "w").write("".join(out))
PY
pipeline 201 conformance-system sys-201 -k quad_strip --target llvmpipe --target zink
pipeline 201 conformance-sid sid-201 -k quad_strip --target llvmpipe --target zink --mesa mesa/26.2.6-1
pipeline 202 conformance-system sys-202 -k 'quad_strip or MultiDrawArrays/' --target llvmpipe --target zink \
    --target lavapipe --vk-without draw-id --baseline "$OUT/trimmed-22.3.6.csv"
pipeline 203 conformance-system sys-203 -k 'quad_strip or MultiDrawArrays/' --target llvmpipe --target zink \
    --target lavapipe-split --vk-without draw-id
rm -f "$OUT/history.sqlite"
.venv/bin/python -m harness history --store "$OUT/history.sqlite" ingest "$OUT"/sys-201 "$OUT"/sid-201 "$OUT"/sys-202 "$OUT"/sys-203
.venv/bin/python -m harness dashboard --store "$OUT/history.sqlite" --static "$OUT/site"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1500 \
    --screenshot="$OUT/run-3.png" "file://$OUT/site/runs/3.html" 2>/dev/null
echo "$OUT/run-3.png"
