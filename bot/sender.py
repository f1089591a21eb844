"""The outbox sender: one pass claims the head of each chat (core.storage.outbox keeps each
chat's order), sends it part by part, and records what happened.

A notification's parts (photos, venue pin, document, text with buttons) are separate calls:
a part Telegram refuses (400) is skipped and the text says what could not be shown, so a
refused photo never takes the text and its buttons with it. Parts already delivered are
recorded as they go, and a retry (or a restarted sender) resumes after them.

Failures are charged to what failed:
- Telegram as a whole (5xx, connection refused, timeout): `Destination` goes down; the
  message is given back uncounted, the rest of the pass untried; while down, one message
  probes Telegram every few seconds (at most PROBE_MAX_S apart), so when the Bot API answers
  again the queue flows within seconds, whatever the length of the outage.
- One chat (429 with retry_after): only that chat's head waits retry_after; other chats go on.
- The person blocked the bot (403): a dead letter at once, the person marked (core.services.
  delivery); their next messages are not tried until they write to the bot again.
- The message itself (400 on the text, other errors): counted, backoff, then a dead letter.
"""
from __future__ import annotations

import logging
import os
import secrets
import socket
import time
import warnings
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Callable

from telegram import (Bot, BotCommandScopeChat, ForceReply,
                      InlineKeyboardMarkup, InputFile, InputMediaPhoto, ReplyKeyboardMarkup,
                      ReplyKeyboardRemove)
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning

from bot.buttons import markup
from bot.ratelimit import NO_RETRY
from core import logs
from core.services.messaging import delivery
from core.services.context import Core
from core.services.inspectors.accounts import MENU_WITHDRAWN
from core.services.messaging.delivery import (FAILED, ClaimedMessage, claim_due, mark_failed, mark_sent,
                                    release, save_progress, utcnow)
from core.services.errors import StorageUnavailable

log = logging.getLogger(__name__)

PROBE_FIRST_S = 1.0
PROBE_MAX_S = 5.0
MAX_TEXT = 4096
# What the text says when a part could not be shown (Portuguese, shown to the recipient).
MISSING = {
    "photos": "(Não foi possível mostrar as fotos.)",
    "location": "(Não foi possível mostrar o local no mapa.)",
    "document": "(Não foi possível enviar o documento.)",
}


class Destination:
    """Telegram as a whole: up, or down with the time of the next probe (monotonic clock).
    While down only one message at a time is tried, every PROBE_FIRST_S doubling up to
    PROBE_MAX_S: recovery is noticed within PROBE_MAX_S of the Bot API answering again."""

    def __init__(self, first_s: float = PROBE_FIRST_S, max_s: float = PROBE_MAX_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.first_s, self.max_s, self.clock = first_s, max_s, clock
        self.down_since: float | None = None
        self.next_probe = 0.0
        self._delay = 0.0

    @property
    def is_down(self) -> bool:
        return self.down_since is not None

    def allowance(self, batch: int) -> int:
        """How many messages to claim now: a batch when up, one probe when due, else none."""
        if not self.is_down:
            return batch
        return 1 if self.clock() >= self.next_probe else 0

    def wait_s(self) -> float:
        return max(0.0, self.next_probe - self.clock()) if self.is_down else 0.0

    def failed(self) -> None:
        now = self.clock()
        if self.down_since is None:
            self.down_since, self._delay = now, self.first_s
        else:
            self._delay = min(self._delay * 2, self.max_s)
        self.next_probe = now + self._delay

    def answered(self) -> float | None:
        """Telegram answered (anything but a 5xx/connection error): up again. Returns how
        long it was down, if it was."""
        if self.down_since is None:
            return None
        down_for = self.clock() - self.down_since
        self.down_since = None
        log.info("outbox: Telegram answers again after %.1f s", down_for)
        return down_for


def sender_name() -> str:
    """This worker process's name on its outbox claims and on the sweep's lease: unique per
    process (host, pid and a random tag), so several workers on one host never take each
    other's claims for their own; `sender_is_dead` lets a restarted worker recognise the
    claims its killed predecessor left on this host."""
    return f"bot@{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def sender_is_dead(name: str) -> bool:
    """Whether the sender `name` is a process of this host that no longer runs (a name of
    another host: unknown, False; its claims wait for their lease). A name without a pid is
    the single-process bot of earlier versions on this host: gone once we run."""
    prefix = f"bot@{socket.gethostname()[:40]}"
    if name == f"bot@{socket.gethostname()}"[:80]:
        return True
    if not name.startswith(prefix + ":"):
        return False
    try:
        pid = int(name[len(prefix) + 1:].split(":", 1)[0])
    except ValueError:
        return False
    if pid == os.getpid():  # our pid, not our name: an earlier process (e.g. a container's)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, another user's
        return False
    return False


@dataclass
class DeliveryState:
    """What the bot process knows about delivery (shared by the sender and direct replies)."""
    name: str = field(default_factory=sender_name)
    destination: Destination = field(default_factory=Destination)
    blocked: set[int] = field(default_factory=set)  # people who blocked the bot
    held: set[int] = field(default_factory=set)  # chats with a direct reply in the outbox


# -- one message, part by part ---------------------------------------------------------------

def reply_markup(data: dict | None, bot: Bot):
    """A stored reply_markup (the JSON Telegram takes) back into its python-telegram-bot type."""
    if not data:
        return None
    for key, kind in (("inline_keyboard", InlineKeyboardMarkup), ("keyboard", ReplyKeyboardMarkup),
                      ("remove_keyboard", ReplyKeyboardRemove), ("force_reply", ForceReply)):
        if key in data:
            return kind.de_json(data, bot)
    return None


def _file(core: Core, sha: str, name: str | None, attach: bool = False) -> InputFile:
    # attach=True: each album item gets its own attach:// name (Telegram refuses the album
    # otherwise: every file would be one "media" part and no item would name its file).
    return InputFile(core.evidence.path_of(sha).read_bytes(), filename=name, attach=attach)


def parts_of(payload: dict[str, Any]) -> list[str]:
    """The parts a payload asks for, in sending order (the text with its buttons last; a
    queued reply may be a document alone)."""
    names = [p for p in ("photos", "location", "document") if payload.get(p)]
    return names + (["text"] if payload.get("text") is not None else [])


async def deliver(bot: Bot, core: Core, msg: ClaimedMessage, progress: dict[str, list]) -> None:
    """Send what `progress["done"]` does not hold yet; a refused photo, pin or document is
    recorded in `progress["refused"]` and named at the end of the text. The progress is saved
    after each part but the last. Raises on the text's failure or on any failure that is not
    the part's own (5xx, 429, 403)."""
    p, chat = msg.payload, msg.chat_id
    done, refused = progress.setdefault("done", []), progress.setdefault("refused", [])
    rl: dict[str, Any] = {"rate_limit_args": NO_RETRY} if getattr(bot, "rate_limiter", None) else {}
    if msg.kind == MENU_WITHDRAWN:  # an inspector deactivated: no chat-scoped menu any more
        await bot.delete_my_commands(scope=BotCommandScopeChat(chat), **rl)
        return
    parts = parts_of(p)
    for part in parts:
        if part in done:
            continue
        try:
            if part == "photos":
                await _photos(bot, core, chat, p["photos"], rl)
            elif part == "location":
                loc = p["location"]
                await bot.send_venue(chat, loc["lat"], loc["lon"], loc.get("title") or "Local",
                                     loc.get("address") or "—", **rl)
            elif part == "document":
                doc = p["document"]
                await bot.send_document(chat, _file(core, doc["sha256"], doc.get("filename")),
                                        caption=doc.get("caption"), **rl)
            else:
                await bot.send_message(chat, _text(p["text"], refused),
                                       reply_markup=markup(p.get("buttons"))
                                       or reply_markup(p.get("reply_markup"), bot), **rl)
        except BadRequest as exc:
            if part == "text" or "text" not in parts:  # no text to say what is missing
                raise
            log.warning("outbox %s: Telegram refused the %s part: %s", msg.id, part, exc)
            refused.append(part)
        except OSError as exc:  # a file gone from the evidence store
            if part == "text" or "text" not in parts or isinstance(exc, ConnectionError):
                raise
            log.warning("outbox %s: %s part unreadable: %s", msg.id, part, exc)
            refused.append(part)
        done.append(part)
        if part != parts[-1]:  # a kill between parts resends only the part in flight
            await save_progress(core.db, msg.id, progress)


async def _photos(bot: Bot, core: Core, chat: int, shas: list[str], rl: dict) -> None:
    photos = [sha for sha in shas if core.evidence.exists(sha)][:10]
    if len(photos) == 1:
        await bot.send_photo(chat, _file(core, photos[0], "foto.jpg"), **rl)
    elif photos:
        await bot.send_media_group(chat, [
            InputMediaPhoto(_file(core, sha, f"foto{i}.jpg", attach=True))
            for i, sha in enumerate(photos)], **rl)


def _text(text: str, refused: list[str]) -> str:
    notes = "\n".join(MISSING[r] for r in refused if r in MISSING)
    if not notes:
        return text[:MAX_TEXT]
    return f"{text[:MAX_TEXT - len(notes) - 2]}\n\n{notes}"


# -- one pass of the outbox ------------------------------------------------------------------

async def send_due(bot: Bot, core: Core, batch: int = 20,
                   state: DeliveryState | None = None) -> int:
    """One pass: claim the chat heads due (one probe while Telegram is down), send them, record
    each outcome. Returns how many messages were claimed."""
    state = state or DeliveryState()
    dest = state.destination
    allowance = dest.allowance(batch)
    if allowance == 0:
        return 0
    claimed = await claim_due(core.db, limit=allowance, sender=state.name)
    for i, msg in enumerate(claimed):
        if not await _send_one(bot, core, msg, state):
            await release(core.db, [m.id for m in claimed[i + 1:]])  # untried, not counted
            break
    return len(claimed)


async def _send_one(bot: Bot, core: Core, msg: ClaimedMessage, state: DeliveryState) -> bool:
    """Send one claimed message and record the outcome; False when Telegram is down."""
    progress = {k: list(v) for k, v in msg.progress.items()}
    if msg.blocked or msg.chat_id in state.blocked:
        await mark_failed(core.db, msg.id, delivery.BLOCKED, permanent=True)
        return True
    try:
        await deliver(bot, core, msg, progress)
    except RetryAfter as exc:  # this chat is rate-limited: only its queue waits
        state.destination.answered()
        wait = retry_seconds(exc)
        await release(core.db, [msg.id], f"429: {exc}", progress=progress,
                      retry_at=utcnow() + timedelta(seconds=wait))
    except Forbidden as exc:  # the user blocked the bot: sending again will not help
        state.destination.answered()
        state.blocked.add(msg.chat_id)
        await delivery.record_blocked(core, msg.id, msg.chat_id, f"403: {exc}")
    except BadRequest as exc:  # the text itself is refused: staff must look at it
        state.destination.answered()
        await mark_failed(core.db, msg.id, f"400: {exc}", permanent=True, progress=progress)
        log.warning("outbox %s (%s to %s) is a dead letter: %s", msg.id, msg.kind,
                    logs.opaque(str(msg.chat_id)), exc)
    except (NetworkError, OSError) as exc:  # 5xx, refused connection, timeout: Telegram down
        state.destination.failed()
        await release(core.db, [msg.id], f"{type(exc).__name__}: {exc}", progress=progress)
        return False
    except TelegramError as exc:
        state.destination.answered()
        await _failed(core, msg, f"{type(exc).__name__}: {exc}", progress)
    except StorageUnavailable:
        raise  # the database, not the message: the claim's lease brings it back
    except Exception as exc:  # a malformed payload, a bug: counted, then a dead letter
        log.exception("outbox %s could not be sent", msg.id)
        await _failed(core, msg, f"{type(exc).__name__}: {exc}", progress)
    else:
        state.destination.answered()
        await mark_sent(core.db, msg.id, progress=progress if progress.get("refused") else None)
    return True


async def _failed(core: Core, msg: ClaimedMessage, error: str, progress: dict) -> None:
    if await mark_failed(core.db, msg.id, error, progress=progress) == FAILED:
        log.warning("outbox %s (%s to %s) is a dead letter after %s attempts: %s", msg.id,
                    msg.kind, logs.opaque(str(msg.chat_id)), msg.attempts, error)


def retry_seconds(exc: RetryAfter) -> float:
    """A 429's retry_after in seconds (int today, timedelta in PTB's next major version)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)
