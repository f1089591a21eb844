"""The bot's uploads go through the core's one check: a file whose bytes are not a photo is
refused whatever type Telegram was told, a decompression bomb is refused by its dimensions
with a clear answer, and a photo's EXIF-free public copy exists from the moment it arrives."""
from __future__ import annotations

from sqlalchemy import select

from core.storage.models import ConversationState
from tests.support.bot_chat import MARIA, jpeg, said, start_report
from tests.support.hostile_media import HTML, SVG, bomb_png


async def _photos(core) -> list:
    async with core.db.read() as s:
        return (await s.execute(select(ConversationState))).scalar_one().draft["photos"]


async def test_disguised_files_and_bombs_are_refused_with_a_clear_answer(bot, core):
    await start_report(bot, MARIA)
    await bot.api.send_document(MARIA, HTML, "carro.png", "image/png")
    await said(bot, MARIA, "aceitamos apenas fotos")
    await bot.api.send_document(MARIA, SVG, "carro.jpg", "image/jpeg")
    await said(bot, MARIA, "aceitamos apenas fotos")
    await bot.api.send_document(MARIA, bomb_png(), "carro.png", "image/png")
    await said(bot, MARIA, "grande demais")
    await bot.api.send_photo(MARIA, jpeg(4))
    await said(bot, MARIA, "1 foto recebida")
    photos = await _photos(core)
    assert len(photos) == 1
    stored = sorted(p.name for p in core.evidence.root.rglob("*") if p.is_file())
    sha = photos[0]["sha"]
    public = core.evidence.public_copy(sha)  # made on arrival, not on a later request
    assert stored == sorted([sha, sha + ".public", public.sha256])
