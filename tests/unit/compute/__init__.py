"""Tests of the Nova client wrapper against the simulated cloud."""
