"""Storage layer: SQLAlchemy 2 async models and migrations for SQLite and PostgreSQL,
the hash-chained timeline, the message outbox, evidence files and the spatial cell index."""
from core.storage.db import (Database, StorageUnavailable, create_engine, migrate,
                             translate_errors)

__all__ = ["Database", "StorageUnavailable", "create_engine", "migrate", "translate_errors"]
