"""Which component is at fault (blame) and which commit (bisect)."""
