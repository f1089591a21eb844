"""The `bot` fixture and helpers for the bot's end-to-end tests (a pytest plugin of
tests/conftest.py; no tests here).

The real python-telegram-bot Application runs over HTTP against sandbox.standin.botapi, geocoding
goes through geopy to sandbox.standin.nominatim, and the Core sits on the `db` fixture (SQLite
always, PostgreSQL too when TEST_DATABASE_URL is set)."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from sandbox.harness import BotHarness
from sandbox.standin.botapi import BotMessage, Call, User

CENTRE = (-19.4628, -45.6003)
BELO_HORIZONTE = (-19.9167, -43.9345)
MARIA = User(1001, "Maria")
JOAO = User(1002, "João")


def jpeg(i: int = 0, size=(64, 48)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (i * 37 % 256, 90, 140)).save(buf, "JPEG")
    return buf.getvalue()


@pytest.fixture
async def bot(core):
    async with BotHarness(core) as h:
        yield h


async def said(h: BotHarness, user: User, text: str | None = None, **kw) -> Call:
    """The next sendMessage to `user` (containing `text`) since the last injected update."""
    return await h.api.wait_for(method="sendMessage", chat_id=user, text=text, **kw)


def with_button(h: BotHarness, user: User, text: str) -> BotMessage:
    """The newest bot message in the chat that has a button containing `text`."""
    for m in reversed(h.api.messages(user)):
        if any(text in b.text for b in m.flat_buttons()):
            return m
    raise AssertionError(f"no message with a button {text!r}; last: "
                         f"{[(m.text, [b.text for b in m.flat_buttons()]) for m in h.api.messages(user)[-3:]]}")


async def press(h: BotHarness, user: User, button: str, expect: str | None = None,
                method: str = "sendMessage") -> Call | None:
    msg = with_button(h, user, button)
    await h.api.press_button(user, msg, text=button)
    await h.api.wait_for(method="answerCallbackQuery")
    if expect is not None:
        return await h.api.wait_for(method=method, chat_id=user, text=expect)
    return None


async def start_report(h: BotHarness, user: User, category: str = "Veículo motorizado") -> None:
    await h.api.send_command(user, "denunciar")
    await said(h, user, "O que você quer denunciar")
    await press(h, user, category, expect="Envie de 1 a 10 fotos")


async def send_photos(h: BotHarness, user: User, n: int = 1, start: int = 0) -> None:
    for i in range(start, start + n):
        await h.api.send_photo(user, jpeg(i))
        await said(h, user, "1 foto recebida" if i == 0 else f"{i + 1} fotos recebidas")


async def pin(h: BotHarness, user: User, lat: float = CENTRE[0], lon: float = CENTRE[1],
              expect: str = "Local registrado") -> Call:
    await h.api.send_location(user, lat, lon)
    return await said(h, user, expect)


async def vehicle_questions(h: BotHarness, user: User, plate: str = "ABC1D23") -> None:
    await h.api.send_text(user, plate)
    await said(h, user, "Qual é a cor")
    await h.api.send_text(user, "prata")
    await said(h, user, "marca e o modelo")
    await h.api.send_text(user, "VW Gol")
    await said(h, user, "Há quanto tempo")
    await press(h, user, "Mais de 30 dias", expect="sinais de abandono")
    await press(h, user, "Faltando um ou mais pneus")
    await press(h, user, "Continuar", expect="acrescentar alguma informação")


async def full_report(h: BotHarness, user: User, photos: int = 1,
                      lat: float = CENTRE[0], lon: float = CENTRE[1]) -> str:
    """A complete vehicle report by pin; returns the protocol."""
    await start_report(h, user)
    await send_photos(h, user, photos)
    await press(h, user, "Pronto", expect="Onde fica")
    await pin(h, user, lat, lon)
    await said(h, user, "Qual é a placa")
    await vehicle_questions(h, user)
    await h.api.send_text(user, "Em frente à padaria")
    await said(h, user, "Confira sua denúncia")
    call = await press(h, user, "Confirmar", expect="Protocolo:")
    return call.text.split("Protocolo: ")[1].split()[0]


def buttons(h: BotHarness, user: User) -> list[str]:
    """The buttons of the newest bot message in `user`'s chat."""
    return [b.text for b in h.api.last_message(user).flat_buttons()]


async def until_summary(h: BotHarness, user: User) -> str:
    """Skip every question after the location ("Não sei", "Continuar", "Pular") up to the
    report's summary, and return it."""
    for _ in range(8):
        text = h.api.last_message(user).text or ""
        if "Confira sua denúncia" in text:
            return text
        labels = buttons(h, user)
        choice = next(b for b in ("Não sei", "Continuar ➡️", "Pular") if b in labels)
        await press(h, user, choice, expect="")
    raise AssertionError(h.api.last_message(user).text)
