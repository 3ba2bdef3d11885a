"""Unit tests: in-process, SQLite and the fake oslo.messaging transport."""
