"""Alembic migrations of the results history's schema (harness/history/store.py runs them)."""
