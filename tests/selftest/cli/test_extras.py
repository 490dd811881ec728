"""A command whose extra is not installed says so in one line (exit 2), naming the extra and how to
install it; a conformance run never needs the history's libraries (docs/decisions.md#history-extra)."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

# The child runs the command with the libraries hidden (None in sys.modules: their import fails).
HIDDEN = """import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
from harness.__main__ import main
sys.exit(main(sys.argv[2:]))
"""
HISTORY_LIBRARIES = "sqlalchemy,alembic,psycopg,kcidb_io"


def without(libraries: str, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDDEN, libraries, *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_history_and_dashboard_without_the_history_extra_name_it():
    for argv in (["history", "runs"], ["dashboard", "--static", "/nonexistent/out"]):
        proc = without(HISTORY_LIBRARIES, *argv)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith(f"python -m harness {argv[0]}: needs the 'history' extra, not installed here")
        assert "pip install -e '.[history]'" in proc.stderr


def test_the_other_commands_never_import_the_history_libraries():
    """Every other command's parser starts with the libraries hidden (that a conformance run's
    processes import none of them was checked on a run: docs/decisions.md#history-extra)."""
    assert without(HISTORY_LIBRARIES, "--help").returncode == 0
    for command in ("targets", "compare", "merge", "export", "blame", "parallel", "explore", "matrix"):
        proc = without(HISTORY_LIBRARIES, command, "--help")
        assert proc.returncode == 0 and "extra" not in proc.stderr, (command, proc.stderr[-2000:])


def test_a_missing_module_of_no_extra_is_still_a_harness_fault():
    from harness.__main__ import missing_extra
    assert missing_extra(ModuleNotFoundError("No module named 'sqlalchemy.orm'", name="sqlalchemy.orm")) == (
        "history", "sqlalchemy.orm")
    assert missing_extra(ModuleNotFoundError("No module named 'numpy'", name="numpy")) is None
    assert missing_extra(ImportError("cannot import name 'x' from 'sqlalchemy'", name="sqlalchemy")) is None
