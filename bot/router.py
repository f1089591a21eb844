"""One entry point for every update, and a registry the flows plug into.

Each flow module (bot/citizen, later bot/inspector and bot/owner) exposes `register(router)`
and adds its commands, button domains, deep-link prefixes and conversation states::

    def register(router: Router) -> None:
        router.command("tarefas", my_tasks, "Minhas tarefas de vistoria", role="inspector")
        router.callback("task", on_task_button)          # callback_data "task:<action>:..."
        router.state("inspect:", on_inspection_message,  # messages while in "inspect:*"
                     resume=ask_again)                   # its question, for a redelivery
        router.deep_link("own_", on_owner_link)          # /start own_<code>

The dispatcher (bot/dispatch.py) builds a `Turn` per update: the update, the user's durable
conversation (core.services.messaging.conversation) and helpers that write the next state in the same
transaction as the step's effect and the update's idempotency mark.
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession
from telegram import (BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, KeyboardButton,
                      Message, ReplyKeyboardMarkup, ReplyKeyboardRemove, Update)
from telegram.ext import ContextTypes

from bot.replies import edit_or_send, send_or_queue
from bot.state import BotState, state_of
from core.services.messaging import conversation
from core.services.context import Core, SessionHook
from core.services.messaging.conversation import Conversation

log = logging.getLogger(__name__)
Handler = Callable[["Turn"], Awaitable[None]]


@dataclass(frozen=True)
class CommandSpec:
    name: str
    handler: Handler
    description: str | None  # Portuguese; None = not in the command menu
    role: str | None  # None = anyone; else "inspector", "owner", ...


@dataclass
class Router:
    commands: dict[str, CommandSpec] = field(default_factory=dict)
    callbacks: dict[str, Handler] = field(default_factory=dict)
    states: dict[str, Handler] = field(default_factory=dict)
    resumes: dict[str, Handler] = field(default_factory=dict)  # the state's question again
    deep_links: dict[str, Handler] = field(default_factory=dict)
    idle: Handler | None = None  # messages outside any conversation

    def command(self, name: str, handler: Handler, description: str | None = None, *,
                role: str | None = None) -> None:
        if name in self.commands:
            raise ValueError(f"command /{name} registered twice")
        self.commands[name] = CommandSpec(name, handler, description, role)

    def callback(self, domain: str, handler: Handler) -> None:
        """Buttons whose callback_data starts with "<domain>:"."""
        if domain in self.callbacks:
            raise ValueError(f"callback domain {domain!r} registered twice")
        self.callbacks[domain] = handler

    def state(self, prefix: str, handler: Handler, *, resume: Handler | None = None) -> None:
        """Messages from users whose conversation state starts with `prefix`. `resume`, if
        given, asks the state's pending question again and only that: it replies, never
        writes (used for redelivered updates, bot/redelivery.py)."""
        self.states[prefix] = handler
        if resume is not None:
            self.resumes[prefix] = resume

    def deep_link(self, prefix: str, handler: Handler) -> None:
        """`/start <payload>` where payload starts with `prefix`."""
        self.deep_links[prefix] = handler

    def state_handler(self, state: str) -> Handler | None:
        best = max((p for p in self.states if state.startswith(p)), key=len, default=None)
        return self.states[best] if best is not None else None

    def resume_handler(self, state: str) -> Handler | None:
        """The resume hook of the longest registered prefix of `state` (None: no question
        pending, or that state has none)."""
        best = max((p for p in self.states if state.startswith(p)), key=len, default=None)
        return self.resumes.get(best) if best is not None else None

    def deep_link_handler(self, payload: str) -> Handler | None:
        best = max((p for p in self.deep_links if payload.startswith(p)), key=len, default=None)
        return self.deep_links[best] if best is not None else None

    def menu(self, role: str | None = None) -> list[BotCommand]:
        return [BotCommand(c.name, c.description) for c in self.commands.values()
                if c.description and c.role == role]


def inline(rows: list[list[tuple[str, str]]]) -> InlineKeyboardMarkup:
    """Inline keyboard from rows of (text, callback_data)."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d) for t, d in row]
                                 for row in rows])


def location_keyboard(text: str = "📍 Enviar minha localização") -> ReplyKeyboardMarkup:
    return ReplyKeyboardMarkup([[KeyboardButton(text, request_location=True)]],
                               resize_keyboard=True, one_time_keyboard=True)


@dataclass
class Turn:
    """One update being handled."""

    update: Update
    context: ContextTypes.DEFAULT_TYPE
    core: Core
    router: Router
    conv: Conversation
    args: list[str] = field(default_factory=list)  # words after a /command
    marked: bool = False  # the update's idempotency mark is written
    answered: bool = False  # the pressed button was answered
    committed_conv: Conversation | None = None  # set by a hook; applied once it committed
    pending: list[asyncio.Future] = field(default_factory=list)  # answers on their way

    # -- what arrived -----------------------------------------------------------------------

    @property
    def user_id(self) -> int:
        return self.update.effective_user.id

    @property
    def chat_id(self) -> int:
        return self.update.effective_chat.id

    @property
    def update_id(self) -> int:
        return self.update.update_id

    @property
    def message(self) -> Message | None:
        return self.update.message

    @property
    def query(self):
        return self.update.callback_query

    @property
    def text(self) -> str | None:
        m = self.update.message
        return m.text if m is not None else None

    @property
    def display_name(self) -> str | None:
        u = self.update.effective_user
        return u.full_name if u else None

    @property
    def bot(self):
        return self.context.bot

    # -- answering --------------------------------------------------------------------------

    async def reply(self, text: str, markup: Any = None) -> Message | None:
        """Send now, or (Telegram failing at this moment) queue durably in the outbox: the
        answer is never lost (bot/replies.py). None when queued."""
        return await send_or_queue(self.bot, self.state, self.chat_id, text, markup)

    async def edit(self, text: str, markup: Any = None) -> None:
        """Redraw the pressed button's message; a new message when it cannot be reached, and
        when Telegram fails at that moment (bot/replies.py). A 400 is the caller's."""
        msg = self.query.message if self.query is not None else None
        if msg is None:
            await self.reply(text, markup)
            return
        await edit_or_send(self.bot, self.state, self.chat_id, msg.message_id, text,
                           markup)

    async def answer(self, text: str | None = None, alert: bool = False) -> None:
        """Answer the pressed button (no-op for messages). The answer goes out alongside the
        rest of the step (its order against the step's messages does not matter to Telegram
        or the user); the dispatcher waits for it before the user's next update (`settle`)."""
        if self.query is not None and not self.answered:
            self.answered = True
            self.pending.append(asyncio.ensure_future(self.query.answer(text, show_alert=alert)))

    async def settle(self) -> None:
        """Wait for what `answer` sent; a failed answer is logged (the step itself stands)."""
        pending, self.pending = self.pending, []
        for result in await asyncio.gather(*pending, return_exceptions=True):
            if isinstance(result, asyncio.CancelledError):
                raise result
            if isinstance(result, BaseException):
                log.warning("answerCallbackQuery failed for update %s: %r", self.update_id,
                            result)

    @property
    def data(self) -> list[str]:
        """The pressed button's callback_data split on ":" (empty for messages)."""
        q = self.query
        return (q.data or "").split(":") if q is not None else []

    @property
    def state(self) -> BotState:
        """The application's state (bot.state): the core, the geocoder, the delivery state…"""
        return state_of(self.context)

    def service(self, name: str) -> Any:
        """A shared object the application holds (e.g. "geocoder")."""
        return getattr(self.state, name)

    async def remove_keyboard(self, text: str) -> Message | None:
        return await self.reply(text, ReplyKeyboardRemove())

    # -- writing ----------------------------------------------------------------------------

    def hook(self, state: str | None = None, draft: dict | None = None, *,
             clear: bool = False, also: SessionHook | None = None) -> SessionHook:
        """A hook for a core service's `also=`: in the service's own transaction, store the
        user's next state (or clear it) and mark this update as processed."""
        async def run(s: AsyncSession) -> None:
            if also is not None:
                await also(s)
            if clear:
                await conversation.clear(s, self.user_id)
                self.committed_conv = Conversation(self.user_id)
            elif state is not None:
                new = draft if draft is not None else self.conv.draft
                await conversation.save(s, self.user_id, state, new, self.core.now())
                self.committed_conv = Conversation(self.user_id, state, dict(new))
            if not self.marked:
                await conversation.mark_processed(s, self.update_id, self.core.now())
            self.marked = True
        return run

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A unit of work that also marks this update processed (rolled back if it was)."""
        async with self.core.db.unit_of_work() as s:
            if not self.marked:
                await conversation.mark_processed(s, self.update_id, self.core.now())
            yield s
        self.marked = True

    async def save(self, state: str, draft: dict | None = None) -> None:
        """Store the next state and draft with this update's idempotency mark (one
        transaction, grouped with other users' steps); the step is durable once this
        returns."""
        draft = self.conv.draft if draft is None else draft
        await self._write(conversation.SAVE, state, draft)
        self.conv = Conversation(self.user_id, state, dict(draft))
        self.committed_conv = None  # a later write supersedes a hook's (e.g. after a step)

    async def clear(self) -> None:
        await self._write(conversation.CLEAR)
        self.conv = Conversation(self.user_id)
        self.committed_conv = None

    async def mark(self) -> None:
        """Only the idempotency mark (a step that changed nothing else)."""
        if not self.marked:
            await self._write(conversation.MARK)

    async def _write(self, op: str, state: str | None = None, draft: dict | None = None) -> None:
        await conversation.write(self.core, self.user_id, None if self.marked else self.update_id,
                                 op, state, draft)
        self.marked = True
