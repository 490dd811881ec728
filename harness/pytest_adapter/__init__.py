"""The pytest front end: options, collection, items, terminal words."""
