"""Functional tests: components against the real MariaDB, RabbitMQ and Redis."""
