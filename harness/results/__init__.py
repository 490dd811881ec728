"""A run's files (results.json/csv, failures.csv, JUnit), comparisons of runs, the release matrix."""
