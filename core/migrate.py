"""`python -m core.migrate`: create or upgrade the database schema (Alembic) for the
configured DATABASE_URL (or the SQLite file in DATA_DIR). The bot and the panel also migrate
at start-up; `make run` calls this first so the two never race on a fresh database."""
from __future__ import annotations

import asyncio
from pathlib import Path

from core.settings import get_settings
from core.storage.db import migrate


def main() -> None:
    settings = get_settings()
    Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    asyncio.run(migrate(settings.resolved_database_url()))
    print(f"Via Livre: banco de dados pronto ({settings.municipality}).")


if __name__ == "__main__":
    main()
