"""Seeded exploration of each family's parameter space, automatic reduction of failures, and
deduplicated findings (issue 31).

  space.py        the registry of family spaces
  choices.py      the strategies they share (a value no more complex than a given one)
  draw_params.py, tess.py, varyings.py
                  one space per family: Hypothesis strategies over the family's own builder
                  parameters, the builder call that makes a Case, and the reverse (a fixed case
                  back to parameters, so that fixed cases can be reduced too)
  ids.py          explored case ids (`<family>/explore/v1-<params>`), re-runnable by id
  signature.py    how a verdict fails: the signature reduction keeps, the key findings group by
  driver.py       a case on a real target through the run core: (status, message), batched
  ledger.py       the judged cases journaled as they land, --resume, the budget's clock
  search.py       Hypothesis engines: seeded exploration, and shrinking below a failing case
  findings.py     findings.json and a folder per finding with its reduced reproducer
  kept.py         findings kept as fixed cases (tests/<family>/kept.json)
  cli.py          `python -m harness explore` and `python -m harness reduce`

The oracle is always the family's: a space only chooses builder parameters; the builder
computes the expectations from the spec, as for the fixed lists.
"""
