"""The WhatsApp face's own rows (whatsapp/): each chat's conversation with the hour of the
person's last message, and the message ids already taken. The person is a Person
(`whatsapp_id`); messages to them are the outbox's, on the WhatsApp channel. Built on
core.storage.models.Base, so the tables share its metadata (the migrations' env imports it)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from core.storage.models import Base
from core.storage.types import utcnow


class WhatsAppChat(Base):
    """A WhatsApp chat: its report conversation (as ConversationState is for Telegram) and
    the hour of the person's last message, which opens the 24 hours in which a free-form
    message may be sent to them."""

    __tablename__ = "whatsapp_chats"
    wa_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    state: Mapped[str] = mapped_column(String(60))
    draft: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_inbound_at: Mapped[datetime | None]


class WhatsAppSeen(Base):
    """A WhatsApp message id already taken (webhooks are delivered at least once)."""

    __tablename__ = "whatsapp_seen"
    message_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index(None, "seen_at"),)
