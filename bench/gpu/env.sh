# Sourced by bench/gpu/run.sh (and usable alone, from the repository root): makes the lent
# GPU machine able to run the harness. See run.sh for what .gl/, .whl/ and .vvl/ hold.
export PYTHONUNBUFFERED=1 XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
# The part scripts' clock (explorations.sh, zink_system_evidence.sh): PART_SECONDS from when this is sourced.
deadline=$((SECONDS + ${PART_SECONDS:-560}))
left() { echo $((deadline - SECONDS)); }
step() { echo; echo "== $(date +%T) [$(left) s left] $*"; }

if ! ldconfig -p | grep -q 'libvulkan.so.1 ' && ls .gl/lib*.deb >/dev/null 2>&1; then
    for deb in .gl/lib*.deb; do dpkg -x "$deb" /; done
    ldconfig
fi
if ! command -v glslangValidator >/dev/null && ls .gl/glslang-tools_*.deb >/dev/null 2>&1; then
    dpkg -x .gl/glslang-tools_*.deb /tmp/glslang
    export PATH=/tmp/glslang/usr/bin:$PATH
fi
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site:$PWD
fi
nv=/usr/local/nvidia/share
if [ -f $nv/vulkan/icd.d/nvidia_icd.json ]; then
    export VK_DRIVER_FILES=$nv/vulkan/icd.d/nvidia_icd.json
fi
nv_egl=$nv/glvnd/egl_vendor.d/10_nvidia.json
[ -f $nv_egl ] || nv_egl=
if ls .vvl/*.deb >/dev/null 2>&1; then     # the Khronos validation layer, for --vk-validation
    for deb in .vvl/*.deb; do dpkg -x "$deb" /tmp/vvl; done
    export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
    export LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# Mesa (for zink-system) from .mesa/*.deb, unpacked into /tmp/mesa, never into /. Libraries the
# machine already has stay the machine's own: older copies ahead of them could break its driver.
use_mesa() {
    local deb lib name
    for deb in .mesa/*.deb; do dpkg -x "$deb" /tmp/mesa; done
    mkdir -p /tmp/mesa/only
    for lib in /tmp/mesa/usr/lib/x86_64-linux-gnu/lib*.so.*; do
        name=$(basename "$lib")
        case $name in
            libEGL_mesa*|libglapi*|libgbm*) ;;
            *) ldconfig -p | grep -q "^\s*$name " && continue ;;
        esac
        ln -sf "$lib" /tmp/mesa/only/
    done
    sed "s|libEGL_mesa.so.0|/tmp/mesa/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0|" \
        /tmp/mesa/usr/share/glvnd/egl_vendor.d/50_mesa.json > /tmp/mesa/50_mesa.json
    # Mesa's vendor first, so that EGL gives zink; NVIDIA's after it: without its EGL vendor,
    # NVIDIA's Vulkan driver makes no instance ("Found no drivers!", seen with zink_probe.py).
    export __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/mesa/50_mesa.json${nv_egl:+:$nv_egl}
    # Prepended: the machine finds its own driver's libraries through LD_LIBRARY_PATH too, and
    # without them NVIDIA's Vulkan ICD loads but cannot make an instance ("Found no drivers!").
    export LD_LIBRARY_PATH=/tmp/mesa/only${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LIBGL_DRIVERS_PATH=/tmp/mesa/usr/lib/x86_64-linux-gnu/dri
}

# Mesa from .mesa/*.deb as an install prefix for --mesa (HARNESS_MESA), for a Mesa whose packages
# the machine's libraries do not cover (bookworm-backports' 25.0.7, bin/fetch-mesa's debs, with
# the Debian 12 libraries they link: libllvm15, libz3-4, libxml2, libicu72, libsensors5,
# libxcb*, libwayland*...). Mesa's own packages and libdrm are unpacked into /tmp/mesa-VERSION
# (never into /), the rest into /tmp/mesa-deps; of those, only the libraries the machine lacks
# (by soname, ldconfig -p) are linked into the prefix's library folder, which --mesa puts ahead on
# LD_LIBRARY_PATH: a library the machine has stays the machine's own (an older Debian copy ahead
# of it could break NVIDIA's driver). Prints the prefix on stdout, what it took on stderr.
mesa_prefix() {
    local deb name version prefix deps lib libdir taken=()
    version=$(dpkg-deb -f .mesa/mesa-libgallium_*.deb Version) || return 1
    prefix=/tmp/mesa-${version%%-*} deps=/tmp/mesa-deps
    libdir=$prefix/usr/lib/x86_64-linux-gnu
    rm -rf "$prefix" "$deps"
    for deb in .mesa/*.deb; do
        case $(dpkg-deb -f "$deb" Package) in
            mesa-*|libgl1-mesa-dri|libegl-mesa0|libgbm1|libdrm*) dpkg -x "$deb" "$prefix" ;;
            *) dpkg -x "$deb" "$deps" ;;
        esac
    done
    for lib in "$deps"/usr/lib/x86_64-linux-gnu/lib*.so.* "$deps"/lib/x86_64-linux-gnu/lib*.so.*; do
        name=$(basename "$lib")
        [[ $name =~ \.so\.[0-9]+$ ]] || continue           # sonames only
        [ -e "$libdir/$name" ] && continue
        ldconfig -p | grep -q "^[[:space:]]*$name " && continue
        ln -s "$lib" "$libdir/$name"
        taken+=("$name")
    done
    echo "mesa_prefix: Mesa $version in $prefix; Debian 12 libraries the machine lacks, taken from .mesa:" \
         "${taken[*]:-none}" >&2
    LD_LIBRARY_PATH=$libdir ldd "$libdir"/libgallium-*.so "$libdir"/libEGL_mesa.so.0 | grep 'not found' >&2
    echo "$prefix"
}

# Mesa from .mesa/*.deb as bin/fetch-mesa's whole runtime closure (its mesa/.apt/SUITE/archives:
# the Mesa, LLVM, libstdc++, glibc...), for a Mesa built for a newer C library than the machine's
# (sid's 26.2.6 needs glibc 2.43; the machine's Ubuntu 24.04 has 2.39). Unpacked with the project's
# own unpack (harness/mesa/fetch.py: glibc's packages into libc/) into /tmp/mesa-VERSION, less
# mesa-vulkan-drivers (zink-system takes the machine's Vulkan driver) and libc-gconv-modules-extra,
# if present. --mesa on that folder starts the target's processes under its own loader
# (harness/mesa/runtime.py), so none of it goes on LD_LIBRARY_PATH and nothing is linked beside the
# machine's libraries. Prints the folder on stdout, what it unpacked on stderr.
mesa_closure() {
    local version prefix
    version=$(dpkg-deb -f .mesa/mesa-libgallium_*.deb Version) || return 1
    prefix=/tmp/mesa-${version#*:}
    rm -rf "$prefix"
    python3 - "$prefix" .mesa/*.deb <<'PY' || return 1
import subprocess, sys
from pathlib import Path
from harness.mesa.fetch import unpack
LEFT_OUT = {"mesa-vulkan-drivers", "libc-gconv-modules-extra"}
debs, left = [], []
for deb in map(Path, sys.argv[2:]):
    name = subprocess.run(["dpkg-deb", "-f", str(deb), "Package"], capture_output=True, text=True,
                          check=True).stdout.strip()
    (left if name in LEFT_OUT else debs).append(deb)
unpack(debs, Path(sys.argv[1]))
print(f"mesa_closure: {len(debs)} packages into {sys.argv[1]}"
      + (f", left out {' '.join(d.name for d in left)}" if left else ""), file=sys.stderr)
PY
    echo "$prefix"
}

# The wheels of .whl/base (and .whl/slim, where carried) into /tmp/site, unless the machine's
# Python already has the harness's GL and Vulkan bindings: the part scripts that carry the wheels
# in sub-folders (the 64 MiB carry leaves no room for all of .whl/).
install_base_wheels() {
    python3 -c 'import OpenGL, vulkan' 2>/dev/null && return 0
    ls .whl/base/*.whl >/dev/null 2>&1 || return 0
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
        .whl/base/*.whl $(ls .whl/slim/*.whl 2>/dev/null) || return 1
    export PYTHONPATH=/tmp/site:$PWD
}

# zink over NVIDIA's Vulkan (the target zink-system): .mesa/'s closure as --mesa (HARNESS_MESA),
# NVIDIA's EGL vendor and the EGL device platform (the machine has no DRM node).
use_zink_system() {
    HARNESS_MESA=$(mesa_closure) || return 1
    export HARNESS_MESA HARNESS_EGL_PLATFORM=device
    if [ -n "$nv_egl" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl; fi
}
