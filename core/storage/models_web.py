"""The web report's own rows (admin/views_report.py): each visitor's report in progress, kept
by the hash of a random token their browser holds in a cookie (no account, nothing personal),
and the e-mail addresses a web reporter left, waiting for the click that confirms them before
any update is sent there. Built on core.storage.models.Base, so the tables share its metadata
(the migrations' env imports it)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from core.storage.models import Base
from core.storage.types import utcnow


class WebDraft(Base):
    """A report being filled in on the web page: the conversation's state and draft (as
    whatsapp_chats keeps a WhatsApp chat's), `version` raised by every step (a step is written
    only over the version it was read at: two tabs, or a form sent twice, never both answer),
    and when it began (the minimum fill time)."""

    __tablename__ = "web_drafts"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    state: Mapped[str] = mapped_column(String(60))
    draft: Mapped[dict[str, Any]] = mapped_column(default=dict)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index(None, "updated_at"),)


class EmailConfirmation(Base):
    """An address a web reporter gave for a case's updates, not yet confirmed: the link in the
    e-mail sent to it carries a random token (its SHA-256 kept here). Confirmed, the address
    becomes the case's reporter contact (ReporterContact) and this row goes."""

    __tablename__ = "email_confirmations"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(254))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
