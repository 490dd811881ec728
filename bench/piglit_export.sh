#!/bin/bash
# Issue 48, part 1: the harness's piglit exports built inside piglit's own tree and run by piglit.
#
#   bench/piglit_export.sh [fetch|configure|add|build|run|all]      (default: all)
#
# fetch:     piglit's source, Debian 12's (0~git20220119-124bca3c9-1): `apt-get source piglit`
#            (adds a bookworm deb-src line under /etc/apt/sources.list.d/ if none); where the
#            archive no longer serves that source (404), PIGLIT_GIT names a piglit git directory
#            (any clone of upstream piglit) and its commit 124bca3c9, the upstream commit Debian's
#            tarball is, is exported instead. Installs piglit's build dependencies:
#            `apt-get build-dep piglit` (cmake, ninja-build, libwaffle-dev, libegl-dev, libgbm-dev,
#            python3-numpy, python3-mako, ... as debian/control lists them) and waffle-utils
#            (wflinfo: the renderer and version each run's summary names).
# configure: cmake -GNinja as piglit builds, GL tests only (no GLES, CL, Vulkan, GLX tests).
# add:       `python -m harness export --format piglit` of each test below, copied into the tree:
#            the C file under tests/spec/AREA/, its line appended to AREA's CMakeLists.gl.txt, its
#            group entry appended to tests/opengl.py (each once).
# build:     ninja -j2 piglitutil_gl and the exported tests' executables, nothing else.
# run:       `piglit run -p surfaceless_egl` of the exported tests on each Mesa and driver below;
#            a Mesa that needs its own libc (sid's 26.2.6) runs through a shadow build folder
#            (PIGLIT_BUILD_DIR) whose bin/ wraps each test as `$HARNESS_RUN bin/test` (harness env).
#            Results: $RESULTS/<mesa>-<driver>/ (piglit's results.json.bz2) and summary.txt.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${PIGLIT_WORK:-/var/tmp/piglit}
SRC=$WORK/piglit-124bca3c9
RESULTS=${RESULTS:-$WORK/results}
COMMIT=124bca3c9
PY="env PYTHONPATH=$ROOT $ROOT/.venv/bin/python"
# name | case id | triage folder: the four defects of issue 48 part 1.
TESTS="multidraw-first-count-zero|draw_params/explore/v1-k0as11.ak1as29.n.aa0.1.m3x0z.a1.1.m3x0zz.0.f.0zz.s14.f.450z|mesa-22.3.6/multidraw-first-count-zero
multidraw-restart-draw-id|draw_params/explore/v1-k0as11.ak1as29.n.aa1.1.m3x0z.a1.1.m3x0zz.0.t.0zz.s14.f.450z|mesa-22.3.6/multidraw-restart-draw-id
indirect-count-restart|draw_params/explore/v1-k0as11.ak1as36.1.aa4.1.m3x0zz.0.t.0zz.s14.f.450z|mesa-22.3.6/lavapipe-indirect-count-restart
indirect-draw-parameter-buffer|draw_params/explore/v1-k0as11.ak1as36.0.az.0.f.36z.k1as31.n.aa17.2.6.0.1zz.0.f.0z.k1as21.n.aa0.1.9.0.0zz.0.f.0zz.s15.f.460z|mesa-22.3.6/st-indirect-draw-parameter-buffer"
# mesa | drivers: "system" is Debian 12's 22.3.6; others are harness --mesa folders.
MESAS=${MESAS:-"system|llvmpipe zink
mesa/25.0.7-2~bpo12+1|llvmpipe zink
mesa/26.2.6-1|llvmpipe zink"}

fetch() {
    mkdir -p "$WORK"
    if ! grep -rqs 'deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n%s\n' \
            'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' > /etc/apt/sources.list.d/bookworm-src.sources
        apt-get update -q
    fi
    DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q piglit
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q waffle-utils
    [ -d "$SRC" ] && return
    if (cd "$WORK" && apt-get source -q piglit); then
        mv "$WORK"/piglit-0~git20220119-124bca3c9 "$SRC"
    elif [ -n "${PIGLIT_GIT:-}" ]; then
        git --git-dir="$PIGLIT_GIT" archive --format=tar --prefix="$(basename "$SRC")/" "$COMMIT" | tar -x -C "$WORK"
    else
        echo "apt-get source piglit failed; set PIGLIT_GIT to a piglit git directory holding $COMMIT" >&2
        exit 1
    fi
}

configure() {
    [ -f "$SRC/build.ninja" ] && return
    # Debian's python3 (numpy, mako), not another python3 earlier on PATH
    (cd "$SRC" && nice -n 19 cmake -GNinja -DCMAKE_BUILD_TYPE=Release -DPYTHON_EXECUTABLE=/usr/bin/python3 \
        -DPIGLIT_BUILD_GL_TESTS=ON -DPIGLIT_BUILD_GLES1_TESTS=OFF -DPIGLIT_BUILD_GLES2_TESTS=OFF \
        -DPIGLIT_BUILD_GLES3_TESTS=OFF -DPIGLIT_BUILD_CL_TESTS=OFF -DPIGLIT_BUILD_VK_TESTS=OFF \
        -DPIGLIT_BUILD_GLX_TESTS=OFF -DPIGLIT_BUILD_DMA_BUF_TESTS=OFF -DPIGLIT_USE_WAFFLE=ON .)
}

add() {
    local out=$WORK/export
    rm -rf "$out"
    while IFS='|' read -r name id _; do
        (cd "$ROOT" && $PY -m harness export "$id" --format piglit --name "$name" -o "$out")
        local cmake_file; cmake_file=$(sed -n '1s/^# //p' "$out/$name.CMakeLists.gl.txt")
        local line; line=$(sed -n 2p "$out/$name.CMakeLists.gl.txt")
        grep -qxF "$line" "$SRC/$cmake_file" || echo "$line" >> "$SRC/$cmake_file"
        local exe; exe=${line#piglit_add_executable (}; exe=${exe%% *}
        grep -qF "g(['$exe']" "$SRC/tests/opengl.py" || { echo; tail -n +2 "$out/$name.opengl.py"; } >> "$SRC/tests/opengl.py"
    done <<< "$TESTS"
    cp -r "$out/tests" "$SRC/"
}

executables() {
    local out=$WORK/export
    while IFS='|' read -r name _ _; do
        sed -n '2{s/^piglit_add_executable (//;s/ .*//;p}' "$out/$name.CMakeLists.gl.txt"
    done <<< "$TESTS"
}

build() {
    # shellcheck disable=SC2046
    (cd "$SRC" && nice -n 19 ninja -j2 piglitutil_gl $(executables))
}

run() {
    local filter; filter=$(cut -d'|' -f1 <<< "$TESTS" | paste -sd'|')
    : > "$RESULTS.summary.txt"
    while IFS='|' read -r mesa drivers; do
        for driver in $drivers; do
            local tag; tag="$(basename "$mesa")-$driver"
            local env; env=$(cd "$ROOT" && if [ "$mesa" = system ]; then $PY -m harness env "$driver"
                             else $PY -m harness env --mesa "$mesa" "$driver"; fi)
            (
                eval "$env"
                local build=$SRC
                if [ -n "$HARNESS_RUN" ]; then                   # a Mesa with its own libc
                    build=$WORK/shadow-$(basename "$mesa"); rm -rf "$build"; mkdir -p "$build/bin"
                    ln -s "$SRC/tests" "$SRC/generated_tests" "$SRC/lib" "$build/"
                    for exe in $(executables); do
                        printf '#!/bin/sh\nexec %s %s "$@"\n' "$HARNESS_RUN" "$SRC/bin/$exe" > "$build/bin/$exe"
                        chmod +x "$build/bin/$exe"
                    done
                fi
                rm -rf "$RESULTS/$tag"
                cd "$SRC"
                # HARNESS_RUN is shell words (quoted paths): eval, as the wrappers' sh reads them
                local gl; gl=$(eval "$HARNESS_RUN /usr/bin/wflinfo --platform surfaceless_egl --api gl --profile core \
                    --version 4.5" 2>&1 | sed -n 's/^OpenGL \(renderer\|version\) string: //p' | paste -sd';') || true
                PIGLIT_BUILD_DIR=$build /usr/bin/python3 ./piglit run -p surfaceless_egl -t "$filter" tests/opengl.py "$RESULTS/$tag" >/dev/null
                { echo "## $tag ($mesa, $driver): $gl"; /usr/bin/python3 ./piglit summary console "$RESULTS/$tag" | grep -E ': (pass|fail|skip|crash|warn|timeout)'; } \
                    | tee -a "$RESULTS.summary.txt"
            )
        done
    done <<< "$MESAS"
}

step=${1:-all}
case $step in
    fetch|configure|add|build|run) $step ;;
    all) fetch; configure; add; build; run ;;
    *) echo "usage: $0 [fetch|configure|add|build|run|all]" >&2; exit 2 ;;
esac
