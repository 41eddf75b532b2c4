"""Demos a newcomer runs: `python3 -m opweave.demo.mlp` (or `make demo`)."""
