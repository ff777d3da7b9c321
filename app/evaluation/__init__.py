"""Evaluation harness: the dev and SWE-bench benchmarks, baselines and reports."""
