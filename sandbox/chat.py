"""The sandbox's terminal chat (sandbox.terminal): what a phone would show of the bot's calls to the
Bot API stand-in, and the typed lines turned into updates.

Shown: every message the bot sends to the person at the terminal, numbered as Telegram
numbers them (`Bot #5: …`, with its buttons `[1] …`), edits of earlier messages, and the
answers to button presses (a toast as `(aviso)`, an alert as `(alerta)`). The person can be
any of three Telegram accounts (`:eu cidadao|fiscal|proprietario`) without restarting;
messages to the others wait, announced in one line, until the person switches to them.
"""
from __future__ import annotations

import asyncio
import io
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from zoneinfo import ZoneInfo

from core.services.periodic import run_periodic
from sandbox.demo import (DemoClock, demo_invitation, describe_offset, last_case_code, moved_text,
                          parse_step)
from sandbox.harness import BotHarness
from sandbox.standin.botapi import BotMessage, Button, Call, User

REPLY_TIMEOUT_S = 5.0   # how long to wait for the bot's first answer to an input
QUIET_S = 0.4           # the bot is done answering after this long without a new call


@dataclass(frozen=True)
class Identity:
    key: str
    label: str
    user: User
    hint: str


IDENTITIES = {i.key: i for i in (
    Identity("cidadao", "cidadão", User(7_000_001, "Você"),
             "Denuncie com /denunciar; acompanhe com /minhas."),
    Identity("fiscal", "fiscal", User(7_000_002, "Fiscal"),
             "Conta vinculada como fiscal de demonstração (matrícula DEMO-0001): veja suas "
             "tarefas em /tarefas."),
    Identity("proprietario", "proprietário", User(7_000_003, "Proprietário"),
             "Ainda não há caso: envie /start CÓDIGO-DO-CASO (o link do QR do aviso) ou "
             "/proprietario."),
)}
ALIASES = {"cidadão": "cidadao", "proprietário": "proprietario", "dono": "proprietario"}
YOU = IDENTITIES["cidadao"].user

_SEND = {"sendmessage", "sendphoto", "senddocument", "sendmediagroup", "sendlocation",
         "sendvenue", "sendvideo", "sendanimation"}
_EDIT = {"editmessagetext", "editmessagecaption", "editmessagereplymarkup"}


def generated_jpeg() -> bytes:
    from PIL import Image, ImageDraw
    img = Image.new("RGB", (320, 240), (120, 130, 140))
    ImageDraw.Draw(img).rectangle((60, 120, 260, 200), fill=(180, 40, 40))
    buf = io.BytesIO()
    img.save(buf, "JPEG")
    return buf.getvalue()


def _buttons_text(buttons: list[Button]) -> list[str]:
    out = []
    for i, b in enumerate(buttons, 1):
        extra = f" ({b.url})" if b.url else " (envia sua localização)" if b.request_location \
            else ""
        out.append(f"  [{i}] {b.text}{extra}")
    return out


def _truthy(value: object) -> bool:
    return value is True or str(value).lower() in ("true", "1")


def describe(call: Call) -> list[str]:
    """How the terminal shows one call the bot made to the Bot API."""
    method = call.method.lower()
    result = call.result if isinstance(call.result, dict) else {}
    text = call.text or ""
    number = f" #{call.message_id}" if call.message_id else ""
    if method == "sendphoto":
        head = f"Bot{number}: [foto]" + (f" {text}" if text else "")
    elif method in ("senddocument", "sendvideo", "sendanimation"):
        kind = method.removeprefix("send")
        name = (result.get(kind) or {}).get("file_name") or "arquivo"
        label = "documento" if kind == "document" else "vídeo"
        head = f"Bot{number}: [{label}: {name}]" + (f" {text}" if text else "")
    elif method == "sendmediagroup":
        items = call.result if isinstance(call.result, list) else []
        ids = [str(m.get("message_id")) for m in items if isinstance(m, dict)]
        head = f"Bot #{ids[0]}–#{ids[-1]}: [álbum de {len(items)} fotos/arquivos]" if ids \
            else "Bot: [álbum]"
    elif method in ("sendlocation", "sendvenue"):
        p = call.params
        head = (f"Bot{number}: [local: {p.get('latitude')}, {p.get('longitude')}] "
                f"{p.get('title') or ''} {p.get('address') or ''}".rstrip())
    elif method == "editmessagereplymarkup":
        head = f"Bot #{call.params.get('message_id')} (botões atualizados):"
    elif method in _EDIT:
        head = f"Bot #{call.params.get('message_id')} (editada): {text}"
    else:
        head = f"Bot{number}: {text}"
    first, *rest = head.split("\n")
    out = [first] + [f"     {line}" if line.strip() else "" for line in rest]
    return out + _buttons_text([b for row in call.buttons for b in row])


def toast(call: Call) -> list[str]:
    """An answered button press as the phone shows it (a toast, or an alert to dismiss)."""
    text = str(call.params.get("text") or "").strip()
    if not text:
        return []
    return [f"(alerta) {text}" if _truthy(call.params.get("show_alert")) else f"(aviso) {text}"]


class Chat:
    """The terminal chat over a running BotHarness: prints what the bot sends to the current
    identity, keeps the others' messages until the person switches, and turns typed lines
    into updates."""

    def __init__(self, harness: BotHarness, out: Callable[[str], None],
                 first_update_id: int = 1, *, clock: DemoClock | None = None,
                 documents: Path | None = None) -> None:
        self.h, self.out = harness, out
        self.clock, self.documents = clock, documents
        # The database remembers handled update ids (and ignores them again), while a fresh
        # stand-in counts from the same start: number this run's updates after the last one.
        self._update_ids = itertools.count(first_update_id)
        self.me = IDENTITIES["cidadao"]
        self._by_id = {i.user.id: i for i in IDENTITIES.values()}
        self._waiting: dict[int, list[str]] = {}
        self._queries: dict[str, int] = {}  # callback query id -> user id
        self._seen = 0
        self._printed = 0

    @property
    def centre(self) -> tuple[float, float]:
        """The configured city's centre (CITY_CENTER_LAT/LON or the law module's)."""
        return self.h.core.area.centre

    def _show(self, user_id: int, lines: list[str]) -> None:
        if not lines:
            return
        if user_id == self.me.user.id:
            for line in lines:
                self.out(line)
            self._printed += 1
            return
        other = self._by_id.get(user_id)
        if other is None:
            return
        if not self._waiting.get(user_id):
            self.out(f"(nova mensagem para {other.label}: digite :eu {other.key} para ver)")
        self._waiting.setdefault(user_id, []).extend(lines)

    def _pump(self) -> None:
        calls = self.h.api.calls
        while self._seen < len(calls) and calls[self._seen].finished:
            call = calls[self._seen]
            self._seen += 1
            method = call.method.lower()
            if not call.ok:
                continue
            if method == "answercallbackquery":
                user_id = self._queries.pop(str(call.params.get("callback_query_id")), None)
                if user_id is not None:
                    self._show(user_id, toast(call))
            elif method in _SEND or method in _EDIT:
                try:
                    self._show(int(call.chat_id), describe(call) + self._keep(call))
                except (TypeError, ValueError):
                    continue

    def _keep(self, call: Call) -> list[str]:
        """Write the documents a call sent into the documents folder; where they went."""
        if self.documents is None:
            return []
        sent = call.result if isinstance(call.result, list) else [call.result]
        out = []
        for message in sent:
            doc = message.get("document") if isinstance(message, dict) else None
            if not doc or "file_id" not in doc:
                continue
            name = Path(str(doc.get("file_name") or "documento")).name
            path = self.documents / f"{message.get('message_id')}-{name}"
            try:
                self.documents.mkdir(parents=True, exist_ok=True)
                path.write_bytes(self.h.api.file_bytes(doc["file_id"]))
            except (KeyError, OSError) as exc:
                out.append(f"     (não consegui salvar o arquivo em {path}: {exc})")
                continue
            out.append(f"     (salvo em {path})")
        return out

    async def printer(self) -> None:
        """Print the bot's messages as they arrive (also ones nobody asked for)."""
        while True:
            self._pump()
            await asyncio.sleep(0.05)

    async def settle(self, before: int) -> None:
        """Wait for the bot's answer: its first message, then a quiet moment."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REPLY_TIMEOUT_S
        while self._printed == before and loop.time() < deadline:
            self._pump()
            await asyncio.sleep(0.05)
        if self._printed == before:
            return
        seen, quiet_since = len(self.h.api.calls), loop.time()
        while loop.time() - quiet_since < QUIET_S:
            await asyncio.sleep(0.05)
            self._pump()
            if len(self.h.api.calls) != seen:
                seen, quiet_since = len(self.h.api.calls), loop.time()

    def _next(self) -> int:
        return next(self._update_ids)

    async def switch(self, name: str) -> None:
        key = ALIASES.get(name.lower(), name.lower())
        if key not in IDENTITIES:
            self.out("(use :eu cidadao, :eu fiscal ou :eu proprietario)")
            return
        self.me = IDENTITIES[key]
        hint, code, invitation = self.me.hint, None, None
        if key == "fiscal":
            invitation = await demo_invitation(self.h.core, self.me.user.id)
            if invitation:
                hint = ("Esta conta vira o fiscal de demonstração (matrícula DEMO-0001), "
                        "vinculada com um convite como um fiscal de verdade.")
        elif key == "proprietario":
            code = await last_case_code(self.h.core)
            if code:
                hint = f"Abrindo o último caso como pelo QR code do aviso: /start {code}"
        self.out(f"(agora você é o {self.me.label} “{self.me.user.first_name}”. {hint})")
        for line in self._waiting.pop(self.me.user.id, []):
            self.out(line)
        if invitation:  # bound as a real inspector binds; the waiting tasks are offered
            self.out(f"(vinculando a conta: /fiscal {invitation})")
            before = self._printed
            await self.h.api.send_command(self.me.user, "/fiscal", invitation,
                                          update_id=self._next())
            await self.settle(before)
        if code:
            before = self._printed
            await self.h.api.send_command(self.me.user, "/start", code, update_id=self._next())
            await self.settle(before)

    async def handle(self, line: str) -> bool:
        """Send one typed line; False when the chat should end."""
        line = line.strip()
        if not line:
            return True
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        before = self._printed
        api, you = self.h.api, self.me.user
        if word == ":sair":
            return False
        if word == ":eu":
            await self.switch(rest)
            return True
        if word == ":relogio" or word == ":relógio":
            await self.move_clock(rest)
            return True
        if word == ":foto":
            if rest:
                try:
                    data = Path(rest).expanduser().read_bytes()
                except OSError:
                    self.out(f"(não consegui ler o arquivo {rest})")
                    return True
            else:
                data = generated_jpeg()
            await api.send_photo(you, data, update_id=self._next())
        elif word == ":local":
            if rest:
                try:
                    lat, lon = (float(x.replace(",", ".")) for x in rest.replace(";", " ").split())
                except ValueError:
                    self.out("(use :local LAT LON, por exemplo :local {:.4f} {:.4f})"
                             .format(*self.centre))
                    return True
            else:
                lat, lon = self.centre
            await api.send_location(you, lat, lon, update_id=self._next())
        elif word == ":botao":
            if not await self._press(rest):
                return True
        elif word.startswith(":"):
            self.out("(comando do sandbox desconhecido: use :foto, :local, :botao, :eu, :relogio "
                     "ou :sair)")
            return True
        elif line.startswith("/"):
            command, _, args = line.partition(" ")
            await api.send_command(you, command, args.strip() or None, update_id=self._next())
        else:
            await api.send_text(you, line, update_id=self._next())
        await self.settle(before)
        return True

    async def move_clock(self, rest: str) -> None:
        """`:relogio +3d`: the demo clock moves forward, then the periodic job (deadline
        sweep, warnings, reminders) runs at once at the new time; its messages follow."""
        if self.clock is None:
            self.out("(este sandbox não tem relógio de demonstração)")
            return
        tz = ZoneInfo(self.h.core.settings.timezone)
        if rest:
            try:
                self.clock.move(parse_step(rest))
            except ValueError as exc:
                self.out(f"({exc})")
                return
        self.out(f"({describe_offset(self.clock, tz)})")
        if rest:
            before = self._printed
            report = await run_periodic(self.h.core)
            self.out(f"(prazos conferidos: {moved_text(len(report.sweep.moved))})")
            if report.queued_messages:
                await self.settle(before)

    def _message(self, number: str | None) -> BotMessage | None:
        """Message #number of the current chat, or the newest one with buttons."""
        messages = self.h.api.messages(self.me.user)
        if number is not None:
            return next((m for m in messages if str(m.message_id) == number), None)
        return next((m for m in reversed(messages) if m.flat_buttons()), None)

    async def _press(self, rest: str) -> bool:
        words = rest.replace(".", " ").split()
        if len(words) not in (1, 2) or not all(w.isdigit() for w in words):
            self.out("(use :botao N para a última mensagem com botões, ou :botao M N para o "
                     "botão N da mensagem #M)")
            return False
        msg = self._message(words[0] if len(words) == 2 else None)
        if msg is None:
            self.out(f"(não há mensagem #{words[0]} do bot nesta conversa)" if len(words) == 2
                     else "(nenhuma mensagem do bot com botões)")
            return False
        buttons, n = msg.flat_buttons(), int(words[-1])
        if not 1 <= n <= len(buttons):
            self.out(f"(use :botao N, com N de 1 a {len(buttons)})" if buttons
                     else f"(a mensagem #{msg.message_id} não tem botões)")
            return False
        button, api, you = buttons[n - 1], self.h.api, self.me.user
        if button.callback_data is not None:
            update = await api.press_button(you, msg, button.callback_data,
                                            update_id=self._next())
            self._queries[str(update["callback_query"]["id"])] = you.id
        elif button.request_location:
            await api.send_location(you, *self.centre, update_id=self._next())
        elif button.url:
            self.out(f"(este botão abre um link: {button.url})")
            return False
        else:  # a reply-keyboard button sends its text
            await api.send_text(you, button.text, update_id=self._next())
        return True
