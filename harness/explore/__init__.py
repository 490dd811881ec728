"""Seeded exploration of each family's parameter space, automatic reduction of failures, and
deduplicated findings.

  signature.py    how a verdict fails: the signature reduction keeps, the key findings group by
  driver.py       a case on a real target through the run core: (status, message), batched;
                  a case the target's GL version refuses answered here, not sent
  ledger.py       the judged cases journaled as they land, --continue, the budget's clock
  search.py       seeded exploration (draws.Plain), and Hypothesis shrinking below a failing case
  findings.py     findings.json and a folder per finding with its reduced reproducer
  coverage.py     which findings the fixed lists also find (the failing fixed cases of the
                  baseline, run once and matched by signature)

What the search explores is a source of cases, in harness/sources/explored/: the registry of
family spaces (space.py), the two ways to draw a space's one description (draws.py: a seeded
random source for exploration, Hypothesis for strategies), the reduction strategies they share
(choices.py), one space per family (draw_params.py, tess.py, varyings.py: the family's own
builder parameters, drawn and reduced, the builder call that makes a Case, and the reverse, so
that fixed cases can be reduced too), explored case ids that rebuild their case (id_codec.py:
`<family>/explore/v1-<params>`) and findings kept as fixed cases (kept.py:
tests/<family>/kept.json). The commands `python -m harness explore` and `python -m harness
reduce` are harness/cli/explore.py.

The oracle is always the family's: a space only chooses builder parameters; the builder
computes the expectations from the spec, as for the fixed lists.
"""
