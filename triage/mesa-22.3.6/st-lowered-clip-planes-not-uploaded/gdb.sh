#!/bin/sh
# Run shader_runner on zink under gdb with one of this folder's scripts, on a Mesa build with
# debug information (triage/mesa-25.0.7/debug-info.sh BUILD src/mesa/state_tracker/ src/mesa/main/state.c).
#   triage/mesa-22.3.6/st-lowered-clip-planes-not-uploaded/gdb.sh BUILD SCRIPT FILE...
# SCRIPT: st-constants.gdb (logs the TES variants and constant uploads per draw) or
#         simulated-fix.gdb (uploads the VS/TES/GS constants after each variant update).
set -eu
build=$(cd "$1" && pwd); script=$2; shift 2
eval "$(PYTHONPATH="${PYTHONPATH:-$(pwd)}" .venv/bin/python -m harness env zink --mesa "$build")"
export PIGLIT_PLATFORM=surfaceless_egl
exec gdb -q -batch -nx -x "$script" --args $HARNESS_RUN /usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner "$@" -auto -fbo
