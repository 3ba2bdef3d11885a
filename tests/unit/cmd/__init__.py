"""Unit tests of the console scripts."""
