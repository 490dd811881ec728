#!/usr/bin/env bash
# A fetched Mesa run from a Debian 13 (trixie) host (the README's commands on a newer Debian), in a debootstrap root.
#
#   bash bench/debian13.sh [ROOT_DIR]        (as root; default ROOT_DIR /tmp/debian13-root)
#
# 1. Builds a Debian 13 root with debootstrap (variant minbase, plus git, python3, python3-venv,
#    ca-certificates, debian-archive-keyring) in ROOT_DIR, once: ROOT_DIR/.debian13-root-built
#    marks it built and a later run reuses it (remove the folder to build it again).
#    DEBIAN_MIRROR overrides http://deb.debian.org/debian. Installs debootstrap here if missing.
# 2. Clones this repository at HEAD into ROOT_DIR/root/gl-layer-harness (a fresh clone every run;
#    no .venv, no mesa/), bind-mounts /proc, /sys, /dev (and a tmpfs on /dev/shm) and chroots in.
# 3. Inside, as a new user on Debian 13 would (logs in ROOT_DIR/root/debian13-logs/):
#    - the README's two commands, last: `bin/selftest` and `bin/conformance` (every family on
#      the system's Mesa, gated by its baseline, baselines/mesa-25.0.7-2+deb13u1.csv);
#    - the README's set-up (`source bin/setup.sh`: Debian packages, .venv);
#    - `bin/fetch-mesa 26.2.6-1` (sid's Mesa, glibc 2.43 > trixie's 2.41: runs under its own
#      loader) and `bin/fetch-mesa bookworm` (Mesa 22.3.6, glibc 2.36 < 2.41: runs under the
#      host's loader, its libc off the library path);
#    - `harness targets llvmpipe zink lavapipe` on the system's Mesa (trixie's 25.0.7) and with
#      --mesa on each fetched one;
#    - `bin/conformance -k draw_params -p no:cacheprovider` on each of the three (354 cases per
#      target, each gated by its Mesa's baseline where there is one);
#    - `harness exec zink --mesa mesa/26.2.6-1 -- sh -c 'glslangValidator --version'` (a host
#      tool started with a newer Mesa's environment must still run).
# 4. Prints each step's exit status, pytest's summary lines, each target's renderer and Mesa
#    version lines; exits 1 if any step failed.
#
# SELFTEST_RUNS=N (self-tests that must never fail at random): instead of step 3, the set-up, then `bin/selftest
# -p no:cacheprovider` N times in a row in the one fresh clone; each run's summary line, its
# wall time and the load average after it are printed (and logged as selftest-K.log); exits 1
# if any run failed.
#
# Last result, 2026-11-24, harness 3a52909, the root already built (635 s; debootstrap adds
# about 60 s), Debian 13.8, Python 3.13.5, glibc 2.41, every step exit 0:
#   targets: system 25.0.7-2+deb13u1 (LLVM 19.1.7), 26.2.6-1 (own loader, LLVM 22.1.8) and
#     22.3.6-1+deb12u2 (host's loader, LLVM 15.0.6): llvmpipe, zink, lavapipe available on each,
#     each reporting its Mesa
#   -k draw_params: system 1036 passed, 26 skipped; 26.2.6 1016 passed, 46 expected fail (the
#     zink crashes of baselines/mesa-26.2.6-1.csv); 22.3.6 1036 passed, 26 skipped
#   host tool under 26.2.6: Glslang Version 11:15.2.0
#   bin/selftest: 1158 passed
#   bin/conformance (gated on baselines/mesa-25.0.7-2+deb13u1.csv and its flakes file): 9655
#     passed, 144 skipped, 196 expected fail, 7 flake
set -uo pipefail

REPO=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel) || exit 2
source "$REPO/bench/debian_root.sh"
ROOTFS=$(realpath -m "${1:-/tmp/debian13-root}")
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
STAMP=$ROOTFS/.debian13-root-built
EXTRA=git,python3,python3-venv,ca-certificates,debian-archive-keyring
CLONE=/root/gl-layer-harness                       # inside the root
START=$(date +%s)

[ "$(id -u)" = 0 ] || { echo "debian13: run as root (debootstrap, mount, chroot)" >&2; exit 2; }

# 1. the root
ROOT_SOURCES="deb $MIRROR trixie main
deb $MIRROR trixie-updates main" debian_root debian13 "$ROOTFS" "$STAMP" trixie "$EXTRA" "$MIRROR"

# 2. the clone, the mounts
HEAD=$(git -C "$REPO" rev-parse HEAD)
rm -rf "$ROOTFS$CLONE"
git clone -q "$REPO" "$ROOTFS$CLONE" && git -C "$ROOTFS$CLONE" checkout -q "$HEAD" \
    || { echo "debian13: git clone $REPO failed" >&2; exit 2; }
site_config debian13 "$ROOTFS"
mount_system debian13 "$ROOTFS"

# 3. inside
cat > "$ROOTFS/root/debian13-selftest.sh" <<'INNER'
set -uo pipefail
cd "$1"; RUNS=$2
LOGS=/root/debian13-logs
rm -rf "$LOGS"; mkdir -p "$LOGS"
echo "Debian $(cat /etc/debian_version), $(python3 --version), $(ldd --version | head -n1)," \
     "harness $(git rev-parse --short HEAD)"
bash -c 'source bin/setup.sh' >"$LOGS/setup.log" 2>&1 || { echo "setup failed: $LOGS/setup.log"; tail -n 20 "$LOGS/setup.log"; exit 2; }
dpkg-query -W -f='system Mesa: ${Package} ${Version}\n' libgl1-mesa-dri 2>/dev/null
FAILED=0
for ((k = 1; k <= RUNS; k++)); do
    t0=$(date +%s)
    bin/selftest -p no:cacheprovider >"$LOGS/selftest-$k.log" 2>&1
    rc=$?
    [ "$rc" = 0 ] || FAILED=1
    echo "selftest run $k/$RUNS: rc=$rc, $(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1-3 /proc/loadavg):" \
         "$(grep -E '^=+ .*(passed|failed|error).* in [0-9.]+s' "$LOGS/selftest-$k.log" | tail -n1)"
    grep -E '^(FAILED|ERROR) ' "$LOGS/selftest-$k.log" | head -n 20 | sed 's/^/   /'
done
exit "$FAILED"
INNER
if [ -n "${SELFTEST_RUNS:-}" ]; then
    chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        bash /root/debian13-selftest.sh "$CLONE" "$SELFTEST_RUNS"
    rc=$?
    echo "debian13: harness $(git -C "$REPO" rev-parse --short HEAD), $(date -u +%FT%TZ)," \
         "$(( $(date +%s) - START )) s in all, exit $rc"
    exit "$rc"
fi
cat > "$ROOTFS/root/debian13-inner.sh" <<'INNER'
set -uo pipefail
cd "$1"
LOGS=/root/debian13-logs
rm -rf "$LOGS"; mkdir -p "$LOGS"
STEPS=(); FAILED=0
step() {    # step NAME COMMAND...: its output to $LOGS/NAME.log and to stdout, its status noted
    local name=$1 t0 rc; shift
    echo "==== $name: $*"
    t0=$(date +%s)
    "$@" 2>&1 | tee "$LOGS/$name.log"
    rc=${PIPESTATUS[0]}
    STEPS+=("$(printf '%-28s rc=%-3s %5ss  %s' "$name" "$rc" "$(( $(date +%s) - t0 ))" "$*")")
    [ "$rc" = 0 ] || FAILED=1
    return "$rc"
}
echo "Debian $(cat /etc/debian_version), $(python3 --version), $(ldd --version | head -n1)," \
     "harness $(git rev-parse --short HEAD)"

step setup bash -c 'source bin/setup.sh'
step fetch-sid bin/fetch-mesa 26.2.6-1
SID=$(grep -E '^/.*/mesa/[^/ ]+$' "$LOGS/fetch-sid.log" | tail -n1); SID=mesa/$(basename "${SID:-26.2.6-1}")
step fetch-bookworm bin/fetch-mesa bookworm
BOOKWORM=$(grep -E '^/.*/mesa/[^/ ]+$' "$LOGS/fetch-bookworm.log" | tail -n1); BOOKWORM=mesa/$(basename "${BOOKWORM:-bookworm}")
dpkg-query -W -f='system Mesa: ${Package} ${Version}\n' libgl1-mesa-dri 2>/dev/null

step targets-system .venv/bin/python -m harness targets llvmpipe zink lavapipe
step targets-sid .venv/bin/python -m harness targets llvmpipe zink lavapipe --mesa "$SID"
step targets-bookworm .venv/bin/python -m harness targets llvmpipe zink lavapipe --mesa "$BOOKWORM"
K=(-k draw_params -p no:cacheprovider)
step conformance-system bin/conformance "${K[@]}" --results-dir results/system
step conformance-sid bin/conformance --mesa "$SID" "${K[@]}" --results-dir results/sid
step conformance-bookworm bin/conformance --mesa "$BOOKWORM" "${K[@]}" --results-dir results/bookworm
step host-tool-sid .venv/bin/python -m harness exec zink --mesa "$SID" -- sh -c 'glslangValidator --version'
# the README's two commands, as a new user runs them
step readme-selftest bin/selftest -p no:cacheprovider
step readme-conformance bin/conformance -p no:cacheprovider --flake-retries 1 --results-dir results/readme

echo
echo "==== summary (Debian $(cat /etc/debian_version), $(ldd --version | head -n1 | sed 's/.* //') C library)"
printf '%s\n' "${STEPS[@]}"
for t in system sid bookworm; do
    echo "-- targets $t"
    grep -E '^[a-z-]+( \(default\))?:|^  renderer:|^  Mesa |^  core  :|NOT AVAILABLE' \
        "$LOGS/targets-$t.log" | cut -c1-220
done
for t in system sid bookworm; do
    echo "-- conformance $t: $(grep -E '^=+ .*(passed|failed|error|skipped|deselected|no tests ran).* in [0-9.]+s' \
        "$LOGS/conformance-$t.log" | tail -n1)"
    # the short summary's non-pass lines, counted by status and target
    grep -E '^[A-Z]+ tests/.*\[[a-z-]+\]' "$LOGS/conformance-$t.log" \
        | sed -E 's/^([A-Z]+) .*\[([a-z-]+)\].*/\1 on \2/' | sort | uniq -c | sed 's/^/   /'
    grep -E '^(harness: |.*PytestConfigWarning: )' "$LOGS/conformance-$t.log" | sed -E 's/^ +/   /'
done
echo "-- host tool under zink of $SID: $(grep -m1 -i 'glslang' "$LOGS/host-tool-sid.log")"
for t in selftest conformance; do
    echo "-- bin/$t: $(grep -E '^conformance: ' "$LOGS/readme-$t.log" | head -n1)"
    echo "   $(grep -E '^=+ .*(passed|failed|error).* in [0-9.]+s' "$LOGS/readme-$t.log" | tail -n1)"
    grep -E '^(FAILED|ERROR|CRASH|TIMEOUT) ' "$LOGS/readme-$t.log" | head -n 20 | sed 's/^/   /'
done
exit "$FAILED"
INNER

chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash /root/debian13-inner.sh "$CLONE"
rc=$?
echo "debian13: harness $(git -C "$REPO" rev-parse --short HEAD), $(date -u +%FT%TZ)," \
     "$(( $(date +%s) - START )) s in all, exit $rc"
exit "$rc"
