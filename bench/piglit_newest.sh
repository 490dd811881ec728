#!/usr/bin/env bash
# Debian's newest piglit (sid's binary package) over the harness's areas, on the Mesas the
# harness gates: what piglit's own tests find there, to set beside what the
# harness finds (docs/piglit.md, "The newest piglit against the harness").
#
#   bash bench/piglit_newest.sh [MESA ...]        (as root: debootstrap, mount, chroot)
#   bash bench/piglit_newest.sh --setup           (steps 1 and 2 only: bench/piglit_export.sh newest)
#
# MESA: `sid` (the root's own Mesa, sid's packages) or a folder name under this checkout's
# mesa/ (`bin/fetch-mesa VERSION` makes it), e.g. 22.3.6-1+deb12u2 25.0.7-2~bpo12+1
# 26.1.6-1~bpo13+1; default: sid and every folder of those three that is fetched.
# ROOT_DIR (default /var/tmp/sid-piglit), DRIVERS (default "llvmpipe zink"; also `zink-optimal`,
# zink with ZINK_INLINE_UNIFORMS=0 as the harness's target of that name), DEBIAN_MIRROR, AREA
# (default `harness`: AREAS below; `primitives`: PRIMITIVES below, the primitives family's area).
#
# 1. A Debian sid root, debootstrap --variant=minbase, once: ROOT_DIR/.sid-root-built marks it
#    built and a later run reuses it. Installs debootstrap here if missing.
# 2. Inside, apt installs sid's piglit and sid's Mesa (libgl1-mesa-dri, mesa-vulkan-drivers,
#    libegl-mesa0; waffle-utils for wflinfo) and prints their versions.
# 3. A fetched Mesa runs in the root on sid's own C library: its folder is bind-mounted at the
#    same path, and ROOT_DIR/var/tmp/mesa-overlay/VERSION links Mesa's own libraries (libEGL_mesa,
#    libGLX_mesa, libglapi, libgbm, libgallium, libvulkan_lvp) with the EGL vendor and lavapipe
#    ICD files pointing at them. LD_LIBRARY_PATH is that overlay, then sid's libraries, then the
#    folder's (so only what sid lacks, LLVM first of all, comes from the folder). The folder's
#    own libc (HARNESS_RUN of `harness env`) cannot serve: sid's piglit needs sid's glibc and
#    libstdc++, newer than bookworm's or trixie's. wflinfo's renderer and version line shows
#    which Mesa loaded; a Mesa that does not report its own version is not run.
# 4. Per Mesa and driver (LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe|zink, zink over
#    lavapipe, surfaceless EGL: `piglit run -p surfaceless_egl`), the tests matching AREAS below
#    of the `opengl` (C tests) and `shader.no_isolation` (shader_runner files) profiles, batched (`--process-isolation false`), PIGLIT_NO_FAST_SKIP=1 (the
#    package's XML profiles keep required extensions in a form its fast-skip misreads, skipping
#    tests the driver supports); then each failure again, process-isolated (`-t` of their names, profiles `opengl shader`).
#    PIGLIT_NO_WINDOW=1: surfaceless EGL has no window and piglit runs its non-concurrent tests
#    without -fbo, so without it each such test aborts (nv_primitive_restart's 15, SIGABRT).
#    AREA=primitives: PRIMITIVES below instead, process-isolated from the first run (see there).
#    Each Mesa has its own shader cache folder (triage/mesa-26.2.6/shader-cache-index-across-releases).
# 5. Prints, per run: wall time, `piglit summary console -s` counts (subtests counted too), every
#    non-passing test of the first run (a test with subtests once, its failing subtests named) and
#    its rerun verdict. Results: ROOT_DIR/var/tmp/piglit-results/MESA-DRIVER[-AREA][-isolated].
set -uo pipefail

REPO=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel) || exit 2
source "$REPO/bench/debian_root.sh"
ROOTFS=$(realpath -m "${ROOT_DIR:-/var/tmp/sid-piglit}")
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
STAMP=$ROOTFS/.sid-root-built
DRIVERS=${DRIVERS:-llvmpipe zink}
MESA_DIR=$(realpath "$REPO/mesa" 2>/dev/null || echo "$REPO/mesa")
PACKAGES="piglit libgl1-mesa-dri mesa-vulkan-drivers libegl-mesa0 libegl1 libgl1 waffle-utils"
OUT=/var/tmp/piglit-results                         # inside the root
# The harness's areas, as piglit test-name regexes (piglit run -t; names are spec@area@...).
AREAS=(
    'spec@arb_tessellation_shader@'                 # tessellation (tests/tess)
    'spec@arb_shader_draw_parameters@'              # gl_DrawID, gl_BaseVertex, gl_BaseInstance
    'spec@arb_multi_draw_indirect@'                 # multi-draw, indirect multi-draw
    'spec@arb_draw_indirect@'                       # indirect draws
    'spec@arb_indirect_parameters@'                 # indirect-count draws, GL_PARAMETER_BUFFER
    'spec@gl-1.4@.*multidraw|spec@ext_multi_draw_arrays@'   # direct multi-draw
    'spec@arb_draw_elements_base_vertex@'           # base vertex
    'spec@arb_base_instance@'                       # base instance
    'spec@arb_separate_shader_objects@'             # separable programs, pipelines
    'spec@arb_gpu_shader_fp64@'                     # fp64 in every stage
    'spec@arb_vertex_attrib_64bit@'                 # 64-bit vertex inputs
    'clip.?(plane|vertex|distance)|@clipping@'      # user clip planes, gl_ClipVertex, gl_ClipDistance
)
# Left out: arb_vertex_attrib_64bit's 9,313 generated vs_in files (every 64-bit vertex input
# type against every other attribute type), which would triple the run; the harness has no such
# vertex-format cases.
EXCLUDE='spec@arb_vertex_attrib_64bit@execution@vs_in'   # batched, the folder is one test
PROFILES="opengl shader.no_isolation" ISOLATION=false
# The primitives family's area (tests/primitives): provoking vertex, transform
# feedback of every GL primitive type, primitive restart, gl_PrimitiveID without a GS, polygon
# mode, edge flags, pipeline statistics, adjacency. Its shader_test files are selected one by one
# from the `shader` profile (process-isolated): `shader.no_isolation` groups a folder's files into
# one test named after the folder (spec@glsl-1.50@execution), which no file-name regex selects,
# and `--process-isolation false` loads `shader.no_isolation` in place of `shader`
# (framework/profile.py), so this area's first run is process-isolated (piglit's C tests run one
# process each in either mode); its failures are then run a second time.
PRIMITIVES=(
    'spec@arb_provoking_vertex@|spec@ext_provoking_vertex@'      # conventions, quads-follow, xfb order
    'spec@!opengl 1.1@(clipflat|line-flat-clip-color)$'          # flat shading of clipped primitives
    'spec@ext_transform_feedback@tessellation '                  # every type captured: flat_first/last, wireframe
    'spec@nv_primitive_restart@|spec@!opengl 3.1@primitive-restart'   # restart per mode, index only, xfb
    'spec@arb_es3_compatibility@es3-(drawarrays-)?primrestart'   # fixed-index restart
    'spec@arb_draw_indirect@.*prim-restart'                      # restart through indirect draws
    'primitive-id-(no-gs|in$|out$|restart )'                     # gl_PrimitiveID without and with a GS
    'spec@glsl-1.50@execution@geometry@(primitive-types|tri-strip-ordering-with-prim-restart) '
    'ignore-adjacent-vertices'                                   # adjacency types through a GS
    'spec@!opengl 3.2@gl-3.2-adj-prims '                         # adjacency: conventions, cull, line cull
    '@polygon-mode'                                              # polygon-mode, -facing, -offset
    'edgeflag'                                                   # edge flags (gl-1.0, gl-2.0)
    'drawarrays-vertex-count .* gl_quad'                         # many quads and quad strips in one draw
    'spec@arb_pipeline_statistics_query@'                        # the statistics counters
)
if [ "${AREA:-harness}" = primitives ]; then
    AREAS=("${PRIMITIVES[@]}"); EXCLUDE='^$'; PROFILES="opengl shader"; ISOLATION=true
elif [ "${AREA:-harness}" != harness ]; then
    echo "piglit_newest: AREA=${AREA}: harness or primitives" >&2; exit 2
fi
START=$(date +%s)

[ "$(id -u)" = 0 ] || { echo "piglit_newest: run as root (debootstrap, mount, chroot)" >&2; exit 2; }

# 1. the root, the host's site configuration, the mounts
debian_root piglit_newest "$ROOTFS" "$STAMP" sid ca-certificates,debian-archive-keyring "$MIRROR" 19
site_config piglit_newest "$ROOTFS"
mount_system piglit_newest "$ROOTFS"
inside() {
    chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# 2. piglit and sid's Mesa
if ! inside dpkg-query -W piglit >/dev/null 2>&1 || [ -n "${UPGRADE:-}" ]; then
    inside sh -c "apt-get update -q && nice -n 19 apt-get install -y -q --no-install-recommends $PACKAGES" \
        >"$ROOTFS.apt.log" 2>&1 || { echo "piglit_newest: apt failed: $ROOTFS.apt.log" >&2; tail -n 20 "$ROOTFS.apt.log" >&2; exit 2; }
fi
inside dpkg-query -W -f='sid: ${Package} ${Version}\n' $PACKAGES libc6
[ "${1:-}" = --setup ] && exit 0

# 3. the Mesas
if [ $# = 0 ]; then
    set -- sid
    for v in 22.3.6-1+deb12u2 25.0.7-2~bpo12+1 26.1.6-1~bpo13+1; do [ -d "$MESA_DIR/$v" ] && set -- "$@" "$v"; done
fi
ENVS=()
mesa_env() {   # mesa_env MESA: ENVS, the environment that loads it in the root
    local mesa=$1 dir lib ov json
    ENVS=()
    [ "$mesa" = sid ] && return 0
    dir=$MESA_DIR/$mesa; lib=$dir/usr/lib/x86_64-linux-gnu; ov=/var/tmp/mesa-overlay/$mesa
    [ -d "$lib" ] || { echo "piglit_newest: no $dir (bin/fetch-mesa $mesa)" >&2; return 1; }
    mnt piglit_newest "$ROOTFS$dir" --bind -o ro "$dir"
    rm -rf "$ROOTFS$ov"; mkdir -p "$ROOTFS$ov"
    for f in "$lib"/lib{EGL_mesa,GLX_mesa,glapi,gbm,gallium,vulkan_lvp}*.so*; do
        [ -e "$f" ] && ln -s "$f" "$ROOTFS$ov/"
    done
    printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s"}}\n' "$lib/libEGL_mesa.so.0" \
        > "$ROOTFS$ov/50_mesa.json"
    json=$(ls "$dir"/usr/share/vulkan/icd.d/lvp_icd*.json | head -n1)
    sed -E "s#\"library_path\": *\"[^\"]*\"#\"library_path\": \"$lib/libvulkan_lvp.so\"#" "$json" > "$ROOTFS$ov/lvp_icd.json"
    ENVS=("LD_LIBRARY_PATH=$ov:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu:$lib:$dir/lib/x86_64-linux-gnu"
          "LIBGL_DRIVERS_PATH=$lib/dri" "GBM_BACKENDS_PATH=$lib/gbm"
          "__EGL_VENDOR_LIBRARY_FILENAMES=$ov/50_mesa.json"
          "VK_DRIVER_FILES=$ov/lvp_icd.json" "VK_ICD_FILENAMES=$ov/lvp_icd.json")
}

# 4. the runs, inside
cat > "$ROOTFS/root/piglit-newest-inner.sh" <<'INNER'
set -uo pipefail
MESA=$1 DRIVER=$2 OUT=$3 REGEX=$4 EXCLUDE=$5 PROFILES=$6 AREA=$7 ISOLATION=$8
TAG=$MESA-$DRIVER${AREA:+-$AREA}
mkdir -p "$OUT"; rm -rf "$OUT/$TAG" "$OUT/$TAG-isolated"
export PIGLIT_NO_FAST_SKIP=1 PIGLIT_PLATFORM=surfaceless_egl EGL_PLATFORM=surfaceless \
    LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=${DRIVER%-optimal} VK_LOADER_LAYERS_DISABLE=VK_LAYER_MESA_device_select \
    MESA_SHADER_CACHE_DIR=/var/tmp/shader-cache/$MESA${DRIVER#zink} PIGLIT_NO_WINDOW=1
mkdir -p "$MESA_SHADER_CACHE_DIR"   # Mesa makes the last folder only; zink-optimal has one of its own
case $DRIVER in
    llvmpipe|zink) ;;
    zink-optimal) export ZINK_INLINE_UNIFORMS=0 ;;   # the harness's zink-optimal target
    *) echo "   NOT RUN: driver $DRIVER (llvmpipe, zink, zink-optimal)"; exit 3 ;;
esac
GL=$(wflinfo --platform surfaceless_egl --api gl --profile core --version 4.5 2>&1 \
    | sed -n 's/^OpenGL \(renderer\|version\) string: //p' | paste -sd';')
echo "== $TAG: $GL"
case $MESA in
    sid) want=$(dpkg-query -W -f='${Version}' libgl1-mesa-dri | sed 's/-.*//') ;;
    *) want=${MESA%%-*} ;;
esac
case $GL in *"Mesa $want"*) ;; *) echo "   NOT RUN: wflinfo does not report Mesa $want"; exit 3 ;; esac
verdicts() {   # verdicts RESULTS [all]: per test (a test with subtests once, as its own verdict,
               # the non-passing subtests counted), "name|result|note", sorted; non-passes only unless all
    python3 - "$@" <<'PY' | LC_ALL=C sort
import bz2, glob, json, sys
path = (glob.glob(sys.argv[1] + "/results.json*") or [None])[0]
tests = json.load(bz2.open(path) if path.endswith(".bz2") else open(path))["tests"] if path else {}
for name, test in tests.items():
    if test["result"] in ("pass", "skip", "notrun") and len(sys.argv) < 3:
        continue
    subs = [k for k, v in (test.get("subtests") or {}).items() if k != "__type__" and v not in ("pass", "skip")]
    print(f"{name}|{test['result']}|" + (f"{len(subs)} subtests: " + "; ".join(sorted(subs)) if subs else ""))
PY
}
t0=$(date +%s)
nice -n 19 piglit run -p surfaceless_egl --process-isolation "$ISOLATION" --timeout 120 -j 2 \
    -t "$REGEX" -x "$EXCLUDE" $PROFILES "$OUT/$TAG" >"$OUT/$TAG.log" 2>&1
echo "   batched (process isolation $ISOLATION): rc=$? $(( $(date +%s) - t0 )) s"
piglit summary console -s "$OUT/$TAG" | sed 's/^/   /'
verdicts "$OUT/$TAG" > "$OUT/$TAG.problems"
if [ -s "$OUT/$TAG.problems" ]; then
    # the failing tests' exact names as one -t regex (a failing subtest reruns its test)
    rerun=$(cut -d'|' -f1 "$OUT/$TAG.problems" \
        | python3 -c 'import re, sys; print("^(" + "|".join(re.escape(l.strip()) for l in sys.stdin) + ")$")')
    t0=$(date +%s)
    nice -n 19 piglit run -p surfaceless_egl --process-isolation true --timeout 120 -j 2 \
        -t "$rerun" opengl shader "$OUT/$TAG-isolated" >"$OUT/$TAG-isolated.log" 2>&1
    echo "   isolated rerun of the $(wc -l < "$OUT/$TAG.problems") non-passing tests: rc=$? $(( $(date +%s) - t0 )) s"
    verdicts "$OUT/$TAG-isolated" all > "$OUT/$TAG-isolated.verdicts"
    LC_ALL=C join -t'|' -a1 -o 1.1,1.2,2.2,1.3 "$OUT/$TAG.problems" "$OUT/$TAG-isolated.verdicts" \
        | awk -F'|' '{ printf "   %-9s isolated %-9s %s%s\n", $2, ($3 == "" ? "?" : $3), $1, ($4 == "" ? "" : " (" $4 ")") }'
fi
INNER
REGEX=$(IFS='|'; echo "${AREAS[*]}")
for mesa in "$@"; do
    mesa_env "$mesa" || continue
    for driver in $DRIVERS; do
        inside "${ENVS[@]}" bash /root/piglit-newest-inner.sh "$mesa" "$driver" "$OUT" "$REGEX" "$EXCLUDE" \
            "$PROFILES" "$([ "${AREA:-harness}" = harness ] || echo "$AREA")" "$ISOLATION"
    done
done
echo "piglit_newest: harness $(git -C "$REPO" rev-parse --short HEAD), $(date -u +%FT%TZ)," \
     "$(( $(date +%s) - START )) s in all"
