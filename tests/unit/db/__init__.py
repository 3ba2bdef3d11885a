"""Unit tests of the database layer, on SQLite."""
