"""A person's phone in the sample generator (docs.samples): what a citizen, an inspector or an
owner types and taps in the real bot (sandbox.harness.BotHarness over the Bot API stand-in), and
what the bot answers. The forms are answered by what they ask (the question's words), so a
question added to a step or a report gets an answer here without listing every step."""
from __future__ import annotations

import io
import re
from typing import Callable

from sandbox.harness import BotHarness
from sandbox.standin.botapi import BotMessage, Call, User

#: Typed answers to the inspector's step forms, by words of the question (first match wins).
TYPED = (
    ("papel afixado", None), ("número da notificação", "use"), ("número do termo", "use"),
    ("número do auto", "use"), ("livro do depósito", "use"),
    ("palavras do cidadão", "use"), ("marca, modelo", "use"),
    ("nome do proprietário", "Maria da Silva"), ("CPF", "529.982.247-25"),
    ("nome do infrator", "José Fulano de Tal"), ("nome do ambulante", "skip"),
    ("fato constitutivo", "Veículo abandonado sobre a calçada, obstruindo a passagem"),
    ("lugar da infração", "Rua Brasil, 1200, Centro"),
    ("preceito de lei", "Lei nº 56/1951, Art. 1º"), ("valor da multa", "150,00"),
    ("circunstância que impediu", "O infrator não estava no local"),
    ("duas testemunhas", "Pedro Souza, Joana Lima"),
    ("endereço em que o infrator foi intimado", "Rua Bahia, 10, Centro"),
    ("relação das mercadorias", "12 óculos de sol\n30 capinhas de celular"),
    ("especificação das mercadorias", "Carrinho de lanches com chapa e botijão"),
    ("hodômetro", "98.765 km"), ("pátio de destino", "use"),
    ("peso", "skip"), ("impostos", "skip"), ("animais", "skip"), ("contato", "skip"),
    ("data da intimação", "today"), ("data e hora", "now"), ("observações", "Verificado no local"),
)
PASSO = re.compile(r"Passo \d+ de \d+: (.+?)\.\n", re.S)


class Phone:
    """One person's chat with the bot."""

    def __init__(self, h: BotHarness, user: User, today: Callable[[], str]) -> None:
        self.h, self.user, self.today = h, user, today
        h.api.add_user(user)
        self.photos = 0

    # -- what the person does --------------------------------------------------------------
    async def send(self, text: str, expect: str | None = None) -> Call | None:
        mark = self.h.api.mark()
        await self.h.api.send_text(self.user, text)
        return await self._next(mark, expect)

    async def command(self, name: str, args: str | None = None,
                      expect: str | None = None) -> Call | None:
        mark = self.h.api.mark()
        await self.h.api.send_command(self.user, name, args)
        return await self._next(mark, expect)

    async def press(self, button: str, expect: str | None = None,
                    method: str = "sendMessage") -> Call | None:
        msg = self.with_button(button)
        mark = self.h.api.mark()
        await self.h.api.press_button(self.user, msg, text=self.button_text(msg, button))
        await self.h.api.wait_for(method="answerCallbackQuery", since=mark)
        if expect is None and method == "sendMessage":
            return None
        return await self.h.api.wait_for(method=method, chat_id=self.user, text=expect,
                                         since=mark, timeout=30)

    async def photo(self, expect: str | None = None) -> Call | None:
        mark = self.h.api.mark()
        self.photos += 1
        await self.h.api.send_photo(self.user, jpeg(self.user.id * 100 + self.photos))
        return await self._next(mark, expect)

    async def location(self, lat: float, lon: float, expect: str | None = None) -> Call | None:
        mark = self.h.api.mark()
        await self.h.api.send_location(self.user, lat, lon)
        return await self._next(mark, expect)

    async def said(self, text: str, since: int = 0) -> Call:
        return await self.h.api.wait_for(method="sendMessage", chat_id=self.user, text=text,
                                         since=since, timeout=30)

    async def document(self, name: str, since: int = 0) -> bytes:
        call = await self.h.api.wait_for(
            method="sendDocument", chat_id=self.user, since=since, timeout=30,
            predicate=lambda c: name in (c.params.get("caption") or "")
            or any(name in (f.filename or "") for f in c.files.values()))
        return next(iter(call.files.values())).data

    # -- what the person sees --------------------------------------------------------------
    def with_button(self, text: str) -> BotMessage:
        for m in reversed(self.h.api.messages(self.user)):
            if any(text in b.text for b in m.flat_buttons()):
                return m
        last = [m.text for m in self.h.api.messages(self.user)[-2:]]
        raise RuntimeError(f"{self.user.first_name}: no button {text!r}; last: {last}")

    @staticmethod
    def button_text(msg: BotMessage, text: str) -> str:
        return next(b.text for b in msg.flat_buttons() if text in b.text)

    def last(self) -> BotMessage:
        return next(m for m in reversed(self.h.api.messages(self.user)) if m.text)

    async def _next(self, mark: int, expect: str | None) -> Call | None:
        if expect is None:
            return None
        return await self.h.api.wait_for(method="sendMessage", chat_id=self.user, text=expect,
                                         since=mark, timeout=30)

    # -- a whole form ----------------------------------------------------------------------
    async def fill_step(self, button: str, choices: dict[str, str] | None = None,
                        ticks: int = 3) -> str:
        """Tap a case card's action and answer its form until the step is registered (the
        answers from TYPED, `choices` overriding by words of the question); the bot's
        "Registrado" text."""
        await self.press(button, expect="Passo")
        choices = choices or {}
        for _ in range(40):
            msg = self.last()
            text = msg.text or ""
            if "Confira antes de registrar" in text:
                done = await self.press("Confirmar", expect="")
                done = await self.h.api.wait_for(
                    method="sendMessage", chat_id=self.user, timeout=30,
                    predicate=lambda c: "Registrado" in (c.params.get("text") or "")
                    or "Nada foi registrado" in (c.params.get("text") or ""))
                if "Nada foi registrado" in done.params["text"]:
                    raise RuntimeError(done.params["text"])
                return done.params["text"]
            found = PASSO.search(text + "\n")
            if not found:
                raise RuntimeError(f"unexpected form message: {text}")
            await self._answer(msg, found.group(1), choices, ticks)
        raise RuntimeError("form did not end")

    async def _answer(self, msg: BotMessage, label: str, choices: dict[str, str],
                      ticks: int) -> None:
        buttons = [b.text for b in msg.flat_buttons()]
        answer = next((v for k, v in choices.items() if k in label), None)
        if answer is None:
            answer = next((v for k, v in TYPED if k.lower() in label.lower()), None)
        toggles = [b for b in buttons if b.startswith("⬜")
                   or (b.startswith("✅ ") and b != "✅ Pronto")]
        if toggles and answer is None:
            for b in [b for b in buttons if b.startswith("⬜")][:ticks]:
                await self.press(b)
            await self.press("Continuar", expect="")
        elif "Envie" in (msg.text or "") and "Pronto" in " ".join(buttons) and answer is None:
            await self.photo(expect="ecebid")
            await self.press("Pronto", expect="")
        elif answer == "use":
            await self.press("Usar", expect="")
        elif answer == "skip":
            await self.press("Pular", expect="")
        elif answer == "now":
            await self.press("Agora", expect="")
        elif answer == "today":
            await self.send(self.today(), expect="")
        elif answer is not None and any(answer == b for b in buttons):
            await self.press(answer, expect="")
        elif answer is not None:
            await self.send(answer, expect="")
        elif "Sim" in buttons:
            await self.press("Sim", expect="")
        elif buttons and buttons[0] not in ("Cancelar",):
            await self.press(buttons[0], expect="")
        else:
            raise RuntimeError(f"no answer for {label!r}")


def jpeg(seed: int) -> bytes:
    """A small photo, different for each seed (the bot keeps one copy of equal photos)."""
    from PIL import Image, ImageDraw
    img = Image.new("RGB", (320, 240), (90 + seed * 37 % 120, 110, 130 + seed * 13 % 100))
    ImageDraw.Draw(img).rectangle((40 + seed % 50, 110, 260, 200), fill=(170, 40, 40))
    out = io.BytesIO()
    img.save(out, "JPEG")
    return out.getvalue()
