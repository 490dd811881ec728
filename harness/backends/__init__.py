"""Backends run a Case on a driver and return the raw observation; they know nothing of pytest.

A backend has `info() -> dict` and `run(case) -> dict`, and raises these to say why not.
"""


class Skip(Exception):
    """The context lacks something the case requires; the message names it."""


class BackendError(Exception):
    """The driver did not do what the case asks (GL error, compile or link failure, ...)."""
