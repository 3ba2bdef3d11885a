"""SQLAlchemy models and the alembic migrations of the main database."""
