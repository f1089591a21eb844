"""The owner's steps and the bot's own bookkeeping commit together: core.services.owners runs
the bot's `also=` hook (conversation state, update mark) inside the step's transaction, so a
failure after the step leaves neither (Dores Art. 6º, §3º statement; Dracena Art. 4º, §2º)."""
from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select

from core.services.messaging import conversation
from core.services.owners.proof import prove_owner
from core.services.owners.view import STATEMENT_NOTED
from core.services.owners import (check_appeal, file_appeal, link_by_code, owner_statement,
                                  owner_view, set_owner_situation)
from core.storage.models import ConversationState, Event, OwnerLink
from tests.support.owner_cases import APPELLANT, OWNER, dracena_apprehension, in_depot, notified


class Boom(Exception):
    pass


async def boom(s) -> None:
    await conversation.save(s, OWNER, "owner:date", {"x": 1})
    raise Boom()


async def counts(core):
    async with core.db.read() as s:
        return (await s.scalar(select(func.count()).select_from(Event)),
                await s.scalar(select(func.count()).select_from(ConversationState)),
                await s.scalar(select(func.count()).select_from(OwnerLink)))


async def test_statement_and_hook_commit_together_art_6_par_3(core, photo):
    sub = await notified(core, photo)
    with pytest.raises(Boom):
        await link_by_code(core, OWNER, sub.case_code, also=boom)
    assert await counts(core) == (3, 0, 0)  # report, diligence, notice: no link, no state
    await link_by_code(core, OWNER, sub.case_code)
    await prove_owner(core, OWNER, sub.case_code, "ABC1D23")  # more than the notice shows
    before = await counts(core)
    with pytest.raises(Boom):
        await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 5),
                              also=boom)
    assert await counts(core) == before
    assert (await owner_view(core, OWNER, sub.case_code)).state == "owner_notified"

    async def mark(s):
        await conversation.mark_processed(s, 42)
    await owner_statement(core, OWNER, sub.case_code, "removed", also=mark)
    assert await conversation.is_processed(core, 42)
    # beside the running notice (Art. 6º, caput): recorded, the case does not move
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.state == "owner_notified" and STATEMENT_NOTED in view.next_step


async def test_situation_hook_rolls_back_art_3_par_3_I(core, photo, clock):
    sub, _ = await in_depot(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    with pytest.raises(Boom):
        await set_owner_situation(core, OWNER, sub.case_code, also=boom, by_attorney=True)
    assert not (await owner_view(core, OWNER, sub.case_code)).depot.situation.by_attorney


async def test_appeal_hook_and_check_appeal_art_4_par_2(make_core, photo, clock):
    core = await make_core("dracena")
    sub = await dracena_apprehension(core, photo, clock)
    window = await check_appeal(core, OWNER, sub.case_code)
    assert window.article == "Art. 4º, §2º"
    with pytest.raises(Boom):
        await file_appeal(core, OWNER, sub.case_code, "Não é meu.", [], appellant=APPELLANT,
                         also=boom)
    assert (await owner_view(core, OWNER, sub.case_code)).state == "apprehended"
    await file_appeal(core, OWNER, sub.case_code, "Não é meu.", [], appellant=APPELLANT)
    with pytest.raises(Exception) as again:
        await check_appeal(core, OWNER, sub.case_code)
    assert "já foi apresentado" in again.value.message
