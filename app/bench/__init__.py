"""The benchmark harness: evals over ../shared/bench, speed, live-index, graph and TUI benches,
and RESULTS.md, the dated measurement log. It may import anything; nothing imports it."""
