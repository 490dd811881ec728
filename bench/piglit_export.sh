#!/bin/bash
# The harness's piglit exports built inside piglit's own tree and run by piglit.
#
#   bench/piglit_export.sh [fetch|configure|add|build|run|newest|bundle|nvidia|all]      (default: all)
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
# newest:    the same binaries under the newest piglit's runner: sid's piglit package, in the sid
#            root bench/piglit_newest.sh --setup makes (ROOT_DIR, default /var/tmp/sid-piglit), on
#            sid's Mesa, llvmpipe and zink. The tests are not in that package's profiles: a profile
#            of the four (piglit's XML form, `type="gl"`) is written in the root, and WORK is
#            bind-mounted at its own path there, so each binary finds this tree's
#            libpiglitutil_gl through its RUNPATH and runs on sid's C library (the ABI the binaries
#            need is bookworm's, which sid's glibc keeps). Results: $RESULTS.newest.txt.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${PIGLIT_WORK:-/var/tmp/piglit}
SRC=$WORK/piglit-124bca3c9
RESULTS=${RESULTS:-$WORK/results}
COMMIT=124bca3c9
PY="env PYTHONPATH=$ROOT $ROOT/.venv/bin/python"
# name | case id | triage folder: the four defects exported first.
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
            # a build folder is named by its source tree (its own name is build-harness)
            local tag; tag="$(sed 's#/build-harness/*$##; s#.*/##' <<< "$mesa")-$driver"
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

newest() {
    local rootfs; rootfs=$(realpath -m "${ROOT_DIR:-/var/tmp/sid-piglit}")
    ROOT_DIR=$rootfs bash "$ROOT/bench/piglit_newest.sh" --setup
    # shellcheck source=bench/debian_root.sh
    source "$ROOT/bench/debian_root.sh"
    mount_system piglit_export "$rootfs"
    mnt piglit_export "$rootfs$WORK" --bind -o ro "$WORK"
    local profile=/var/tmp/piglit-export.xml.gz out=/var/tmp/piglit-export-results
    # the four tests as the package's serializer writes a GL test: its command, run concurrently
    while IFS='|' read -r name _ _; do
        local group; group=$(sed -n "s/.*grouptools.join('spec', '\([^']*\)').*/\1/p" "$WORK/export/$name.opengl.py")
        printf '%s|spec@%s@%s\n' "$(sed -n '2{s/^piglit_add_executable (//;s/ .*//;p}' "$WORK/export/$name.CMakeLists.gl.txt")" \
            "${group,,}" "$name"
    done <<< "$TESTS" | chroot "$rootfs" /usr/bin/python3 -c '
import gzip, sys, xml.etree.ElementTree as et
tests = [line.strip().split("|") for line in sys.stdin if line.strip()]
root = et.Element("PiglitTestList", count=str(len(tests)), name="harness-exports")
for exe, name in tests:
    test = et.SubElement(root, "Test", type="gl", name=name)
    et.SubElement(test, "option", name="command", value=repr([exe]))
    et.SubElement(test, "option", name="run_concurrent", value="True")
with gzip.open(sys.argv[1], "wb") as f:
    et.ElementTree(root).write(f)
' "$profile"
    : > "$RESULTS.newest.txt"
    for driver in llvmpipe zink; do
        chroot "$rootfs" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/bin:/bin \
            PIGLIT_BUILD_DIR="$SRC" PIGLIT_PLATFORM=surfaceless_egl EGL_PLATFORM=surfaceless \
            LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER="$driver" VK_LOADER_LAYERS_DISABLE=VK_LAYER_MESA_device_select \
            sh -c '
echo "## newest piglit ($(dpkg-query -W -f="\${Version}" piglit)), sid $0: $(wflinfo --platform surfaceless_egl --api gl \
    --profile core --version 4.5 2>&1 | sed -n "s/^OpenGL \(renderer\|version\) string: //p" | paste -sd";")"
rm -rf "$1/$0"
piglit run -p surfaceless_egl "$2" "$1/$0" >/dev/null 2>&1 || echo "piglit run: exit $?"
# each result, and the first line a failing test printed (the harness'"'"'s message)
python3 -c "import bz2, json, sys
for name, t in sorted(json.load(bz2.open(sys.argv[1]))[\"tests\"].items()):
    said = [l for l in (t[\"out\"] + t[\"err\"]).splitlines() if l.startswith(\"FAIL\")][:1]
    print(name.replace(\"@\", \"/\") + \": \" + t[\"result\"] + \"\".join(\"\\n    \" + l for l in said))" \
    "$1/$0/results.json.bz2"' "$driver" "$out" "$profile" \
            | tee -a "$RESULTS.newest.txt"
    done
}

# An implementation without the Mesa defects: NVIDIA's GL on the GPU machine (the device tool runs
# `bench/piglit_export.sh nvidia` there, carrying build/piglit-nv). `bundle` packs the built tests,
# piglit's framework libraries and runner and the Debian 12 libraries they load (not libGL/libEGL's
# vendor: the machine's NVIDIA one through its glvnd, Debian's glvnd only where it has none);
# `nvidia` runs each test as piglit does (-auto -fbo) and through `piglit run`.
BUNDLE=$ROOT/build/piglit-nv

bundle() {
    rm -rf "$BUNDLE"; mkdir -p "$BUNDLE/bin" "$BUNDLE/lib" "$BUNDLE/libc" "$BUNDLE/glvnd" "$BUNDLE/py" "$BUNDLE/tests"
    for exe in $(executables); do cp "$SRC/bin/$exe" "$BUNDLE/bin/"; done
    cp -L "$SRC/lib/libpiglitutil_gl.so.0" "$SRC/lib/libpiglitutil.so.0" "$BUNDLE/lib/"
    local d=/lib/x86_64-linux-gnu
    for l in libxkbcommon.so.0 libpng16.so.16 libwaffle-1.so.0 libX11.so.6 libwayland-client.so.0 libstdc++.so.6 \
             libgcc_s.so.1 libz.so.1 libudev.so.1 libX11-xcb.so.1 libxcb.so.1 libffi.so.8 libXau.so.6 libXdmcp.so.6 \
             libbsd.so.0 libmd.so.0 libgbm.so.1 libwayland-egl.so.1 libdrm.so.2 libwayland-server.so.0 libexpat.so.1; do
        cp -L "$d/$l" "$BUNDLE/lib/"
    done
    for l in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 ld-linux-x86-64.so.2; do cp -L "$d/$l" "$BUNDLE/libc/"; done
    for l in libGL.so.1 libEGL.so.1 libGLdispatch.so.0 libGLX.so.0 libOpenGL.so.0; do cp -L "$d/$l" "$BUNDLE/glvnd/"; done
    cp -r /usr/lib/python3/dist-packages/mako "$BUNDLE/py/"
    cp -r "$SRC/piglit" "$SRC/framework" "$BUNDLE/"
    cp -r "$SRC"/tests/*.py "$SRC/tests/py_modules" "$BUNDLE/tests/"
    du -sh "$BUNDLE"
}

nvidia() {
    local b=$BUNDLE path=$BUNDLE/lib
    ldconfig -p | grep -q 'libEGL.so.1 ' || path=$path:$b/glvnd
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
    ldd --version | head -1
    for plat in surfaceless_egl gbm; do
        echo "## PIGLIT_PLATFORM=$plat"
        for exe in $(ls "$b/bin"); do                   # the export's list is not carried
            echo "# $exe"
            PIGLIT_PLATFORM=$plat LD_LIBRARY_PATH=$path timeout 60 "$b/bin/$exe" -auto -fbo 2>&1 | tail -4 || true
        done
    done
    echo "## piglit run -p surfaceless_egl"
    local filter; filter=$(cut -d'|' -f1 <<< "$TESTS" | paste -sd'|')
    (cd "$b" && LD_LIBRARY_PATH=$path PYTHONPATH=$b/py PIGLIT_BUILD_DIR=$b timeout 300 python3 ./piglit run \
        -p surfaceless_egl -t "$filter" tests/opengl.py "${OUT:-/tmp}/nvidia" >/dev/null 2>&1 \
        && PYTHONPATH=$b/py python3 ./piglit summary console "${OUT:-/tmp}/nvidia" | grep -E ': (pass|fail|skip|crash|warn|timeout)') || echo "piglit run failed"
}

step=${1:-all}
case $step in
    fetch|configure|add|build|run|newest|bundle|nvidia) $step ;;
    all) fetch; configure; add; build; run ;;
    *) echo "usage: $0 [fetch|configure|add|build|run|newest|bundle|nvidia|all]" >&2; exit 2 ;;
esac
