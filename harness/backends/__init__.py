"""Backends run a Case on a driver and return the raw observation; they know nothing of pytest."""
