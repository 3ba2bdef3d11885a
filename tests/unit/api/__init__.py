"""Unit tests of masakari.api."""
