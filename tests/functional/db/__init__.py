"""Functional tests of the database layer on the real MariaDB server."""
