"""Targets and their child processes: spawning, framing, crash/timeout verdicts, batches."""
