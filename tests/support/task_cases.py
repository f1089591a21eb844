"""An inspector on duty for the task tests (no tests here)."""
from __future__ import annotations

from core.services.inspectors.accounts import bind_inspector, invite_inspector, update_location


async def fiscal(core, tg: int, name: str, agency: str, where=None) -> int:
    bound = await bind_inspector(core, tg, await invite_inspector(core, name, agency, "maria"))
    if where:
        await update_location(core, tg, *where)
    return bound.inspector_id
