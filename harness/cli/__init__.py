"""`python -m harness` commands, one module per command."""
