#!/bin/sh
# Add debug information to a meson build of Mesa without a full debug build.
#
# Re-runs, in place, the compile command (from compile_commands.json) of every object file
# whose source is under one of the given folders, with -g appended, then lets ninja relink
# the libraries. -g does not change the code generated, so the libraries behave as before
# (same -O1). Each object's modification time is put back to what it was: ninja's deps log
# (.ninja_deps) holds the object's mtime when it was built, and ninja rebuilds (without -g)
# any object newer than that ("stored deps info out of date"); the command in build.ninja,
# hashed in .ninja_log, is unchanged. The static archives holding the objects are removed so
# that ninja archives and links them again (only archiving and linking, no compiling).
#
# Usage: triage/mesa-25.0.7/debug-info.sh BUILD_DIR [FOLDER...]
#   default folders: the gallium draw module, gallivm, llvmpipe, zink, lavapipe, Vulkan runtime
# Example (this repository, Debian 13's 25.0.7 source, ~15 min on 2 cores):
#   nice -n 10 triage/mesa-25.0.7/debug-info.sh mesa-src/25.0.7-2+deb13u1/mesa-25.0.7/build-harness
# Check:  readelf -S BUILD_DIR/src/gallium/targets/dri/libgallium-*.so | grep debug_info
set -eu
build=$(cd "$1" && pwd); shift
[ $# -gt 0 ] || set -- src/gallium/auxiliary/draw/ src/gallium/auxiliary/gallivm/ \
    src/gallium/drivers/llvmpipe/ src/gallium/drivers/zink/ src/gallium/frontends/lavapipe/ \
    src/vulkan/runtime/
jobs=${JOBS:-2}
python3 - "$build" "$jobs" "$@" <<'EOF'
import json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
build, jobs, folders = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
# only the objects this build made (compile_commands.json also lists targets never built)
entries = [e for e in json.load(open(f"{build}/compile_commands.json"))
           if any(f in e["file"] for f in folders)
           and os.path.exists(os.path.join(e["directory"], e["output"]))]
def compile(e):
    out = os.path.join(e["directory"], e["output"])
    st = os.stat(out)
    r = subprocess.run(e["command"] + " -g", shell=True, cwd=e["directory"], capture_output=True, text=True)
    os.utime(out, ns=(st.st_atime_ns, st.st_mtime_ns))
    return e["output"], r.returncode, r.stderr[-2000:]
failed = 0
with ThreadPoolExecutor(jobs) as pool:
    for i, (out, rc, err) in enumerate(pool.map(compile, entries), 1):
        print(f"[{i}/{len(entries)}] {'ok  ' if rc == 0 else 'FAIL'} {out}", flush=True)
        if rc:
            failed += 1
            print(err, file=sys.stderr)
archives = {os.path.join(e["directory"], e["output"].split(".a.p/")[0] + ".a")
            for e in entries if ".a.p/" in e["output"]}
for a in sorted(archives):
    if os.path.exists(a):
        os.remove(a)
        print("removed, to be archived again:", a)
sys.exit(1 if failed else 0)
EOF
ninja -C "$build" -j"$jobs"
for lib in "$build"/src/gallium/targets/dri/libgallium-*.so "$build"/src/gallium/targets/lavapipe/libvulkan_lvp.so; do
    printf '%s: ' "$lib"; readelf -S "$lib" | grep -q debug_info && echo "has .debug_info" || echo "NO .debug_info"
done
