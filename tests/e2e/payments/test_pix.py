"""Paying the fees by PIX: the static BR Code of the Banco Central's *Manual de Padrões para
Iniciação do Pix* (core.pix) reproduces the manual's own example byte for byte, and every code
the product makes — in the owner's bot view, web page and summary PDF — is read back by an
independent decoder (starkbank-brcode) and a QR decoder (zxing-cpp): the amount is the one fee
statement's total today and the txid the case. No PIX while a tariff is an estimate (Dores
Art. 9º, II); a city that collects by guia shows the guia's instructions instead."""
from __future__ import annotations

import io
import re
import subprocess
from decimal import Decimal

import pytest
import zxingcpp
from brcode.utils.brcodeId import jsonFromBrcode
from hypothesis import given, settings, strategies as st
from PIL import Image

from core import pix
from tests.support.owner_chat import JOSE, depot_case, open_by_qr
from tests.support.bot_chat import press
from tests.support.payments import PIX, official_tariffs, owner_page, total_in

MANUAL = ("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865"
          "802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D")


def test_the_manuals_example_byte_for_byte():
    assert pix.static_brcode("123e4567-e12b-12d1-a456-426655440000", "Fulano de Tal",
                             "BRASILIA") == MANUAL
    assert jsonFromBrcode(MANUAL)["63"] == "1D3D"


@settings(max_examples=80, deadline=None)
@given(amount=st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999999.99"), places=2),
       name=st.text(min_size=1, max_size=60).filter(lambda t: pix.ascii_fold(t)),
       city=st.text(min_size=1, max_size=40).filter(lambda t: pix.ascii_fold(t)),
       code=st.from_regex(r"[0-9A-Z]{4}-[0-9A-Z]{4}", fullmatch=True))
def test_every_code_decodes_independently(amount, name, city, code):
    payload = pix.static_brcode("+5537999990000", name, city, amount, pix.txid_of(code))
    fields = jsonFromBrcode(payload)  # checks every length and the CRC16
    assert fields["26"] == {"00": "br.gov.bcb.pix", "01": "+5537999990000"}
    assert (fields["52"], fields["53"], fields["58"]) == ("0000", "986", "BR")
    assert Decimal(fields["54"]) == amount and re.fullmatch(r"\d+\.\d\d", fields["54"])
    assert fields["62"] == {"05": code.replace("-", "")}
    assert 1 <= len(fields["59"]) <= 25 and 1 <= len(fields["60"]) <= 15
    assert (fields["59"] + fields["60"]).isascii()


def test_names_are_folded_and_cut_as_banks_expect():
    fields = jsonFromBrcode(pix.static_brcode("k", PIX["pix_merchant_name"],
                                              "São João del-Rei e Região", Decimal("1")))
    assert fields["59"] == "Prefeitura Municipal de D"  # 25
    assert fields["60"] == "Sao Joao del-Re"  # 15, no accents


def test_bad_values_are_refused_in_portuguese():
    with pytest.raises(pix.PixError, match="maior que zero"):
        pix.static_brcode("k", "n", "c", Decimal("0"))
    with pytest.raises(pix.PixError, match="txid"):
        pix.static_brcode("k", "n", "c", Decimal("1"), "34C5-KSCY")


def qr_in(png: bytes) -> str:
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert found, "no QR code found"
    return found[0].text


async def test_bot_view_sends_the_code_and_the_qr_of_todays_total(bot, core, photo, clock,
                                                                 tmp_path):
    sub, _ = await depot_case(core, photo, clock)
    await official_tariffs(core)
    view = await open_by_qr(bot, JOSE, sub.case_code)
    assert "estimativa" not in view.text and "Pagar por PIX: R$\xa0440,00" in view.text
    code = await bot.api.wait_for(method="sendMessage", chat_id=JOSE, text="br.gov.bcb.pix")
    payload = code.params["text"]
    entities = code.params["entities"]  # one monospace block over the whole code
    assert entities[0]["type"] == "pre" and entities[0]["length"] == len(payload)
    fields = jsonFromBrcode(payload)
    assert Decimal(fields["54"]) == total_in(view.text) == Decimal("440.00")
    assert fields["62"]["05"] == sub.case_code.replace("-", "")
    qr = await bot.api.wait_for(method="sendPhoto", chat_id=JOSE)
    assert qr_in(qr.file("photo")) == payload
    # the summary PDF prints the same code, as text and as a QR code
    doc = await press(bot, JOSE, "Resumo em PDF", expect=sub.case_code, method="sendDocument")
    pdf = doc.file("document")
    (tmp_path / "resumo.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "200", "-png", "-singlefile", str(tmp_path / "resumo.pdf"),
                    str(tmp_path / "resumo")], check=True)
    png = (tmp_path / "resumo.png").read_bytes()
    codes = {r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))}
    assert payload in codes
    from pypdf import PdfReader
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert payload in text.replace("\n", "")  # wrapped, never altered


async def test_no_pix_while_a_tariff_is_an_estimate_art_9_II(bot, core, photo, clock):
    sub, _ = await depot_case(core, photo, clock)  # the towing is still a reference value
    view = await open_by_qr(bot, JOSE, sub.case_code)
    assert "Total (estimativa)" in view.text and "PIX" not in view.text
    await bot.api.send_text(JOSE, "oi")  # nothing else was sent with the view
    assert not [c for c in bot.api.calls if c.method == "sendPhoto"]


async def test_a_guia_city_shows_its_instructions(make_core, photo, clock):
    from sandbox.harness import BotHarness
    core = await make_core(payment_guia_instructions="Retire a guia (DAM) no setor de "
                           "Tributos e pague em qualquer banco.", **PIX)
    async with BotHarness(core) as h:
        sub, _ = await depot_case(core, photo, clock)
        await official_tariffs(core)
        view = await open_by_qr(h, JOSE, sub.case_code)
        assert "Como pagar (guia da Prefeitura): Retire a guia (DAM)" in view.text
        assert "br.gov.bcb.pix" not in view.text


async def test_web_owner_page_shows_the_pix_and_marks_estimates(core, photo, clock):
    sub, _ = await depot_case(core, photo, clock)
    html = await owner_page(core, sub)
    assert "Total (estimativa): R$" in html and "br.gov.bcb.pix" not in html
    await official_tariffs(core)
    html = await owner_page(core, sub)
    assert "estimativa" not in html
    payload = re.search(r'<pre class="pix-code" id="pix-code">([^<]+)</pre>', html).group(1)
    assert Decimal(jsonFromBrcode(payload)["54"]) == total_in(html.replace("&nbsp;", "\xa0"))
    assert 'src="data:image/svg+xml' in html  # inline, no external request
