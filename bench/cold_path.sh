#!/bin/bash
# The cold path per cache: one driver's gate of every family, run four times in a row
# under a private, empty cache folder and home: cold (nothing cached), warm, the harness's spirv/
# and preprocessed/ caches removed, Mesa's shader cache removed. glslangValidator processes are
# counted by a shim on PATH (measurement only: it adds a /usr/bin/time per process).
# Usage: [STEPS='cold warm'] bench/cold_path.sh TARGET WORKDIR [LABEL]   (from the checkout's root;
# STEPS picks and orders the steps; "cold" must come first, it starts from an empty folder)
set -u
target=$1 work=$2 label=${3:-run}
root=$work/$label-$target
rm -rf "$root"; mkdir -p "$root/home" "$root/shim"
cat > "$root/shim/glslangValidator" <<'SHIM'
#!/bin/sh
mode=V; case " $* " in *" -E "*) mode=E;; esac
exec /usr/bin/time -a -o "$GLSLANG_COUNT_LOG" -f "$mode %U %S" /usr/bin/glslangValidator "$@"
SHIM
chmod +x "$root/shim/glslangValidator"
export XDG_CACHE_HOME=$root/cache HOME=$root/home PATH=$root/shim:$PATH PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
gate() {
    local step=$1
    export GLSLANG_COUNT_LOG=$root/$step.glslang; : > "$GLSLANG_COUNT_LOG"
    local load; load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -o "$root/$step.time" -f '%e %U %S' nice -n 5 .venv/bin/python -m harness parallel auto \
        tests/tess tests/draw_params tests/varyings --target "$target" --flake-retries 1 \
        --results-dir "$root/results-$step" -q -p no:cacheprovider > "$root/$step.log" 2>&1
    local rc=$? after; after=$(cut -d' ' -f1-3 /proc/loadavg)
    read -r wall user sys < <(tail -1 "$root/$step.time")   # after "Command exited with ..."
    awk -v step="$step" -v rc="$rc" -v wall="$wall" -v user="$user" -v sys="$sys" -v load="$load / $after" '
        { n[$1]++; cpu[$1] += $2 + $3 }
        END { printf "%-12s rc %s  wall %6.1f s  CPU %6.1f s (user %s sys %s)  load before / after %s  glslang -V %d (%.1f s CPU)  -E %d (%.1f s CPU)\n",
              step, rc, wall, user + sys, user, sys, load, n["V"], cpu["V"], n["E"], cpu["E"] }' "$GLSLANG_COUNT_LOG"
    tail -1 "$root/$step.log"
}
for step in ${STEPS:-cold warm harness-cold mesa-cold}; do
    case $step in
        harness-cold) rm -rf "$XDG_CACHE_HOME/gl-layer-harness/spirv" "$XDG_CACHE_HOME/gl-layer-harness/preprocessed" ;;
        mesa-cold) rm -rf "$XDG_CACHE_HOME/mesa_shader_cache" ;;
    esac
    gate "$step"
    [ "$step" = cold ] && du -sh "$XDG_CACHE_HOME"/gl-layer-harness/* "$XDG_CACHE_HOME"/mesa_shader_cache 2>/dev/null | tr '\t' ' '
done
