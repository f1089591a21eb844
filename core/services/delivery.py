"""Delivering the messages core services queue (the outbox, core.storage.outbox): the bot's
sender claims what is due and records each outcome through here, so the faces reach storage
only through services."""
from __future__ import annotations

from core.storage.outbox import ClaimedMessage, claim_due, mark_failed, mark_sent

__all__ = ["ClaimedMessage", "claim_due", "mark_failed", "mark_sent"]
