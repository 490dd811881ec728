#!/usr/bin/env bash
# The harness as an installed tool: a wheel built with `python -m build`,
# installed into a fresh venv, run from outside the checkout.
#
#   bash bench/wheel.sh [WORK_DIR]          (default: a new folder under /tmp)
#
# 1. `python -m build --wheel` in a venv of its own (build is no dependency of the harness).
# 2. A fresh venv, `pip install` of the wheel alone (its dependencies from the package index).
# 3. From WORK_DIR (no checkout above it): `gl-layer-harness targets`, one case with
#    `gl-layer-harness bisect-run` on llvmpipe and lavapipe, a kept finding (tests/draw_params/
#    kept.json, found in the wheel's harness/bundled/), and one case through pytest's --case.
# About 45 s here, most of it pip installing the dependencies.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d /tmp/harness-wheel.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
case "$work/" in "$checkout"/*) echo "bench/wheel.sh: $work is inside the checkout" >&2; exit 2;; esac
start=$SECONDS

python3 -m venv "$work/build-env"
"$work/build-env/bin/pip" install -q build
"$work/build-env/bin/python" -m build --wheel --outdir "$work/dist" "$checkout" >"$work/build.log" 2>&1 \
    || { tail -20 "$work/build.log"; exit 1; }
wheel=$(ls "$work"/dist/*.whl)
echo "built: $wheel ($(python3 -m zipfile -l "$wheel" | grep -c bundled/tests/) family files bundled)"

rm -rf "$work/v"
python3 -m venv "$work/v"
"$work/v/bin/pip" install -q "$wheel"
cd "$work"
tool="$work/v/bin/gl-layer-harness"
echo "families from: $("$work/v/bin/python" -c 'from harness.model import families; print(families.ROOT)')"
"$tool" targets llvmpipe zink lavapipe | grep -E '^[a-z]|renderer|NOT AVAILABLE'
"$tool" bisect-run draw_params/DrawArraysInstanced/f5c4i1/glsl450/tes --target llvmpipe
"$tool" bisect-run tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7 --target lavapipe
kept=$("$work/v/bin/python" -c 'from harness.explore import kept; print(kept.entries("draw_params")[0]["id"])')
# A kept finding fails on a Mesa with the defect it records (exit 1) and passes on one without: either shows it ran.
"$tool" bisect-run "$kept" --target llvmpipe || [ $? -eq 1 ]
bundled=$("$work/v/bin/python" -c 'from harness.model import families; print(families.ROOT)')
"$work/v/bin/python" -m pytest -p harness.pytest_adapter.plugin -p no:cacheprovider -q "$bundled/tests/draw_params" \
    --rootdir "$bundled" --case draw_params/DrawArraysInstanced/f5c4i1/glsl450/tes --target llvmpipe \
    --results-dir "$work/results" | tail -1
echo "bench/wheel.sh: the installed tool ran from $work in $((SECONDS - start)) s"
