"""Self-tests across layers: real cases of the families run end to end on real drivers, with faults planted (a package, so that its test modules' names need not be unique across folders)."""
