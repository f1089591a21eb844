"""The role check every flow uses before a role-only command or button."""
from __future__ import annotations

from bot.router import Turn
from bot.texts import WRONG_ROLE
from core.services.roles import roles_of


async def has_role(turn: Turn, role: str) -> bool:
    return role in await roles_of(turn.core, turn.user_id)


async def require_role(turn: Turn, role: str) -> bool:
    """True if the user holds `role`; otherwise answer politely (button or message)."""
    if await has_role(turn, role):
        return True
    text = WRONG_ROLE.get(role, "Você não tem permissão para isso.")
    if turn.query is not None:
        await turn.answer(text, alert=True)
    else:
        await turn.reply(text)
    return False
