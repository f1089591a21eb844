"""The Telegram application's start-up wiring: the Application pointed at the Bot API, the
flows registered into one Router, the typed application state (bot.state.BotState, stored
once in bot_data), and the outbox and deadline-sweep loops started and stopped with it.
What happens to each update is bot.dispatch."""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable, Iterable

from telegram import Update
from telegram.ext import Application, ApplicationBuilder, TypeHandler
from telegram.request import HTTPXRequest

from bot.dispatch import dispatch, done, on_error, preload
from bot.fairness import FairUpdates
from bot.flood import FloodLimit
from bot.geocoding import Geocoder
from bot.intake import ScreenedUpdates, Throttle, Unparsable
from bot.loops import LoopSettings, finish, outbox_loop, sweep_loop
from bot.ratelimit import FairRateLimiter
from bot.router import Router
from bot.sender import DeliveryState, sender_is_dead
from bot.startup import on_start
from bot.state import KEY, BotState, state_of
from bot.texts import FLOOD
from core.services.context import Core
from core.services.messaging.chats import ChatLocks
from core.services.messaging.send_limits import SendLimits
from core.settings import Settings

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
    app.bot_data[KEY] = BotState(
        core=core, settings=settings, router=router, loops=loops or LoopSettings(),
        flood=flood or FloodLimit(), geocoder=geocoder or Geocoder(
            settings.nominatim_url, core.area, timeout_s=settings.geocoding_timeout_s),
        unparsable=unparsable, error_log=Throttle(), delivery=state,
        chat_locks=ChatLocks(core.db, fair.slots), shared=not core.db.is_sqlite,
        send_limits=shared, album_delay_s=album_delay_s)
    app.add_handler(TypeHandler(Update, dispatch))
    app.add_error_handler(on_error)
    return app


async def _post_init(app: Application) -> None:
    st = state_of(app)
    await preload(st)
    if st.send_limits is not None:
        await st.send_limits.start(sender_is_dead)  # before the first message: on_start sends
    await on_start(app.bot, st.core, st.router)  # username, menus, descriptions (bot.startup)
    if st.settings.whatsapp_enabled:  # the WhatsApp face beside this one, on its listener
        from whatsapp.app import WhatsAppFace
        st.whatsapp = await WhatsAppFace.start(st.core, st.geocoder)
    wake = st.outbox_wake = asyncio.Event()
    stop = st.loops_stop = asyncio.Event()
    st.tasks = [
        asyncio.create_task(outbox_loop(app.bot, st.core, st.loops, wake, st.delivery, stop),
                            name="outbox"),
        asyncio.create_task(sweep_loop(st.core, st.loops, wake, st.delivery.name, stop),
                            name="sweep"),
    ]


async def _post_shutdown(app: Application) -> None:
    st = state_of(app)
    tasks, st.tasks = st.tasks, []
    await finish(tasks, st.loops_stop)  # each loop ends its pass: no transaction cut midway
    if st.whatsapp is not None:
        await st.whatsapp.stop()
        st.whatsapp = None
    await st.geocoder.close()
    await st.chat_locks.close()


def _shed_notice(app: Application, update: object) -> None:
    """An update dropped because its user already has too many waiting (bot.fairness): the
    flood limit's answer, at most once per its notice period."""
    done(state_of(app), update)
    flood: FloodLimit = state_of(app).flood
    if isinstance(update, Update) and update.effective_chat is not None \
            and flood.should_notice(update.effective_user.id):
        app.create_task(app.bot.send_message(update.effective_chat.id, FLOOD))



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
