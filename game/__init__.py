"""The practice game: a free re-creation of Logo: Part 1 for the 48K Spectrum, and its build."""
