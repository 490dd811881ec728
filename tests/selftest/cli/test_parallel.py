"""harness/cli/parallel.py: its usage on -h/--help; a first word that is not N|auto is bad input."""
from __future__ import annotations

import pytest

from harness.cli import parallel
from harness.scheduler.processes import ParallelError


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_prints_the_usage(flag, capsys):
    assert parallel.main([flag]) == 0
    assert capsys.readouterr().out.startswith("usage: python -m harness parallel N|auto")


def test_a_first_word_that_is_no_count_is_bad_input():
    with pytest.raises(ParallelError, match="positive integer or auto"):
        parallel.main(["--target", "llvmpipe"])
