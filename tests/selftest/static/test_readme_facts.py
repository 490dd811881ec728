"""The README's facts that code can check: the status order is harness/model/status.py's, and
each family's row gives the number of cases the family generates."""
from __future__ import annotations

import re

import pytest
from conftest import ROOT, generated

from harness.model.status import Status

GUIDE = (ROOT / "README.md").read_text()
# its lines joined, as a reader reads them
WORDS = " ".join(GUIDE.split())


def test_the_readme_orders_every_status_as_the_model_does():
    order = " < ".join(status.value for status in sorted(Status))
    assert order in WORDS, f"README.md should give the order {order}"


@pytest.mark.parametrize("family", ["tess", "draw_params", "varyings", "primitives"])
def test_a_familys_row_counts_its_cases(family):
    row = re.search(rf"^\| `tests/{family}/` \| (\d+) cases \|", GUIDE, re.M)
    assert row, f"no row for tests/{family}/ in README.md's family table"
    assert int(row.group(1)) == len(generated(family))
