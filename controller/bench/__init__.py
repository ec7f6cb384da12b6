"""Benchmarks behind `shogi-robot bench ...`: each prints its figures; none asserts timings."""
