"""Numbers as shader_runner reads them (harness/sources/shader_test/values.py)."""
from __future__ import annotations

import pytest

from harness.sources.shader_test.values import as_float32, integer, number, numbers


def test_a_number_may_be_the_bits_of_a_float_and_ends_at_a_separator():
    assert number("0x3f800000") == 1.0
    assert number("0.5,") == 0.5 and number("2;") == 2.0
    assert integer("0x10") == 16 and integer("-3,") == -3


def test_numbers_counts_what_it_reads():
    assert numbers(["1", "", "2", "3", "4"], 4) == (1.0, 2.0, 3.0, 4.0)
    assert numbers(["1", "2", "3"], 2, extra_ok=True) == (1.0, 2.0)
    with pytest.raises(ValueError, match="expected 4 numbers, got 3"):
        numbers(["1", "2", "3"], 4)
    with pytest.raises(ValueError, match="expected 2 numbers, got 3"):
        numbers(["1", "2", "3"], 2)


def test_a_float_is_rounded_as_c_holds_it():
    assert as_float32(0.1) != 0.1 and abs(as_float32(0.1) - 0.1) < 1e-8
    assert as_float32(0.5) == 0.5
