"""harness/cli/parallel.py: its usage on -h/--help; a first word that is not N|auto is bad input,
pytest's usage status (4)."""
from __future__ import annotations

import pytest

from harness.__main__ import main


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_prints_the_usage(flag, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["parallel", flag])
    assert exit.value.code == 0
    assert capsys.readouterr().out.startswith("usage: python -m harness parallel N|auto")


def test_a_first_word_that_is_no_count_is_bad_input(capsys):
    assert main(["parallel", "--target", "llvmpipe"]) == 4
    assert "positive integer or auto" in capsys.readouterr().err
