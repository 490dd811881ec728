"""Spaces over each family's builders (drawn by draws.py, reduced with Hypothesis), and the
explored ids that rebuild a case from its parameters."""
