"""Functional tests of masakari-engine (MariaDB, RabbitMQ, processes)."""
