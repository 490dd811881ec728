#!/bin/sh
# Run every variant on zink over lavapipe of each Mesa given (default: 25.0.7 and 26.2.6), from
# the repository root: triage/mesa-26.2.6/zink-separable-dvec-array-bitcast/variants/run.sh [MESA...]
# Prints: file, then per Mesa the exit status and piglit's last line (139: SIGSEGV).
dir=$(dirname "$0")
[ $# -gt 0 ] || set -- mesa/25.0.7-2+deb13u1 mesa/26.2.6-1
for f in "$dir"/*.shader_test; do
    line=$(basename "$f" .shader_test)
    for m in "$@"; do
        out=$(PIGLIT_PLATFORM=surfaceless_egl ${PYTHON:-.venv/bin/python} -m harness exec zink --mesa "$m" -- \
              /usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner "$f" -auto -fbo 2>&1)
        rc=$?
        case "$out" in *'"result": "pass"'*) r=pass;; *'"result": "fail"'*) r=fail;; *) r=other;; esac
        [ $rc = 139 ] && r=SIGSEGV
        line="$line	$r"
    done
    echo "$line"
done
