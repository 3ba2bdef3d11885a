"""Alembic revision scripts, one per schema change (alembic skips this)."""
