"""The PIX through the real `python -m bot` process (tests/support/bot_process.py): PIX settings in
its environment, a vehicle in the depot with the city's confirmed tariffs, the owner scans the
notice's QR code and gets the view, the "copia e cola" as one monospace block and its QR code
as a photo — the code decodes (independent decoder) to the view's total and the case."""
from __future__ import annotations

import io
import re
from datetime import datetime, timezone
from decimal import Decimal

import zxingcpp
from brcode.utils.brcodeId import jsonFromBrcode
from PIL import Image

from core.laws import get_law
from core.services.context import Core
from core.settings import Settings
from core.storage.db import Database, create_engine
from core.storage.evidence import EvidenceStore
from tests.support.bot_process import BotProcess
from tests.support.core_fixtures import EvidenceIn, jpeg
from tests.support.owner_chat import JOSE
from tests.support.payments import PIX, official_tariffs, total_in
from tests.support.owner_cases import in_depot

ENV = {k.upper(): v for k, v in PIX.items()}


async def test_the_bot_process_offers_the_pix_of_the_total(tmp_path):
    async with BotProcess.around(tmp_path / "data", **ENV) as bot:
        await bot.start()
        settings = Settings(_env_file=None, data_dir=tmp_path / "data", **PIX)
        db = Database(create_engine(f"sqlite+aiosqlite:///{bot.database}"))
        core = Core(db, get_law("dores-do-indaia"), settings, EvidenceStore(tmp_path / "data"),
                    lambda: datetime.now(timezone.utc))
        await core.seed_tariffs()

        def photo(i: int = 0) -> EvidenceIn:
            sha, _ = core.evidence.put_image(jpeg((i * 7 % 256, 30, 30)))
            return EvidenceIn(sha, "image/jpeg", "photo", f"file-{i}", f"uniq-{i}")

        sub, _ = await in_depot(core, photo)
        await official_tariffs(core)
        bot.api.add_user(JOSE)
        await bot.api.send_command(JOSE, "start", sub.case_code)
        view = await bot.api.wait_for(method="sendMessage", chat_id=JOSE, text="Seu caso",
                                      timeout=20)
        assert "Pagar por PIX" in view.text and "estimativa" not in view.text
        code = await bot.api.wait_for(method="sendMessage", chat_id=JOSE,
                                      text="br.gov.bcb.pix", timeout=20)
        qr = await bot.api.wait_for(method="sendPhoto", chat_id=JOSE, timeout=20)
        await db.dispose()
    payload = code.params["text"]
    assert code.params["entities"][0]["type"] == "pre"
    fields = jsonFromBrcode(payload)
    assert Decimal(fields["54"]) == total_in(view.text)
    assert fields["62"]["05"] == re.sub(r"[^A-Z0-9]", "", sub.case_code.upper())
    assert zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.file("photo"))))[0].text == payload
