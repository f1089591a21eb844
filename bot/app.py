"""The Telegram application: one dispatcher over a Router the flows register into, durable
conversations and idempotency in the database, a per-user flood limit, an error handler that
never shows a stack trace, and the outbox and deadline-sweep loops."""
from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any, Callable, Iterable

from telegram import Update
from telegram.request import HTTPXRequest
from telegram.ext import (Application, ApplicationBuilder, ContextTypes,
                          TypeHandler)

from bot.fairness import FairUpdates
from bot.flood import FloodLimit
from bot.geocoding import Geocoder
from bot.intake import ScreenedUpdates, Throttle, Unparsable
from bot.ratelimit import FairRateLimiter
from bot.redelivery import redelivered
from bot.loops import LoopSettings, outbox_loop, sweep_loop
from bot.replies import send_or_queue
from bot.roles import require_role
from bot.router import Router, Turn
from bot.startup import on_start
from bot.sender import DeliveryState, sender_is_dead
from bot.texts import APOLOGY, FLOOD, STALE_BUTTON, UNKNOWN_COMMAND
from core.services.messaging import conversation
from core.services.messaging import delivery
from core.services.context import Core
from core.services.messaging.conversation import IDLE, AlreadyProcessed, Conversation
from core.services.errors import USER_ERRORS, StorageUnavailable
from core.services.messaging.send_limits import SendLimits
from core.settings import Settings
from core.services.messaging.chats import ChatLocks, chat_state

log = logging.getLogger(__name__)
Flow = Callable[[Router], None]


def default_flows() -> list[Flow]:
    """The flows the bot runs. Inspector and owner flows add one line each here."""
    from bot import citizen, inspector, owner
    return [citizen.register, owner.register, inspector.register]


def build_application(core: Core, settings: Settings, *, flows: Iterable[Flow] | None = None,
                      geocoder: Geocoder | None = None, loops: LoopSettings | None = None,
                      flood: FloodLimit | None = None, overall_max_rate: float | None = None,
                      album_delay_s: float = 1.0, updater: bool = True,
                      transport: str | None = None) -> Application:
    """The Application for `core`, pointed at settings.telegram_api_url. Nothing runs until
    the caller starts it (run_polling in production; initialize/start in tests).
    The transport (settings.telegram_transport unless given): "aiohttp" talks to the Bot API
    through bot.transport (about 3× less CPU per request), "httpx" through PTB's default."""
    transport = transport or settings.telegram_transport
    state = DeliveryState()
    shared = None
    if overall_max_rate is None:  # Telegram's limits, counted with every worker's sends
        overall_max_rate = settings.telegram_max_rate
        shared = SendLimits(core.db, settings.telegram_max_rate,
                            settings.telegram_chat_interval_s, state.name,
                            settings.telegram_chat_burst)
    unparsable = Unparsable()
    root = settings.telegram_api_url.rstrip("/")
    builder = (ApplicationBuilder().token(settings.telegram_bot_token)
               .base_url(f"{root}/bot").base_file_url(f"{root}/file/bot")
               .rate_limiter(FairRateLimiter(overall_max_rate=overall_max_rate, max_retries=3,
                                             shared=shared))
               .concurrent_updates(fair := FairUpdates())
               .post_init(_post_init).post_shutdown(_post_shutdown))
    if transport == "aiohttp":
        from bot.transport import AiohttpRequest
        builder = builder.request(AiohttpRequest()).get_updates_request(
            ScreenedUpdates(AiohttpRequest(1), unparsable))
    elif transport == "httpx":
        builder = builder.get_updates_request(
            ScreenedUpdates(HTTPXRequest(connection_pool_size=1), unparsable))
    else:
        raise ValueError(f"unknown transport {transport!r}")
    if not updater:
        builder = builder.updater(None)
    app = builder.build()
    fair.on_shed = lambda update: _shed_notice(app, update)
    router = Router()
    for register in (default_flows() if flows is None else flows):
        register(router)
    app.bot_data.update(
        core=core, settings=settings, router=router, loops=loops or LoopSettings(),
        flood=flood or FloodLimit(), album_delay_s=album_delay_s, tasks=[],
        unparsable=unparsable, error_log=Throttle(),
        outbox_wake=asyncio.Event(), delivery=state, send_limits=shared,
        chat_locks=ChatLocks(core.db, fair.slots), shared=not core.db.is_sqlite, webhook_waiters={},
        geocoder=geocoder or Geocoder(settings.nominatim_url, core.area,
                                      timeout_s=settings.geocoding_timeout_s))
    app.add_handler(TypeHandler(Update, dispatch))
    app.add_error_handler(on_error)
    return app


async def _post_init(app: Application) -> None:
    router: Router = app.bot_data["router"]
    core, loops = app.bot_data["core"], app.bot_data["loops"]
    await _preload(app.bot_data, core)
    if (limits := app.bot_data.get("send_limits")) is not None:
        await limits.start(sender_is_dead)  # before the first message: on_start sends some
    await on_start(app.bot, core, router)  # username, menus, descriptions (bot.startup)
    wake = app.bot_data["outbox_wake"] = asyncio.Event()
    state: DeliveryState = app.bot_data["delivery"]
    app.bot_data["tasks"] = [
        asyncio.create_task(outbox_loop(app.bot, core, loops, wake, state), name="outbox"),
        asyncio.create_task(sweep_loop(core, loops, wake, state.name), name="sweep"),
    ]


async def _post_shutdown(app: Application) -> None:
    tasks = app.bot_data.get("tasks", [])
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    app.bot_data["tasks"] = []
    await app.bot_data["geocoder"].close()
    await app.bot_data["chat_locks"].close()


async def dispatch(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every update: flood limit, idempotency, then the router. On PostgreSQL (where several
    workers may share the bot) the chat's lock is held throughout (core.storage.chatlock)."""
    try:
        bd = context.bot_data
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None or (update.message is None
                                            and update.callback_query is None):
            return  # edited messages, channel posts, ...
        if chat.type != "private":
            return
        if not bd["shared"]:
            await _dispatch(update, context, user.id, chat.id)
            return
        locked = False
        try:
            async with bd["chat_locks"].hold(chat.id):
                locked = True
                await _dispatch(update, context, user.id, chat.id)
        except StorageUnavailable as exc:
            if locked:
                raise  # the step's own failure: the error handler's apology
            await _tell(update, context, exc.message)
    finally:
        done(context.bot_data, update)


def done(bd: dict, update: object) -> None:
    """The update is handled (or dropped): its webhook call may answer (bot.webhook)."""
    if isinstance(update, Update):
        waiter = bd.get("webhook_waiters", {}).pop(update.update_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


async def _dispatch(update: Update, context: ContextTypes.DEFAULT_TYPE, user_id: int,
                    chat_id: int) -> None:
    bd = context.bot_data
    core: Core = bd["core"]
    flood: FloodLimit = bd["flood"]
    if not flood.allow(user_id):
        if update.callback_query is not None:
            await update.callback_query.answer(FLOOD)
        elif flood.should_notice(user_id):
            await context.bot.send_message(chat_id, FLOOD)
        return
    try:
        if bd["shared"]:  # another worker may have changed these: read them under the lock
            await _refresh_chat(bd, core, chat_id)
        await _unblocked(bd, core, user_id)
        seen = await _seen_before(bd, core, update.update_id)
        conv = await _conversation(bd, core, user_id)
    except StorageUnavailable as exc:
        await _tell(update, context, exc.message)
        return
    turn = Turn(update, context, core, bd["router"], conv)
    try:
        if seen:  # a redelivery: re-asks, never re-does
            if not bd["shared"]:
                bd["conversations"][user_id] = conv  # taken out by _conversation
            await redelivered(turn)
        else:
            await _run(turn, bd)
    finally:
        await turn.settle()  # the button's answer is out before the user's next update


async def _refresh_chat(bd: dict, core: Core, chat_id: int) -> None:
    state: DeliveryState = bd["delivery"]
    blocked, held = await chat_state(core.db, chat_id)
    (state.blocked.add if blocked else state.blocked.discard)(chat_id)
    (state.held.add if held else state.held.discard)(chat_id)


def _shed_notice(app: Application, update: object) -> None:
    """An update dropped because its user already has too many waiting (bot.fairness): the
    flood limit's answer, at most once per its notice period."""
    done(app.bot_data, update)
    flood: FloodLimit = app.bot_data["flood"]
    if isinstance(update, Update) and update.effective_chat is not None \
            and flood.should_notice(update.effective_user.id):
        app.create_task(app.bot.send_message(update.effective_chat.id, FLOOD))


async def _unblocked(bd: dict, core: Core, user_id: int) -> None:
    """A person who had blocked the bot writes again: their messages may be sent again."""
    state: DeliveryState = bd["delivery"]
    if user_id in state.blocked:
        await delivery.clear_blocked(core, user_id)
        state.blocked.discard(user_id)


# Write-through cache of the conversations, on SQLite only (one bot process: their only
# writer; on PostgreSQL several workers may write them, so each update reads its user's
# conversation under the chat's lock and nothing is cached). At start-up
# it is filled with every stored one (few: only users mid-conversation have a row), so a user
# missing from it is idle without asking the database ("complete"); once it overflows, or
# when it cannot be filled, a missing user is read from the database. An entry whose update
# failed is None: read again from the database next time.
CONVERSATIONS_CACHED = 10_000


async def _preload(bd: dict, core: Core) -> None:
    try:
        bd["update_hwm"] = await conversation.last_processed(core)
        stored = (await conversation.load_all(core, CONVERSATIONS_CACHED)
                  if not bd["shared"] else None)
    except StorageUnavailable:
        log.warning("database unavailable at start-up: conversations will be read one by one")
        stored = None
    bd["conversations"] = OrderedDict(stored or {})
    bd["conversations_complete"] = stored is not None
    state: DeliveryState = bd["delivery"]
    try:  # who blocked the bot, and chats whose earlier replies still wait in the outbox
        state.blocked |= await delivery.blocked_people(core)
        state.held |= await delivery.chats_with_queued_replies(core)
    except StorageUnavailable:
        log.warning("database unavailable at start-up: delivery state starts empty")


async def _conversation(bd: dict, core: Core, user_id: int) -> Conversation:
    if bd["shared"]:  # other workers write conversations too: read through, under the lock
        return await conversation.load(core, user_id)
    cache: OrderedDict = bd.setdefault("conversations", OrderedDict())
    conv = cache.pop(user_id, _MISSING)
    if conv is _MISSING and bd.get("conversations_complete"):
        return Conversation(user_id)
    if conv is _MISSING or conv is None:
        return await conversation.load(core, user_id)
    return conv


_MISSING = object()


async def _run(turn: Turn, bd: dict) -> None:
    cache: OrderedDict = bd["conversations"] if not bd["shared"] else OrderedDict()
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
        bd["conversations_complete"] = False
    if turn.query is not None and not turn.answered:
        await turn.answer()
    if not turn.marked:
        try:
            await turn.mark()
        except (AlreadyProcessed, StorageUnavailable):
            pass


async def _seen_before(bd: dict, core: Core, update_id: int) -> bool:
    """Fast idempotency check: ids above the high-water mark read at start-up and not seen
    in this process are new; anything else asks the database. (The authority stays the
    ProcessedUpdate row written with the step's effect.) With several workers the database
    is asked every time, under the chat's lock: a redelivered update another worker handled
    is seen, since that worker committed before it let go of the lock."""
    if bd["shared"]:
        return await conversation.is_processed(core, update_id)
    seen: set[int] = bd.setdefault("seen_updates", set())
    if "update_hwm" not in bd:
        bd["update_hwm"] = await conversation.last_processed(core)
    if update_id in seen:
        return True
    if len(seen) > 100_000:
        bd["update_hwm"] = max(seen)
        seen.clear()
    seen.add(update_id)
    if update_id > bd["update_hwm"]:
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
        await send_or_queue(context.bot, context.bot_data, update.effective_chat.id, text)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the failure with the update; tell the user we are sorry (never the error)."""
    data = update.to_dict() if isinstance(update, Update) else repr(update)
    error = context.error
    context.bot_data["error_log"].log(  # the same failure again and again: summarised
        log, logging.ERROR, f"{type(error).__name__}:{str(error)[:200]}",
        "error handling update %s", data, exc_info=error)
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    try:
        if update.callback_query is not None:
            try:
                await update.callback_query.answer()
            except Exception:
                pass
        await send_or_queue(context.bot, context.bot_data, update.effective_chat.id, APOLOGY)
    except Exception:
        log.exception("could not send the apology")


async def start(app: Application, *, polling: bool = True, **polling_kwargs: Any) -> None:
    """What run_polling does before it blocks, for callers that own the event loop (tests,
    the webhook server): initialize, post_init (commands menu, loops), start, poll."""
    await app.initialize()
    if app.post_init:
        await app.post_init(app)
    await app.start()
    if polling and app.updater is not None:
        await app.updater.start_polling(**polling_kwargs)


async def stop(app: Application) -> None:
    """The reverse of `start`, post_shutdown included (loops stopped, geocoder closed)."""
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
    await app.shutdown()
    if app.post_shutdown:
        await app.post_shutdown(app)
