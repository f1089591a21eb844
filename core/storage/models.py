"""The database schema (SQLAlchemy 2 typed declarative).

All timestamps are UTC and timezone-aware (`UTCDateTime`); money is `Numeric(12, 2)` read
as `Decimal`. Personal data of an object's owner lives in `CaseOwner`, apart from the case,
so public views of a case never load it by accident. The reporter's identity (`reporter_id`)
is restricted information (Lei 13.460/2017, art. 10, §7º) and never leaves the staff views.
"""
from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from sqlalchemy import (JSON, BigInteger, Boolean, Date, Float, ForeignKey, Index, Integer,
                        MetaData, Numeric, SmallInteger, String, Text, Time, UniqueConstraint,
                        text)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from core.storage.types import UTCDateTime, utcnow

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSON(), list[Any]: JSON()}


class Person(Base):
    """A Telegram user who talked to the bot (citizen, inspector or owner), or a reporter
    without Telegram (counter, phone, Open311: telegram_id None, no chat at all; reached only
    through the contact they gave, ReporterContact)."""

    __tablename__ = "persons"
    id: Mapped[int] = mapped_column(primary_key=True)
    telegram_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    whatsapp_id: Mapped[str | None] = mapped_column(String(20), index=True, unique=True)
    display_name: Mapped[str | None] = mapped_column(String(200))
    roles: Mapped[list[Any]] = mapped_column(default=list)  # e.g. ["citizen", "inspector"]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Telegram answered 403 (the person blocked the bot): their messages are not sent until
    # they write to the bot again, which clears it (core.services.messaging.delivery).
    blocked_bot_at: Mapped[datetime | None]


class Case(Base):
    __tablename__ = "cases"
    id: Mapped[int] = mapped_column(primary_key=True)
    protocol: Mapped[str] = mapped_column(String(11), unique=True)  # AAAA-NNNNNN
    case_code: Mapped[str] = mapped_column(String(16), unique=True, insert_sentinel=True)  # QR link
    municipality: Mapped[str] = mapped_column(String(60))
    category: Mapped[str] = mapped_column(String(40))
    track: Mapped[str] = mapped_column(String(40))
    state: Mapped[str] = mapped_column(String(60))
    lat: Mapped[float] = mapped_column(Float)
    lon: Mapped[float] = mapped_column(Float)
    cell: Mapped[int] = mapped_column(BigInteger)  # core.storage.geo.cell_of(lat, lon)
    address: Mapped[str | None] = mapped_column(String(300))
    neighbourhood: Mapped[str | None] = mapped_column(String(120))
    plate: Mapped[str | None] = mapped_column(String(10))
    chassis: Mapped[str | None] = mapped_column(String(30))
    description: Mapped[str | None] = mapped_column(Text)
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)
    reporter_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    next_deadline_at: Mapped[datetime | None]
    next_deadline_kind: Mapped[str | None] = mapped_column(String(60))
    deadline_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    is_open: Mapped[bool] = mapped_column(Boolean, default=True)
    #: The reporter asked after the closing (core.services.citizens.followup): None never
    #: asked, "asked", "gone" or "there" (the reopen step). Kept by a trigger on `events`
    #: (migration 0021) for the indicators' tallies; the timeline stays the record.
    followup: Mapped[str | None] = mapped_column(String(10))

    __table_args__ = (
        # Every per-city query leads with the city (migration 0020): one city's cases are one
        # contiguous range of each index, whatever the other cities hold.
        # "Open cases of category C near here": WHERE municipality=? AND category=? AND is_open
        # AND cell IN (...)
        Index("ix_cases_nearby", "municipality", "category", "is_open", "cell"),
        # Due sweep (installation-wide: it serves every city): only cases with a deadline are
        # in this index, so its cost grows with the number that have one; the scan stops at now.
        Index("ix_cases_due", "next_deadline_at",
              sqlite_where=text("next_deadline_at IS NOT NULL"),
              postgresql_where=text("next_deadline_at IS NOT NULL")),
        Index("ix_cases_state", "state"),
        Index("ix_cases_created_at", "created_at"),
        Index("ix_cases_plate", "plate"),
        Index("ix_cases_reporter_id", "reporter_id"),
        # The staff panel's case list: keyset pagination on (created_at, id), newest first,
        # optionally filtered by state or category (migration 0004).
        Index("ix_cases_created_id", "municipality", "created_at", "id"),
        Index("ix_cases_state_created_id", "municipality", "state", "created_at", "id"),
        Index("ix_cases_category_created_id", "municipality", "category", "created_at", "id"),
        # The public map (migrations 0009, 0013): open cases in the visible area, by cell;
        # the recently closed ones by closing time, with the cell (index-only counts).
        Index("ix_cases_open_cell", "municipality", "is_open", "cell"),
        Index("ix_cases_closed_cell", "municipality", "closed_at", "is_open", "cell"),
    )


class CaseOwner(Base):
    """The identified owner or person responsible for the object (personal data, LGPD)."""

    __tablename__ = "case_owners"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), unique=True)
    owner_name: Mapped[str | None] = mapped_column(String(200))
    owner_cpf: Mapped[str | None] = mapped_column(String(14))  # CPF or CNPJ digits
    owner_contact: Mapped[str | None] = mapped_column(String(200))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class ReporterContact(Base):
    """How to reach a citizen whose report was taken at the counter or by phone (personal data,
    LGPD art. 7º, III): given only to be told how the case goes, shown only to staff, never
    public, and erased like the reporter's other data (`retain_until`, set when the case
    closes; core.services.cases.retention). `told_state` is the case state they were last told."""

    __tablename__ = "reporter_contacts"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), unique=True)
    name: Mapped[str | None] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(20))
    email: Mapped[str | None] = mapped_column(String(200))
    channel: Mapped[str] = mapped_column(String(20))  # counter intake: "balcao" / "telefone"
    taken_by: Mapped[str] = mapped_column(String(60))  # the staff member's username
    told_state: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    retain_until: Mapped[datetime | None]


class ProtocolCounter(Base):
    """Last protocol number issued per year (see core.storage.protocol)."""

    __tablename__ = "protocol_counters"
    year: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    last: Mapped[int] = mapped_column(Integer, default=0)


class Event(Base):
    """Append-only timeline entry, hash-chained per case (core.storage.timeline)."""

    __tablename__ = "events"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor_kind: Mapped[str] = mapped_column(String(20))
    actor_id: Mapped[str | None] = mapped_column(String(60))
    actor_name: Mapped[str | None] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(60))
    article: Mapped[str | None] = mapped_column(String(120))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    prev_hash: Mapped[str | None] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))

    __table_args__ = (UniqueConstraint("case_id", "seq"),
                      # the panel's indicators: steps per month (migration 0016)
                      Index("ix_events_action_at", "action", "at"))


class Inspector(Base):
    __tablename__ = "inspectors"
    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"), unique=True)
    #: The city the inspector works for: only its tasks reach them
    municipality: Mapped[str] = mapped_column(String(60), default="", server_default="")
    name: Mapped[str] = mapped_column(String(200))
    agency: Mapped[str] = mapped_column(String(40))
    registration: Mapped[str | None] = mapped_column(String(40))  # matrícula, on documents
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    last_lat: Mapped[float | None] = mapped_column(Float)
    last_lon: Mapped[float | None] = mapped_column(Float)
    last_seen_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class InviteCode(Base):
    """One-time code a staff member gives an inspector; only its SHA-256 is stored."""

    __tablename__ = "invite_codes"
    id: Mapped[int] = mapped_column(primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    municipality: Mapped[str] = mapped_column(String(60), default="", server_default="")
    name: Mapped[str] = mapped_column(String(200))
    agency: Mapped[str] = mapped_column(String(40))
    registration: Mapped[str | None] = mapped_column(String(40))  # matrícula
    created_by: Mapped[str | None] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    used_by: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))


class BindAttempt(Base):
    """A wrong invite code typed by a Telegram account (cool-down survives restarts)."""

    __tablename__ = "bind_attempts"
    id: Mapped[int] = mapped_column(primary_key=True)
    telegram_id: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index(None, "telegram_id", "at"),)


class Subscription(Base):
    __tablename__ = "subscriptions"
    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    notify: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("person_id", "case_id"), Index(None, "case_id"))


class SupportingReport(Base):
    """"It is still there": another citizen confirming an existing case."""

    __tablename__ = "supporting_reports"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    note: Mapped[str | None] = mapped_column(Text)
    photos: Mapped[list[Any]] = mapped_column(default=list)  # evidence sha256 list

    __table_args__ = (Index(None, "case_id"),)


class Evidence(Base):
    """A photo, video or document attached to a case; the bytes live in EvidenceStore."""

    __tablename__ = "evidence"
    id: Mapped[int] = mapped_column(primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64))
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    kind: Mapped[str] = mapped_column(String(20))  # photo / video / document
    mime: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(BigInteger)
    telegram_file_id: Mapped[str | None] = mapped_column(String(200))
    telegram_file_unique_id: Mapped[str | None] = mapped_column(String(100))
    path: Mapped[str] = mapped_column(String(300))  # relative to DATA_DIR
    stripped_sha256: Mapped[str | None] = mapped_column(String(64))  # public copy, no EXIF
    uploaded_by: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    retain_until: Mapped[datetime | None]

    __table_args__ = (UniqueConstraint("case_id", "sha256"), Index(None, "sha256"),
                      Index(None, "retain_until"))


class Task(Base):
    """A diligence offered to an inspector: offered / accepted / refused / done."""

    __tablename__ = "tasks"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    inspector_id: Mapped[int] = mapped_column(ForeignKey("inspectors.id"))
    status: Mapped[str] = mapped_column(String(20), default="offered")
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index(None, "inspector_id", "status"), Index(None, "case_id"))


class OutboxMessage(Base):
    """A message to send, written in the same transaction as the change it reports.
    `failed` is a dead letter: listed in the panel, re-sent by staff (core.services.messaging.delivery).
    `progress` records the parts already delivered (and those Telegram refused), so a retry
    resumes where the last attempt stopped."""

    __tablename__ = "outbox"
    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: "telegram" or "whatsapp" (there `chat_id` is the person's number as digits)
    channel: Mapped[str] = mapped_column(String(10), default="telegram", server_default="telegram")
    chat_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    status: Mapped[str] = mapped_column(String(10), default="pending")  # pending/sending/sent/failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    progress: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    failed_at: Mapped[datetime | None]
    claimed_by: Mapped[str | None] = mapped_column(String(80))  # the sender holding the lease

    __table_args__ = (
        Index("ix_outbox_due", "status", "next_attempt_at"),
        # Per-chat order: "is an earlier message of this chat still undelivered?" (migration 0005)
        Index("ix_outbox_chat_undelivered", "channel", "chat_id", "id",
              sqlite_where=text("status IN ('pending', 'sending')"),
              postgresql_where=text("status IN ('pending', 'sending')")),
    )


class ProcessedUpdate(Base):
    """Telegram update ids already handled (the bot's idempotency record)."""

    __tablename__ = "processed_updates"
    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    processed_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index(None, "processed_at"),)


class ConversationState(Base):
    """The bot's durable conversation store: one row per Telegram user."""

    __tablename__ = "conversation_states"
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    state: Mapped[str] = mapped_column(String(60))
    draft: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Tariff(Base):
    """A dated fee value (fees are data with a valid-from date, not constants)."""

    __tablename__ = "tariffs"
    id: Mapped[int] = mapped_column(primary_key=True)
    municipality: Mapped[str] = mapped_column(String(60))
    code: Mapped[str] = mapped_column(String(40))
    amount: Mapped[Decimal] = mapped_column(Numeric(12, 2))
    currency: Mapped[str] = mapped_column(String(3), default="BRL")
    unit: Mapped[str] = mapped_column(String(20))
    valid_from: Mapped[date] = mapped_column(Date)
    article: Mapped[str] = mapped_column(String(120))
    source: Mapped[str] = mapped_column(String(300))
    created_by: Mapped[str | None] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("municipality", "code", "valid_from"),)


class Closure(Base):
    """A day the city hall is closed (municipal holiday, optional point, decree)."""

    __tablename__ = "closures"
    id: Mapped[int] = mapped_column(primary_key=True)
    municipality: Mapped[str] = mapped_column(String(60))
    date: Mapped[date] = mapped_column(Date)
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))  # holiday / optional / decree
    source: Mapped[str] = mapped_column(String(300))
    # An early closing: the hour the office closed (Lei 9.784/1999, art. 66, § 1º); None,
    # closed all day (migration 0022)
    closes_at: Mapped[time | None] = mapped_column(Time, nullable=True)

    __table_args__ = (UniqueConstraint("municipality", "date"),)


class StaffUser(Base):
    __tablename__ = "staff_users"
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    #: The one city this account works for; None: an installation administrator, who sees
    #: every city and acts as one at a time (admin.security)
    municipality: Mapped[str | None] = mapped_column(String(60))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_login_at: Mapped[datetime | None]
    #: Signed into each panel session; raised by logout, a password change and deactivation,
    #: which ends every session issued before (admin.security).
    session_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class OwnerLink(Base):
    """A Telegram user who reached a case as its owner/responsible (QR deep link or case code
    and plate). They see only the cases they are linked to; `situation` keeps what they said
    about themselves for the release checklist (attorney, sale communicated, unrecoverable)."""

    __tablename__ = "owner_links"
    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"))
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"))
    via: Mapped[str] = mapped_column(String(20))  # deep_link / code_plate / code_chassis / code
    situation: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("case_id", "person_id"), Index(None, "person_id"))


class OwnerAccessGuard(Base):
    """Failed attempts to reach a case as its owner, per Telegram account: five failures
    cool the account down for an hour (persisted, so a restart does not reset it)."""

    __tablename__ = "owner_access_guards"
    telegram_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failure_at: Mapped[datetime | None]
    locked_until: Mapped[datetime | None]


class AppSetting(Base):
    """A value the running system learnt and its processes share (key "bot_username": the
    bot's username from getMe, recorded at the bot's start-up and read by the panel)."""

    __tablename__ = "app_settings"
    key: Mapped[str] = mapped_column(String(60), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class PublicGuard(Base):
    """Per visitor key (e.g. "owner:<IP>"), for the public pages without login: wrong owner
    answers (the bot's cool-down, core.services.owners.access) and requests in the current
    rate-limit window (core.services.public.map). Persisted, so a restart does not reset it."""

    __tablename__ = "public_guards"
    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failure_at: Mapped[datetime | None]
    locked_until: Mapped[datetime | None]
    hits: Mapped[int] = mapped_column(Integer, default=0)
    window_started_at: Mapped[datetime | None]


class MapCell(Base):
    """The public map's counts of open cases per grid cell (core.storage.geo.level_cell) at
    each zoom level, per category and state, with the sums of their 0.001° rows and columns
    (the cluster's centre), per city. Kept by database triggers on `cases` (migrations 0013,
    0020), so every writer keeps it right; the map's city-wide view reads these rows, never
    the cases, and only its city's."""

    __tablename__ = "map_cells"
    municipality: Mapped[str] = mapped_column(String(60), primary_key=True)  # migration 0020
    level: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    cell: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    category: Mapped[str] = mapped_column(String(40), primary_key=True)
    state: Mapped[str] = mapped_column(String(60), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)
    row_sum: Mapped[int] = mapped_column(BigInteger)
    col_sum: Mapped[int] = mapped_column(BigInteger)
    __table_args__ = {"sqlite_with_rowid": False}


class JobLease(Base):
    """Who runs a periodic job now (core.storage.leases): one worker at a time holds the lease
    and renews it; a dead worker's lease runs out and another takes the job over."""

    __tablename__ = "job_leases"
    name: Mapped[str] = mapped_column(String(60), primary_key=True)
    holder: Mapped[str | None] = mapped_column(String(120))
    lease_until: Mapped[datetime | None]
    last_run_at: Mapped[datetime | None]
    runs: Mapped[int] = mapped_column(Integer, default=0)


class LoginFailure(Base):
    """A wrong password at the panel (admin.security.LoginThrottle), in the database so every
    panel process counts the same failures."""

    __tablename__ = "login_failures"
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(200))
    ip: Mapped[str] = mapped_column(String(64))
    failed_at: Mapped[datetime]

    __table_args__ = (Index(None, "username", "ip", "failed_at"),)


class SendSlot(Base):
    """One of the bot's TELEGRAM_MAX_RATE send slots (core.storage.send_limits): busy while a
    message is in flight and for one second after Telegram answered, whichever worker sent."""

    __tablename__ = "send_slots"
    slot: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    busy_until: Mapped[float] = mapped_column(Float(53))  # seconds since the epoch
    holder: Mapped[str | None] = mapped_column(String(120))


class ChatPace(Base):
    """When a chat may get its next message (core.storage.send_limits): busy while one is in
    flight to it, and after Telegram answered until its burst allows the next one."""

    __tablename__ = "chat_pace"
    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    busy_until: Mapped[float] = mapped_column(Float(53))  # seconds since the epoch
    holder: Mapped[str | None] = mapped_column(String(120))
    # the chat's theoretical arrival time (GCRA): one TELEGRAM_CHAT_INTERVAL_S per message sent
    tat: Mapped[float] = mapped_column(Float(53), default=0.0, server_default="0")
