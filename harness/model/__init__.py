"""The case model: Case, statuses, the one case id, GL facts, observation layout, the families' names."""
