"""Static HTML dashboard of conformance results: per-target totals, per-family tables, targets
side by side per case, and each failure with its message, GLSL and images (html.write_report)."""
