"""E-mail for people without Telegram (core.services.messaging.email): the e-mail outbox, the
owners' addresses left on the web owner page, and the stops (LGPD: the one-click "parar").

`EmailMessage` is the Telegram outbox's twin (core.storage.outbox, core.storage.email_outbox):
queued in the same transaction as the change it reports, one address's messages in order, a
dead letter (`failed`) listed on the panel's "Mensagens não entregues" page. Built on
core.storage.models.Base, so the tables share its metadata (the migrations' env imports it)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from core.storage.models import Base
from core.storage.types import utcnow


class EmailMessage(Base):
    """An e-mail to send: `payload` holds the subject, the text and what the links need
    (protocol, case code); the message itself is composed when it is sent."""

    __tablename__ = "email_outbox"
    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    case_id: Mapped[int | None] = mapped_column(
        ForeignKey("cases.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(254))
    role: Mapped[str] = mapped_column(String(20))  # reporter / owner
    kind: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    status: Mapped[str] = mapped_column(String(10), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    failed_at: Mapped[datetime | None]
    claimed_by: Mapped[str | None] = mapped_column(String(80))

    __table_args__ = (
        Index("ix_email_outbox_due", "status", "next_attempt_at"),
        # per-address order: "is an earlier message to this address still undelivered?"
        Index("ix_email_outbox_address_undelivered", "address", "id",
              sqlite_where=text("status IN ('pending', 'sending')"),
              postgresql_where=text("status IN ('pending', 'sending')")),
    )


class OwnerEmail(Base):
    """An address the owner left on the web owner page to receive the case's updates by
    e-mail (personal data given with consent, LGPD art. 7º, I; `consent` is the wording they
    agreed to). Erased with the case's other personal data (`retain_until`,
    core.services.cases.retention)."""

    __tablename__ = "owner_emails"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(254))
    consent: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    retain_until: Mapped[datetime | None]

    __table_args__ = (UniqueConstraint("case_id", "address"),)


class EmailStop(Base):
    """A person asked to stop the e-mails of one case (the one-click link, RFC 8058): nothing
    is e-mailed to that address about that case again. The address is kept only as its keyed
    hash (core.services.messaging.email.address_hash), so the stop outlives the address."""

    __tablename__ = "email_stops"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"))
    address_hash: Mapped[str] = mapped_column(String(64))
    stopped_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("case_id", "address_hash"),)
