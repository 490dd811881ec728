#!/bin/bash
# Run shader_tests with piglit's shader_runner on llvmpipe and zink (over lavapipe) of each Mesa,
# through the harness's environment; one line per run: test, target, Mesa, result, observed RGBA.
# Usage (from the repository root): triage/mesa-22.3.6/separable-vs-tes-array-packing/run.sh FILE...
# MESAS="system mesa/25.0.7-2+deb13u1 mesa/26.2.6-1" and TARGETS="llvmpipe zink" by default.
root=$(git rev-parse --show-toplevel)
runner=/usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner
for f in "$@"; do
  f=$(realpath "$f")
  for m in ${MESAS:-system mesa/25.0.7-2+deb13u1 mesa/26.2.6-1}; do
    for t in ${TARGETS:-llvmpipe zink}; do
      if [ "$m" = system ]; then ma=(); else ma=(--mesa "$m"); fi
      out=$(cd "$root" && PIGLIT_PLATFORM=surfaceless_egl PYTHONPATH="$root" timeout 60 nice -n 10 \
            .venv/bin/python -m harness exec "${ma[@]}" "$t" -- "$runner" "$f" -auto -fbo 2>&1)
      res=$(echo "$out" | grep -o '"result": "[a-z]*"' | cut -d'"' -f4)
      obs=$(echo "$out" | grep Observed | head -1 | sed 's/ *Observed: //')
      [ -n "$res" ] || res="?: $(echo "$out" | tail -2 | tr '\n' ' ' | cut -c1-150)"
      printf '%s\t%s\t%s\t%s\t%s\n' "$(basename "$f" .shader_test)" "$t" "${m#mesa/}" "$res" "$obs"
    done
  done
done
