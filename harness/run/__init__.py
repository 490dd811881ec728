"""The run core: one case run, judged and decided against its baseline; the journal; reproducers; shards."""
