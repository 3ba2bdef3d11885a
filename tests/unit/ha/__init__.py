"""Unit tests of masakari.ha."""
