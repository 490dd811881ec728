"""Run `python -m harness ARGS` with each executor child started directly (no fork server)
under `gdb -batch`: the commands of $GDB_SCRIPT, where @LOG@ becomes this child's log file,
$GDB_LOG-<pid>-<n>.log (gdb must log to a file: the child's stdout is the executor's pipe).

    GDB_SCRIPT=triage/mesa-25.0.7/crash.gdb GDB_LOG=/tmp/g PYTHONPATH=$PWD \
        .venv/bin/python triage/mesa-25.0.7/run_under_gdb.py bisect-run CASE --target zink --mesa BUILD

Evidence gathering for triage/mesa-25.0.7 (docs/triage.md), not part of the harness."""
import os
import runpy
import sys

from harness.executor import executor
orig = executor.Executor._child_args
_n = 0
def child_args(self):
    launcher, args, env = orig(self)
    global _n
    _n += 1
    src = open(os.environ["GDB_SCRIPT"]).read()
    log = os.environ.get("GDB_LOG", "/tmp/harness-gdb") + f"-{os.getpid()}-{_n}.log"
    script = log + ".gdb"
    open(script, "w").write(src.replace("@LOG@", log))
    gdb = ["gdb", "-q", "-batch", "-nx", "-x", script, "--args"]
    if not launcher:
        launcher = []
    return [*gdb, *launcher], args, env
executor.Executor._child_args = child_args
orig_init = executor.Executor.__init__
def init(self, *a, **k):
    orig_init(self, *a, **k)
    self._fork = False
executor.Executor.__init__ = init
sys.argv = ["harness", *sys.argv[1:]]
runpy.run_module("harness", run_name="__main__")
