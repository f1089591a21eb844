"""One user's updates one at a time and in order, across bot workers: the per-chat
lock and the chat's state read under it live in core.storage.chatlock (a PostgreSQL advisory
lock; trivially one process on SQLite). The bot reaches them through this service."""
from __future__ import annotations

from core.storage.chatlock import ChatLocks, chat_state

__all__ = ["ChatLocks", "chat_state"]
