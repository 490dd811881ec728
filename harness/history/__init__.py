"""The results history: runs in a database (SQLite or PostgreSQL), the questions a CI maintainer asks of them, and the dashboard."""
