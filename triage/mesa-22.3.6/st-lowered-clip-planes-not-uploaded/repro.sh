#!/bin/sh
# User clip planes (gl_ClipVertex) lowered into a shader by Mesa's GL state tracker are not
# applied at the first draw that uses the lowered variant, unless that draw is the context's
# first: the clip-plane constants are not uploaded (README). Seen on zink, the one driver here
# that lowers clip planes; llvmpipe clips them itself and passes.
#
# piglit's shader_runner runs its files in one GL context, one after the other (what piglit's
# batched mode does); the second file alone passes.
#
# Usage (from the repository root):
#   triage/mesa-22.3.6/st-lowered-clip-planes-not-uploaded/repro.sh [MESA] [TARGET] [FIRST] [SECOND]
#   MESA:   system (default: Debian's own Mesa), a fetched runtime (mesa/26.2.6-1) or a build
#   TARGET: zink (default; fails) or llvmpipe (passes)
#   FIRST, SECOND: a file name under piglit's arb_tessellation_shader/execution/compatibility/,
#     or a path (one with a '/'). Defaults: tcs-tes-ff-frag.shader_test
#     vs-tcs-tes-clip-vertex-enables.shader_test. FIRST "-" runs SECOND alone (passes).
#     The harness's baselined cases fail alone (their first draw is the context's first, and the
#     plane is enabled for the second): FIRST - SECOND baselined-cases/FILE.
# Needs Debian's piglit package (shader_runner). Exit status: shader_runner's (0 pass, 1 fail).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mesa=${1:-system}; target=${2:-zink}
first=${3:-tcs-tes-ff-frag.shader_test}
second=${4:-vs-tcs-tes-clip-vertex-enables.shader_test}
d=/usr/lib/x86_64-linux-gnu/piglit/tests/spec/arb_tessellation_shader/execution/compatibility
sr=/usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner
path() { case "$1" in */*) [ -e "$1" ] && echo "$1" || echo "$here/$1" ;; *) echo "$d/$1" ;; esac; }
files=$(path "$second")
[ "$first" = - ] || files="$(path "$first") $files"
export PIGLIT_PLATFORM=surfaceless_egl
export PYTHONPATH="${PYTHONPATH:-$(pwd)}"
if [ "$mesa" = system ]; then
    exec .venv/bin/python -m harness exec "$target" -- $sr $files -auto -fbo
fi
exec .venv/bin/python -m harness exec "$target" --mesa "$mesa" -- $sr $files -auto -fbo
