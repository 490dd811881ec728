#!/usr/bin/env bash
# Is a zink-system failure of tests/primitives an order dependence, a load effect or the driver's
# flake? Runs the family on zink over NVIDIA's Vulkan (set up as bench/gpu/primitives.sh's `zink`
# part: carry .gl, .mesa and .whl/base) REPEATS times each way, and prints for every case that
# failed anywhere how often it failed in each:
#   auto     the whole family, -n auto (one process per core, each every N-th case)
#   one      the whole family in one process (-p no:xdist), collection order
#   alone    only the cases that failed in `auto`, in one process
#
#   REPEATS=3 bash bench/gpu/primitives_repeat.sh OUT_DIR
set -uo pipefail
o=$1
mkdir -p "$o"
work=/tmp/prim-repeat
rm -rf "$work"; mkdir -p "$work"
PART_SECONDS=${PART_SECONDS:-540}
REPEATS=${REPEATS:-3}
source "$(dirname "$0")/env.sh"
install_base_wheels || exit 1
use_zink_system || exit 1

family() {           # family LABEL [PYTEST ARGS]: one run, its failing case ids to $work/LABEL.ids
    local label=$1
    shift
    timeout -s INT -k 20 $(( $(left) - 30 < 120 ? $(left) - 30 : 120 )) python3 -m pytest tests/primitives \
        --target zink-system --baseline none -q --case-timeout 30 --results-dir "$work/$label" "$@" \
        > "$work/$label.log" 2>&1
    grep -v '^#' "$work/$label/failures.csv" 2>/dev/null | cut -d, -f1 > "$work/$label.ids"
    echo "$label: $(wc -l < "$work/$label.ids") failed; $(tail -n 1 "$work/$label.log")"
}

{
step "zink-system, Mesa $(dpkg-deb -f .mesa/mesa-libgallium_*.deb Version), $REPEATS repeats of each"
for r in $(seq "$REPEATS"); do family "auto-$r" -n auto; done
for r in $(seq "$REPEATS"); do family "one-$r" -p no:xdist; done
mapfile -t ids < <(cat "$work"/auto-*.ids | sort -u)
for r in $(seq "$REPEATS"); do
    family "alone-$r" -p no:xdist $(printf -- '--case %s ' "${ids[@]%%\[*}")
done
step "failures per case, out of $REPEATS runs each: auto one alone"
cat "$work"/*.ids | sort -u | while read -r id; do
    printf '%s %s %s %s\n' "$(cat "$work"/auto-*.ids | grep -cxF "$id")" \
        "$(cat "$work"/one-*.ids | grep -cxF "$id")" "$(cat "$work"/alone-*.ids | grep -cxF "$id")" "$id"
done | sort -k4
step "done"
} 2>&1 | tee "$o/repeat.txt"
rm -rf "$work"/*/journal "$work"/*/shards/*/journal
tar -C "$work" -cJf "$o/results.tar.xz" .
