"""Every update, one at a time per chat: the flood limit, idempotency (a redelivered update
re-asks, never re-does), the durable conversation, then the Router the flows registered into;
an error handler that never shows a stack trace. Reads and caches through the typed
application state (bot.state); the start-up wiring is bot.app."""
from __future__ import annotations

import logging
import time
from collections import OrderedDict

from telegram import Update
from telegram.ext import ContextTypes

from bot.flood import FloodLimit
from bot.redelivery import redelivered
from bot.replies import send_or_queue
from bot.roles import require_role
from bot.router import Turn
from bot.state import BotState, state_of
from bot.texts import APOLOGY, FLOOD, STALE_BUTTON, UNKNOWN_COMMAND
from core import logs
from core.services.context import Core
from core.services.errors import USER_ERRORS, StorageUnavailable
from core.services.installation.metrics import UPDATES
from core.services.messaging import conversation, delivery
from core.services.messaging.chats import chat_state
from core.services.messaging.conversation import IDLE, AlreadyProcessed, Conversation

log = logging.getLogger(__name__)


async def dispatch(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every update: flood limit, idempotency, then the router. On PostgreSQL (where several
    workers may share the bot) the chat's lock is held throughout (core.storage.chatlock)."""
    st = state_of(context)
    started = time.perf_counter()
    logs.request_id.set(f"tg-{update.update_id}")  # each update runs in a task of its own
    try:
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None or (update.message is None
                                            and update.callback_query is None):
            return  # edited messages, channel posts, ...
        if chat.type != "private":
            return
        if not st.shared:
            await _dispatch(update, context, st, user.id, chat.id)
            return
        locked = False
        try:
            async with st.chat_locks.hold(chat.id):
                locked = True
                await _dispatch(update, context, st, user.id, chat.id)
        except StorageUnavailable as exc:
            if locked:
                raise  # the step's own failure: the error handler's apology
            await _tell(update, context, exc.message)
    finally:
        done(st, update)
        took = time.perf_counter() - started
        UPDATES.labels("telegram").observe(took)
        log.info("update handled in %.0f ms", took * 1000)


def done(st: BotState, update: object) -> None:
    """The update is handled (or dropped): its webhook call may answer (bot.webhook)."""
    if isinstance(update, Update):
        waiter = st.webhook_waiters.pop(update.update_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


async def _dispatch(update: Update, context: ContextTypes.DEFAULT_TYPE, st: BotState,
                    user_id: int, chat_id: int) -> None:
    core = st.core
    flood: FloodLimit = st.flood
    if not flood.allow(user_id):
        if update.callback_query is not None:
            await update.callback_query.answer(FLOOD)
        elif flood.should_notice(user_id):
            await context.bot.send_message(chat_id, FLOOD)
        return
    try:
        if st.shared:  # another worker may have changed these: read them under the lock
            await _refresh_chat(st, core, chat_id)
        await _unblocked(st, core, user_id)
        seen = await _seen_before(st, core, update.update_id)
        conv = await _conversation(st, core, user_id)
    except StorageUnavailable as exc:
        await _tell(update, context, exc.message)
        return
    turn = Turn(update, context, core, st.router, conv)
    try:
        if seen:  # a redelivery: re-asks, never re-does
            if not st.shared:
                st.conversations[user_id] = conv  # taken out by _conversation
            await redelivered(turn)
        else:
            await _run(turn, st)
    finally:
        await turn.settle()  # the button's answer is out before the user's next update


async def _refresh_chat(st: BotState, core: Core, chat_id: int) -> None:
    blocked, held = await chat_state(core.db, chat_id)
    (st.delivery.blocked.add if blocked else st.delivery.blocked.discard)(chat_id)
    (st.delivery.held.add if held else st.delivery.held.discard)(chat_id)


async def _unblocked(st: BotState, core: Core, user_id: int) -> None:
    """A person who had blocked the bot writes again: their messages may be sent again."""
    if user_id in st.delivery.blocked:
        await delivery.clear_blocked(core, user_id)
        st.delivery.blocked.discard(user_id)


# Write-through cache of the conversations, on SQLite only (one bot process: their only
# writer; on PostgreSQL several workers may write them, so each update reads its user's
# conversation under the chat's lock and nothing is cached). At start-up
# it is filled with every stored one (few: only users mid-conversation have a row), so a user
# missing from it is idle without asking the database ("complete"); once it overflows, or
# when it cannot be filled, a missing user is read from the database. An entry whose update
# failed is None: read again from the database next time.
CONVERSATIONS_CACHED = 10_000


async def preload(st: BotState) -> None:
    """At start-up: the high-water mark of handled updates, the conversations (SQLite), who
    blocked the bot and which chats have replies waiting in the outbox."""
    core = st.core
    try:
        st.update_hwm = await conversation.last_processed(core)
        stored = (await conversation.load_all(core, CONVERSATIONS_CACHED)
                  if not st.shared else None)
    except StorageUnavailable:
        log.warning("database unavailable at start-up: conversations will be read one by one")
        stored = None
    st.conversations = OrderedDict(stored or {})
    st.conversations_complete = stored is not None
    try:  # who blocked the bot, and chats whose earlier replies still wait in the outbox
        st.delivery.blocked |= await delivery.blocked_people(core)
        st.delivery.held |= await delivery.chats_with_queued_replies(core)
    except StorageUnavailable:
        log.warning("database unavailable at start-up: delivery state starts empty")


async def _conversation(st: BotState, core: Core, user_id: int) -> Conversation:
    if st.shared:  # other workers write conversations too: read through, under the lock
        return await conversation.load(core, user_id)
    conv = st.conversations.pop(user_id, _MISSING)
    if conv is _MISSING and st.conversations_complete:
        return Conversation(user_id)
    if conv is _MISSING or conv is None:
        return await conversation.load(core, user_id)
    return conv


_MISSING = object()


async def _run(turn: Turn, st: BotState) -> None:
    cache = st.conversations if not st.shared else OrderedDict()
    cache[turn.user_id] = None  # unknown until the step ends (an exception leaves it so)
    try:
        await route(turn)
    except AlreadyProcessed:
        return  # handled before (by an earlier run, maybe): read it again next time
    except USER_ERRORS as exc:
        await _tell(turn.update, turn.context, exc.message, turn)
    cache[turn.user_id] = turn.committed_conv or turn.conv
    while len(cache) > CONVERSATIONS_CACHED:
        cache.popitem(last=False)
        st.conversations_complete = False
    if turn.query is not None and not turn.answered:
        await turn.answer()
    if not turn.marked:
        try:
            await turn.mark()
        except (AlreadyProcessed, StorageUnavailable):
            pass


async def _seen_before(st: BotState, core: Core, update_id: int) -> bool:
    """Fast idempotency check: ids above the high-water mark read at start-up and not seen
    in this process are new; anything else asks the database. (The authority stays the
    ProcessedUpdate row written with the step's effect.) With several workers the database
    is asked every time, under the chat's lock: a redelivered update another worker handled
    is seen, since that worker committed before it let go of the lock."""
    if st.shared:
        return await conversation.is_processed(core, update_id)
    seen = st.seen_updates
    if st.update_hwm is None:
        st.update_hwm = await conversation.last_processed(core)
    if update_id in seen:
        return True
    if len(seen) > 100_000:
        st.update_hwm = max(seen)
        seen.clear()
    seen.add(update_id)
    if update_id > st.update_hwm:
        return False
    return await conversation.is_processed(core, update_id)


async def route(turn: Turn) -> None:
    router = turn.router
    if turn.query is not None:
        handler = router.callbacks.get(turn.data[0])
        if handler is None:
            await turn.answer(STALE_BUTTON)
            return
        await handler(turn)
        return
    text = turn.text or ""
    if text.startswith("/"):
        words = text.split()
        name = words[0][1:].split("@", 1)[0].lower()
        spec = router.commands.get(name)
        if spec is None:
            await turn.reply(UNKNOWN_COMMAND)
            return
        if spec.role and not await require_role(turn, spec.role):
            return
        turn.args = words[1:]
        await spec.handler(turn)
        return
    handler = router.state_handler(turn.conv.state) if turn.conv.state != IDLE else None
    handler = handler or router.idle
    if handler is not None:
        await handler(turn)


async def _tell(update: Update, context: ContextTypes.DEFAULT_TYPE, text: str,
                turn: Turn | None = None) -> None:
    if update.callback_query is not None and (turn is None or not turn.answered):
        if turn is not None:
            turn.answered = True
        await update.callback_query.answer(text[:200], show_alert=True)
    else:
        await send_or_queue(context.bot, state_of(context), update.effective_chat.id, text)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the failure with the update's id (never its content: a person's text); tell the
    user we are sorry (never the error)."""
    update_id = update.update_id if isinstance(update, Update) else None
    if update_id is not None:
        logs.request_id.set(f"tg-{update_id}")
    error = context.error
    state_of(context).error_log.log(  # the same failure again and again: summarised
        log, logging.ERROR, f"{type(error).__name__}:{str(error)[:200]}",
        "error handling update %s", update_id, exc_info=error)
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    try:
        if update.callback_query is not None:
            try:
                await update.callback_query.answer()
            except Exception:
                pass
        await send_or_queue(context.bot, state_of(context), update.effective_chat.id, APOLOGY)
    except Exception:
        log.exception("could not send the apology")
