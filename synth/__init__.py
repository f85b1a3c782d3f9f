"""Synthetic table scenes with exact ground truth, for tests, benchmarks and the demo recording."""
