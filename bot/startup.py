"""What the bot does at each start-up, idempotently, before it takes updates (Telegram's
conventions and what the other processes need from it):

- records the username it learnt from getMe (core.services.messaging.bot_identity), so the owner links
  on documents, issued by the bot or by the panel, never lack it;
- the command menus: the citizens' for everyone (default scope) and, for each bound active
  inspector, a chat-scoped menu with the inspector's commands (/tarefas); a deactivated
  inspector's chat-scoped menu is deleted (the deactivation also queues that deletion in the
  outbox, see core.services.inspectors.accounts.MENU_WITHDRAWN, so it reaches Telegram at once);
- the bot's description and short description in Portuguese, naming the city (or every
  city served).

A refusal from Telegram is logged and never stops the bot."""
from __future__ import annotations

import logging

from telegram import Bot, BotCommand, BotCommandScopeChat
from telegram.error import TelegramError

from bot.router import Router
from bot.texts import (DESCRIPTION, DESCRIPTION_MANY, SHORT_DESCRIPTION, SHORT_DESCRIPTION_ANY,
                       SHORT_DESCRIPTION_MANY)
from core.services.messaging.bot_identity import bot_username, clean_username, record_bot_username
from core.services.context import Core
from core.services.inspectors.accounts import inspector_chats
from core.services.errors import StorageUnavailable

log = logging.getLogger(__name__)


def inspector_menu(router: Router) -> list[BotCommand]:
    """An inspector's menu: the citizens' commands and the inspector's own (/tarefas)."""
    return router.menu() + router.menu("inspector")


async def set_inspector_menu(bot: Bot, router: Router, telegram_id: int) -> None:
    await bot.set_my_commands(inspector_menu(router), scope=BotCommandScopeChat(telegram_id))


#: Telegram's limits: setMyDescription, setMyShortDescription
LONG_MAX, SHORT_MAX = 512, 120


def descriptions(core: Core) -> tuple[str, str]:
    """The bot's profile: its city, or every city it serves."""
    law = core.law
    if core.many_cities:
        cities = core.cities_named()
        long_text = DESCRIPTION_MANY.format(cities=cities)
        if len(long_text) > LONG_MAX:
            long_text = DESCRIPTION_MANY.format(cities="vários municípios")
        short = SHORT_DESCRIPTION_MANY.format(cities=cities)
        return long_text, short if len(short) <= SHORT_MAX else SHORT_DESCRIPTION_ANY
    return (DESCRIPTION.format(city=law.city, uf=law.uf, law=law.short),
            SHORT_DESCRIPTION.format(city=law.city, uf=law.uf))


async def on_start(bot: Bot, core: Core, router: Router) -> None:
    """Every step is attempted; a failure is logged and the next one still runs."""
    learnt = clean_username(bot.username)
    try:
        await record_bot_username(core, learnt)
        configured = await bot_username(core)
        if configured != learnt:
            log.warning("TELEGRAM_BOT_USERNAME=%s differs from the bot's username @%s "
                        "(getMe): owner links on documents use the setting", configured, learnt)
    except StorageUnavailable as exc:
        log.warning("could not record the bot's username: %s", exc.detail)
    long_text, short_text = descriptions(core)
    await _attempt("setMyCommands", bot.set_my_commands(router.menu()))
    await _attempt("setMyDescription", bot.set_my_description(long_text))
    await _attempt("setMyShortDescription", bot.set_my_short_description(short_text))
    try:
        active, deactivated = await inspector_chats(core)
    except StorageUnavailable as exc:
        log.warning("inspector menus not set: %s", exc.detail)
        return
    for telegram_id in active:
        await _attempt("setMyCommands (inspector)", set_inspector_menu(bot, router, telegram_id))
    for telegram_id in deactivated:
        await _attempt("deleteMyCommands (deactivated inspector)",
                       bot.delete_my_commands(scope=BotCommandScopeChat(telegram_id)))


async def _attempt(what: str, call) -> None:
    try:
        await call
    except TelegramError as exc:
        log.warning("start-up: %s refused: %s", what, exc)
