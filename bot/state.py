"""The bot's application state, typed: one `BotState` built at start-up (bot.app) and stored
once in the Application's bot_data (`state_of(app)`, `state_of(context)`); the per-update
dispatch (bot.dispatch), the flows (through Turn), the replies and the webhook read it."""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.flood import FloodLimit
    from bot.geocoding import Geocoder
    from bot.intake import Throttle, Unparsable
    from bot.loops import LoopSettings
    from bot.router import Router
    from bot.sender import DeliveryState
    from core.services.context import Core
    from core.services.messaging.chats import ChatLocks
    from core.services.messaging.conversation import Conversation
    from core.services.messaging.send_limits import SendLimits
    from core.settings import Settings

KEY = "state"


@dataclass(eq=False)
class BotState:
    core: Core
    settings: Settings
    router: Router
    loops: LoopSettings
    flood: FloodLimit
    geocoder: Geocoder
    unparsable: Unparsable
    error_log: Throttle  # the same failure again and again: logged once, then summarised
    delivery: DeliveryState
    chat_locks: ChatLocks
    #: several workers share the bot (PostgreSQL): chats are locked, nothing is cached
    shared: bool
    #: Telegram's limits counted with every worker's sends (None: this process alone)
    send_limits: SendLimits | None = None
    album_delay_s: float = 1.0  # an album's photos are acknowledged once, this long after
    outbox_wake: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task] = field(default_factory=list)  # the outbox and sweep loops
    loops_stop: asyncio.Event = field(default_factory=asyncio.Event)  # set: the loops end
    #: webhook calls waiting for their update to be handled (bot.webhook, several workers)
    webhook_waiters: dict[int, asyncio.Future] = field(default_factory=dict)
    album_timers: dict[Any, asyncio.Task] = field(default_factory=dict)
    whatsapp: Any = None  # the WhatsApp face (whatsapp.app.WhatsAppFace) when it is set up
    # -- what bot.dispatch caches on SQLite (one process: the only writer) ------------------
    conversations: OrderedDict[int, Conversation | None] = field(default_factory=OrderedDict)
    conversations_complete: bool = False  # every stored conversation is in `conversations`
    update_hwm: int | None = None  # the last update id handled before this process started
    seen_updates: set[int] = field(default_factory=set)


def state_of(holder: Any) -> BotState:
    """The state of an Application or a callback context (anything with bot_data)."""
    return holder.bot_data[KEY]
