#!/usr/bin/env bash
# The real runs behind bin/build-mesa and `harness bisect`, reproduced: what the
# self-tests cannot do in CI, because each needs a Mesa build (minutes on 2 cores).
#
#   bench/mesa_from_source.sh debian VERSION      Debian's source of VERSION built, every family run
#                                                 on it and on the package of VERSION; compared
#   bench/mesa_from_source.sh incremental BUILD   a rebuild after touching one driver file, timed
#   bench/mesa_from_source.sh git TREE COMMIT     TREE (a Mesa checkout) built at COMMIT, every family
#   bench/mesa_from_source.sh bisect TREE GOOD BAD TARGET CASE [--fixed]
#                                                 harness bisect, resumable, with its steps
#
# Results go to results/source-*/; each command prints its figures and what it compared.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
now() { date +%s; }

case ${1:-} in
debian)
    version=$2
    start=$(now)
    build=$(bin/build-mesa "$version")
    built=$(now)
    echo "build: Mesa $version from Debian's source in $((built - start)) s: $build"
    bin/conformance --mesa "$build" --flake-retries 1 --results-dir "results/source-$version-build" || true
    bin/conformance --mesa "mesa/$version" --flake-retries 1 --results-dir "results/source-$version-package" || true
    echo "package (old) against build (new):"
    $PY -m harness compare "results/source-$version-package" "results/source-$version-build"
    ;;
incremental)
    build=$2
    tree=$($PY -c 'import json, sys; print(json.load(open(sys.argv[1]))["source"])' "$build/harness-build.json")
    files=("$tree/src/gallium/drivers/llvmpipe/lp_draw_arrays.c" "$tree/src/gallium/auxiliary/draw/draw_pt.c")
    touch "${files[@]}"
    start=$(now)
    ninja -C "$build" >/dev/null
    echo "incremental: two driver files touched, rebuilt in $(($(now) - start)) s (ccache hits: what a bisection step back to a built commit costs)"
    touch "${files[@]}"
    start=$(now)
    CCACHE_DISABLE=1 ninja -C "$build" >/dev/null
    echo "incremental: the same, compiled (ccache off: a patch to those files) in $(($(now) - start)) s"
    ;;
git)
    tree=$2 commit=$3
    start=$(now)
    build=$(bin/build-mesa "$tree" --commit "$commit")
    echo "build: $tree at $commit in $(($(now) - start)) s: $build"
    bin/conformance --mesa "$build" --flake-retries 1 --results-dir "results/source-git-${commit:0:12}" || true
    ;;
bisect)
    tree=$2 good=$3 bad=$4 target=$5 case_id=$6
    shift 6
    start=$(now)
    $PY -m harness bisect "$case_id" --tree "$tree" --good "$good" --bad "$bad" --target "$target" "$@" \
        --results-dir "results/source-bisect-$target-${good:0:10}-${bad:0:10}"
    echo "bisect: $(($(now) - start)) s in this call (a resumed bisection counts only its own)"
    ;;
*)
    sed -n '2,12p' "$0" >&2
    exit 2
    ;;
esac
