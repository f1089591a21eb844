"""Benchmarks run by `make bench` (`python -m benchmarks`); see benchmarks/README.md."""
