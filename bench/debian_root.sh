# A Debian root made with debootstrap, for the bench scripts that run something on another Debian
# release than the host's (bench/debian13.sh, bench/piglit_newest.sh). Sourced, not run; each
# function takes the caller's name first, which prefixes its messages.
#
#   debian_root NAME ROOTFS STAMP SUITE INCLUDE MIRROR [NICE]
#       builds ROOTFS once (debootstrap --variant=minbase --include=INCLUDE SUITE), marked built by
#       the file STAMP, which a later run finds and reuses; installs debootstrap here if
#       missing; SUITE's sources.list lines come from $ROOT_SOURCES (default "deb MIRROR SUITE
#       main"); NICE, if given, runs debootstrap under `nice -n NICE`. Exits 2 on failure.
#   site_config NAME ROOTFS
#       the host's site configuration that a runner of this network needs in any root:
#       resolv.conf, CA certificates added under /usr/local/share/ca-certificates (an egress
#       proxy's), /etc/pip.conf, and the apt.conf.d snippets no package owns (here
#       Acquire::Check-Valid-Until "false": the registry is a dated snapshot).
#   mnt NAME TARGET MOUNT-ARGS...
#       mounts TARGET (once), to be unmounted, last first, when the script exits.
#   mount_system NAME ROOTFS
#       /proc, /sys, /dev, /dev/pts and a tmpfs on /dev/shm in ROOTFS.

debian_root() {
    local name=$1 rootfs=$2 stamp=$3 suite=$4 include=$5 mirror=$6 nice=${7:-} t0
    if [ -e "$stamp" ]; then
        echo "$name: reusing the root in $rootfs (built $(cat "$stamp"))" >&2
        return
    fi
    if ! command -v debootstrap >/dev/null; then
        echo "$name: installing debootstrap" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null \
            || { echo "$name: cannot install debootstrap" >&2; exit 2; }
    fi
    if [ -d "$rootfs" ] && [ -n "$(ls -A "$rootfs" 2>/dev/null)" ]; then
        echo "$name: $rootfs exists without $stamp (an interrupted build?): remove it first" >&2
        exit 2
    fi
    mkdir -p "$rootfs"
    echo "$name: debootstrap --variant=minbase --include=$include $suite $rootfs $mirror" >&2
    t0=$(date +%s)
    if ! ${nice:+nice -n "$nice"} debootstrap --variant=minbase --include="$include" "$suite" "$rootfs" "$mirror" \
            >"$rootfs.debootstrap.log" 2>&1; then
        echo "$name: debootstrap failed, last lines of $rootfs.debootstrap.log:" >&2
        tail -n 20 "$rootfs.debootstrap.log" >&2
        exit 2
    fi
    printf '%s\n' "${ROOT_SOURCES:-deb $mirror $suite main}" > "$rootfs/etc/apt/sources.list"
    date -u +%FT%TZ > "$stamp"
    echo "$name: root built in $(( $(date +%s) - t0 )) s" >&2
}

site_config() {
    local name=$1 rootfs=$2 f
    cp -L /etc/resolv.conf "$rootfs/etc/resolv.conf"
    if compgen -G '/usr/local/share/ca-certificates/*' >/dev/null; then
        cp -rL /usr/local/share/ca-certificates/. "$rootfs/usr/local/share/ca-certificates/"
        chroot "$rootfs" update-ca-certificates >/dev/null 2>&1 || echo "$name: update-ca-certificates failed" >&2
    fi
    [ -f /etc/pip.conf ] && cp -L /etc/pip.conf "$rootfs/etc/pip.conf"
    for f in /etc/apt/apt.conf.d/*; do
        [ -f "$f" ] && ! dpkg -S "$f" >/dev/null 2>&1 && cp -L "$f" "$rootfs/etc/apt/apt.conf.d/"
    done
}

MOUNTED=()
_unmount_all() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTED[i]}" 2>/dev/null; done
}
trap _unmount_all EXIT
trap 'exit 130' INT TERM

mnt() {
    local name=$1 target=$2
    shift 2
    mountpoint -q "$target" && return 0
    mkdir -p "$target"
    mount "$@" "$target" || { echo "$name: mount $* $target failed" >&2; exit 2; }
    MOUNTED+=("$target")
}

mount_system() {
    local name=$1 rootfs=$2
    mnt "$name" "$rootfs/proc" -t proc proc
    mnt "$name" "$rootfs/sys" --bind /sys
    mnt "$name" "$rootfs/dev" --bind /dev
    mnt "$name" "$rootfs/dev/pts" --bind /dev/pts
    mnt "$name" "$rootfs/dev/shm" -t tmpfs -o mode=1777 shm
}
