"""Storage layer: SQLAlchemy 2 async models and migrations for SQLite and PostgreSQL,
the hash-chained timeline, the message outbox, evidence files and the spatial cell index.

Import the module you need (core.storage.db, core.storage.models, ...): this package itself
loads nothing, so a pure module may use core.storage.evidence's image bounds or
core.storage.errors without loading a database driver."""
