"""The one scheduler: how many processes and executor children a run uses (`--jobs N|auto`,
layout.py), the pipeline that keeps each child fed (pipeline.py), and the processes that split a
run and merge what they wrote (processes.py). Every front end goes through it: pytest with or
without `-n`, `harness parallel`, the release matrix (which runs pytest), exploration and bisect
(one process, their own children)."""
