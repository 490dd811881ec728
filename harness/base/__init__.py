"""Below every layer: configuration read once (config), named profiling sections, Debian version order."""
