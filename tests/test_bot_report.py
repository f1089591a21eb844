"""The citizen's report, end to end through the real python-telegram-bot and the stand-ins."""
from __future__ import annotations

from sqlalchemy import func, select

from core.storage.models import Case, ConversationState, Evidence, Subscription
from tests.test_bot_support import (CENTRE, MARIA, bot, clock, core, full_report,  # noqa: F401
                                    jpeg, make_core, press, said, send_photos, start_report)


async def test_full_report_gives_protocol_and_next_steps_art_4_caput(bot, core):
    protocol = await full_report(bot, MARIA, photos=2)
    assert protocol == "2026-000001"
    done = bot.api.last_message(MARIA).text
    assert "O que acontece agora" in done and "Art. 4º" in done
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        assert (case.plate, case.category) == ("ABC1D23", "motor_vehicle")
        assert case.details["report"]["signs"] == ["missing_tyres"]
        assert case.details["report"]["time_there"] == "Mais de 30 dias"
        assert case.description == "Em frente à padaria"
        assert case.address and "Getúlio Vargas" in case.address
        assert await s.scalar(select(func.count()).select_from(Evidence)) == 2
        assert await s.scalar(select(func.count()).select_from(Subscription)) == 1
        assert await s.scalar(select(func.count()).select_from(ConversationState)) == 0
