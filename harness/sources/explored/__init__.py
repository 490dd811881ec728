"""Hypothesis spaces over each family's builders, and the explored ids that rebuild a case from its parameters."""
