"""Test-only backend: does to its child process what a broken driver would.

A case's params name the fault: none, segv, abort, exit, hang, garbage (control bytes and
invalid UTF-8 on stderr, then SIGSEGV). With `none` it reports `primitives_generated` equal to
the case's param `value`, so the verdict has something real to compare.
"""
from __future__ import annotations

import ctypes
import os
import sys
import time


class FaultBackend:
    def info(self) -> dict:
        return {"renderer": "fault injector", "vendor": "harness", "version": "0", "platform": "none",
                "profiles": {}}

    def run(self, case) -> dict:
        params = dict(case.params)
        fault = params.get("fault", "none")
        if fault == "garbage":
            sys.stderr.buffer.write(b"driver says \x00\x01\x1b[31m\xff\xfe not utf-8\n")
            sys.stderr.flush()
            fault = "segv"
        if fault == "segv":
            ctypes.string_at(0)
        elif fault == "abort":
            os.abort()
        elif fault == "exit":
            os._exit(3)
        elif fault == "hang":
            while True:
                time.sleep(3600)
        elif fault != "none":
            raise ValueError(f"unknown fault {fault!r}")
        return {"draws": [{"counts": {"primitives_generated": params.get("value", 0)}}]}
