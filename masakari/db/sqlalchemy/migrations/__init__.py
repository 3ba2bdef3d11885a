"""Alembic environment and revision scripts of the masakari database."""
