"""Functional tests: components against real MariaDB, RabbitMQ and Redis."""
