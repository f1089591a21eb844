"""A case held for the inspector's step form (no tests here)."""
from __future__ import annotations

from core.services.citizens.reports import ReportIn, submit_report
from core.services.inspectors.accounts import bind_inspector, invite_inspector

DORES = (-19.4628, -45.6003)


async def held_case(core, photo, tg=901):
    await bind_inspector(core, tg, await invite_inspector(core, "Ana", "posturas", "staff"))
    r = ReportIn("motor_vehicle", *DORES, [photo(1)], address="Rua A, 1", plate="ABC1D23")
    return (await submit_report(core, 555, r)).protocol
