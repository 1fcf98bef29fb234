"""Other ways to solve the same puzzle, measured against the project's planner."""
