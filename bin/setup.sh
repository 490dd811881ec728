# Sourced by bin/conformance and bin/selftest: installs what is missing, and nothing else.
# - Debian packages: the GL/EGL and Vulkan drivers (Mesa), glslang, Xvfb (GLFW self-test),
#   xauth (xvfb-run needs it), the Khronos validation layer (Vulkan backend self-test), and $SETUP_EXTRA_PACKAGES
#   (bin/selftest: chromium and chromium-driver, for the report's and the dashboard's browser tests;
#   postgresql, whose server the history self-tests start in a temporary folder)
# - with `--mesa mesa/VERSION` among the arguments and no such folder: that Mesa, fetched by
#   bin/fetch-mesa VERSION (a Debian package version, e.g. mesa/26.2.6-1)
# - Python packages: a virtual environment in .venv with this project installed (editable), with the
#   extras $SETUP_EXTRAS names (pyproject.toml's optional dependencies, comma-separated: bin/selftest's
#   "test,history", the GitLab template's history job's "history"; bin/conformance's none), and those
#   installed before for the same pyproject.toml
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
APT_PACKAGES=(libegl1 libgl1-mesa-dri libegl-mesa0 mesa-vulkan-drivers libvulkan1 glslang-tools xvfb xauth
              vulkan-validationlayers ${SETUP_EXTRA_PACKAGES:-})
PYTHON=${PYTHON:-python3}

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] || missing+=("$pkg")
done
"$PYTHON" -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

VENV="$ROOT/.venv"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
stamp=$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)
had_stamp= had_extras=                          # .venv/.installed: "STAMP EXTRAS"
{ read -r had_stamp had_extras < "$VENV/.installed"; } 2>/dev/null || true
extras=${SETUP_EXTRAS:-}
extras=$(printf '%s\n' ${extras//,/ } ${had_extras//,/ } | sort -u | paste -sd, -)
if [ "$had_stamp" != "$stamp" ] || [ "$extras" != "$had_extras" ]; then
    echo "setup: installing Python packages into .venv${extras:+ (extras: $extras)}" >&2
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT${extras:+[$extras]}"
    echo "$stamp $extras" > "$VENV/.installed"
fi
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then          # zink's Vulkan WSI warns without one
    export XDG_RUNTIME_DIR="${TMPDIR:-/tmp}/harness-runtime-$(id -u)"
    mkdir -p -m 700 "$XDG_RUNTIME_DIR"
fi
cd "$ROOT"
for ((i = 1; i <= $#; i++)); do              # the private Mesa a command asks for, if missing
    arg=${!i}
    if [ "$arg" = --mesa ]; then j=$((i + 1)); arg=--mesa=${!j:-}; fi
    case $arg in
        --mesa=*) folder=${arg#--mesa=}; folder=${folder#./}; folder=${folder#"$ROOT"/}
            if [[ $folder == mesa/* && ! -d $ROOT/$folder ]]; then
                fetched=$("$ROOT/bin/fetch-mesa" "${folder#mesa/}") || return 1
                [ "$fetched" = "$ROOT/$folder" ] || { echo "setup: --mesa $folder: bin/fetch-mesa put" \
                    "${folder#mesa/} in $fetched (folders are named by the full package version)" >&2; return 1; }
            fi ;;
    esac
done
