"""The bot's Telegram username, which every owner link needs
(https://t.me/<username>?start=<case code>, printed and as a QR code on the legal documents).

The bot learns it from Telegram (getMe) at each start-up and records it here, in the database
the panel shares: the panel is a separate process with no token of its own, and it issues
documents too (e.g. the termo of a depot entry). TELEGRAM_BOT_USERNAME, when set, overrides
what was learnt (for a panel started before the bot ever ran)."""
from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core
from core.storage.dialect import insert_ignore
from core.storage.models import AppSetting

BOT_USERNAME = "bot_username"


def clean_username(raw: str | None) -> str:
    return (raw or "").strip().lstrip("@")


async def record_bot_username(core: Core, username: str) -> None:
    """Keep the username the bot learnt from getMe (called at every start-up)."""
    username = clean_username(username)
    if not username:
        return
    async with core.db.unit_of_work() as s:  # several workers may start at once: insert first
        await s.execute(insert_ignore(s, AppSetting.__table__, {
            "key": BOT_USERNAME, "value": username, "updated_at": core.now()}, ["key"]))
        row = await s.get(AppSetting, BOT_USERNAME, with_for_update=True)
        if row is None:
            s.add(AppSetting(key=BOT_USERNAME, value=username, updated_at=core.now()))
        elif row.value != username:
            row.value, row.updated_at = username, core.now()


async def bot_username(core: Core, session: AsyncSession | None = None) -> str:
    """TELEGRAM_BOT_USERNAME if set, else the username the bot last learnt, else ""."""
    override = clean_username(core.settings.telegram_bot_username)
    if override:
        return override
    if session is None:
        async with core.db.read() as s:
            return await bot_username(core, s)
    row = await session.get(AppSetting, BOT_USERNAME)
    return row.value if row is not None else ""


async def learnt_username(core: Core) -> str:
    """The username the bot last recorded (the override ignored), or ""."""
    async with core.db.read() as s:
        row = await s.get(AppSetting, BOT_USERNAME)
    return row.value if row is not None else ""
