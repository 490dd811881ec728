"""A case id's one name in file names and URLs (ids.file_name): the reproducer and observation
files, the report's anchors and image folders and the dashboard's case pages all spell it so."""
from __future__ import annotations

import re
import urllib.parse

from hypothesis import given, settings, strategies as st

from harness.model import ids
from harness.model.case import ID_RE

# What a case id holds (ID_RE): a family, then '/'-separated tokens of [A-Za-z0-9_.+-].
TOKEN = st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9_.+-]{0,40}\Z")
CASE_IDS = st.builds(lambda family, tokens: "/".join([family] + tokens),
                     st.from_regex(r"\A[a-z][a-z0-9_]{0,12}\Z"), st.lists(TOKEN, min_size=1, max_size=8))
# The history stores whatever names a results file gave: any text.
NAMES = st.one_of(CASE_IDS, st.text(min_size=1, max_size=300))
SAFE = re.compile(r"[A-Za-z0-9._+~=-]+")


def _safe(name: str) -> None:
    assert SAFE.fullmatch(name) and len(name) <= ids.NAME_LIMIT and name not in (".", ".."), name
    assert urllib.parse.quote(name, safe="+=~") == name         # a URL path segment or fragment as it is


@settings(max_examples=200)
@given(st.lists(NAMES, min_size=2, max_size=6, unique=True))
def test_distinct_ids_have_distinct_safe_names(names):
    made = [ids.file_name(name) for name in names]
    assert len(set(made)) == len(names)
    for name, one in zip(names, made):
        _safe(one)
        assert ids.file_name(name) == one                         # deterministic


@settings(max_examples=200)
@given(NAMES)
def test_a_name_reads_back_to_its_id(name):
    made = ids.file_name(name)
    start, cut = ids.case_of_name(made)
    assert start == name if not cut else name.startswith(start)


@given(CASE_IDS)
def test_a_case_ids_name_is_the_readable_one(case_id):
    assert ID_RE.match(case_id)
    if len(case_id) <= ids.NAME_LIMIT:              # what export, report and dashboard have always written
        assert ids.file_name(case_id) == case_id.replace("/", "~")


def test_examples():
    assert ids.file_name("tess/no-tcs/quads/equal/pv4/o2.5_3") == "tess~no-tcs~quads~equal~pv4~o2.5_3"
    assert ids.file_name("a/b~c d=e") == "a~b=7Ec=20d=3De" and ids.case_of_name("a~b=7Ec=20d=3De") == ("a/b~c d=e", False)
    assert ids.file_name("ünï/cödé[zink]") == "=C3=BCn=C3=AF~c=C3=B6d=C3=A9=5Bzink=5D"
    long = ids.file_name("explore/" + "x" * 400)
    assert len(long) == ids.NAME_LIMIT and ids.CUT in long and long != ids.file_name("explore/" + "x" * 399 + "y")
    for bad in ("a b", "a=zz", "a=2f", "=FF"):              # not a name file_name writes
        assert ids.case_of_name(bad) is None, bad
