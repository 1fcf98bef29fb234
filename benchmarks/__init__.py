"""Scripts that print speed figures, and the corpora and peer solvers they measure."""
