"""Tests of the simulated cloud, driven over real HTTP in-process."""
