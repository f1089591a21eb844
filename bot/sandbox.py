"""`python -m bot.sandbox`: try the bot in the terminal, with no Telegram token.

The real bot runs against the local stand-ins (bot.standin.botapi for the Bot API,
bot.standin.nominatim for geocoding) through bot.harness.BotHarness, on a SQLite database in
DATA_DIR/sandbox/. The person at the terminal is the citizen "Você": each line typed goes to
the bot as a message, and the bot's answers are printed as they arrive.

`run_sandbox(lines, out)` is the whole chat: `lines` is any (async) iterable of input lines,
`out` is called with each line of output; main() feeds it stdin.
"""
from __future__ import annotations

import asyncio
import io
import itertools
import logging
import sys
import threading
from pathlib import Path
from typing import AsyncIterable, AsyncIterator, Callable, Iterable

from bot.harness import BotHarness
from bot.standin.botapi import BotMessage, Button, Call, User
from core.services import conversation
from core.services.context import Core
from core.settings import Settings

YOU = User(7_000_001, "Você")
DORES_CENTRE = (-19.4628, -45.6003)
REPLY_TIMEOUT_S = 5.0   # how long to wait for the bot's first answer to an input
QUIET_S = 0.4           # the bot is done answering after this long without a new call

HELP = """\
Via Livre — sandbox local do bot (você conversa com o bot real, mas aqui no terminal).
ATENÇÃO: isto NÃO está conectado ao Telegram. Para usar o Telegram de verdade, defina
TELEGRAM_BOT_TOKEN (veja o .env.example). Os dados do sandbox ficam em {data_dir}.
Digite uma mensagem ou um comando (/start, /denunciar, /minhas, /ajuda…) e tecle Enter.
  :foto [CAMINHO]   envia uma foto (sem caminho, uma foto gerada)
  :local LAT LON    envia uma localização (só :local envia o centro de Dores do Indaiá)
  :botao N          aperta o botão [N] da última mensagem do bot que tem botões
  :sair             encerra o sandbox (Ctrl-D ou Ctrl-C também)"""

_SEND = {"sendmessage", "sendphoto", "senddocument", "sendmediagroup", "sendlocation",
         "sendvenue", "sendvideo", "sendanimation"}
_EDIT = {"editmessagetext", "editmessagecaption"}


def sandbox_settings(base: Settings | None = None) -> Settings:
    """The settings the sandbox runs on: SQLite under DATA_DIR/sandbox/, no webhook (the
    token, Bot API and Nominatim URLs are set to the stand-ins' by BotHarness)."""
    base = base or Settings()
    return base.model_copy(update={
        "data_dir": Path(base.data_dir) / "sandbox", "database_url": "",
        "webhook_url": "", "webhook_secret": ""})


def generated_jpeg() -> bytes:
    from PIL import Image, ImageDraw
    img = Image.new("RGB", (320, 240), (120, 130, 140))
    ImageDraw.Draw(img).rectangle((60, 120, 260, 200), fill=(180, 40, 40))
    buf = io.BytesIO()
    img.save(buf, "JPEG")
    return buf.getvalue()


def _buttons_text(buttons: list[Button]) -> list[str]:
    return [f"  [{i}] {b.text}" + (f" ({b.url})" if b.url else "")
            for i, b in enumerate(buttons, 1)]


def describe(call: Call) -> list[str]:
    """How the terminal shows one call the bot made to the Bot API."""
    method = call.method.lower()
    result = call.result if isinstance(call.result, dict) else {}
    text = call.text or ""
    if method == "sendphoto":
        head = "Bot: [foto]" + (f" {text}" if text else "")
    elif method in ("senddocument", "sendvideo", "sendanimation"):
        kind = method.removeprefix("send")
        name = (result.get(kind) or {}).get("file_name") or "arquivo"
        label = "documento" if kind == "document" else "vídeo"
        head = f"Bot: [{label}: {name}]" + (f" {text}" if text else "")
    elif method == "sendmediagroup":
        items = call.result if isinstance(call.result, list) else []
        head = f"Bot: [{len(items)} foto(s)/arquivo(s)]"
    elif method in ("sendlocation", "sendvenue"):
        p = call.params
        head = f"Bot: [local: {p.get('latitude')}, {p.get('longitude')}] {p.get('title') or ''}"
    elif method in _EDIT:
        head = f"Bot (mensagem atualizada): {text}"
    else:
        head = f"Bot: {text}"
    first, *rest = head.split("\n")
    out = [first] + [f"     {line}" if line.strip() else "" for line in rest]
    return out + _buttons_text([b for row in call.buttons for b in row])


class Chat:
    """The terminal chat over a running BotHarness: prints what the bot sends to YOU and
    turns typed lines into updates."""

    def __init__(self, harness: BotHarness, out: Callable[[str], None],
                 first_update_id: int = 1) -> None:
        self.h, self.out = harness, out
        # The database remembers handled update ids (and ignores them again), while a fresh
        # stand-in counts from the same start: number this run's updates after the last one.
        self._update_ids = itertools.count(first_update_id)
        self._seen = 0
        self._printed = 0

    def _pump(self) -> None:
        calls = self.h.api.calls
        while self._seen < len(calls) and calls[self._seen].finished:
            call = calls[self._seen]
            self._seen += 1
            method = call.method.lower()
            if not call.ok or str(call.chat_id) != str(YOU.id):
                continue
            if method in _SEND or method in _EDIT:
                for line in describe(call):
                    self.out(line)
                self._printed += 1

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

    def _last_with_buttons(self) -> BotMessage | None:
        for m in reversed(self.h.api.messages(YOU)):
            if m.flat_buttons():
                return m
        return None

    async def handle(self, line: str) -> bool:
        """Send one typed line; False when the chat should end."""
        line = line.strip()
        if not line:
            return True
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        before = self._printed
        api = self.h.api
        if word == ":sair":
            return False
        if word == ":foto":
            if rest:
                try:
                    data = Path(rest).expanduser().read_bytes()
                except OSError:
                    self.out(f"(não consegui ler o arquivo {rest})")
                    return True
            else:
                data = generated_jpeg()
            await api.send_photo(YOU, data, update_id=self._next())
        elif word == ":local":
            if rest:
                try:
                    lat, lon = (float(x.replace(",", ".")) for x in rest.replace(";", " ").split())
                except ValueError:
                    self.out("(use :local LAT LON, por exemplo :local -19.4628 -45.6003)")
                    return True
            else:
                lat, lon = DORES_CENTRE
            await api.send_location(YOU, lat, lon, update_id=self._next())
        elif word == ":botao":
            if not await self._press(rest):
                return True
        elif word.startswith(":"):
            self.out("(comando do sandbox desconhecido: use :foto, :local, :botao N ou :sair)")
            return True
        elif line.startswith("/"):
            command, _, args = line.partition(" ")
            await api.send_command(YOU, command, args.strip() or None,
                                   update_id=self._next())
        else:
            await api.send_text(YOU, line, update_id=self._next())
        await self.settle(before)
        return True

    async def _press(self, rest: str) -> bool:
        msg = self._last_with_buttons()
        if msg is None:
            self.out("(nenhuma mensagem do bot com botões)")
            return False
        buttons = msg.flat_buttons()
        try:
            button = buttons[int(rest) - 1]
            if int(rest) < 1:
                raise IndexError
        except (ValueError, IndexError):
            self.out(f"(use :botao N, com N de 1 a {len(buttons)})")
            return False
        api = self.h.api
        if button.callback_data is not None:
            await api.press_button(YOU, msg, button.callback_data, update_id=self._next())
        elif button.request_location:
            await api.send_location(YOU, *DORES_CENTRE, update_id=self._next())
        elif button.url:
            self.out(f"(este botão abre um link: {button.url})")
            return False
        else:  # a reply-keyboard button sends its text
            await api.send_text(YOU, button.text, update_id=self._next())
        return True


async def _as_async(lines: Iterable[str] | AsyncIterable[str]) -> AsyncIterator[str]:
    if hasattr(lines, "__aiter__"):
        async for line in lines:  # type: ignore[union-attr]
            yield line
    else:
        for line in lines:  # type: ignore[union-attr]
            yield line


async def run_sandbox(lines: Iterable[str] | AsyncIterable[str],
                      out: Callable[[str], None] = print, *,
                      settings: Settings | None = None, prompt: bool = False) -> int:
    """Run the sandbox chat until `:sair` or the end of `lines`; returns the exit status (0).
    With `prompt`, "Você: " is printed before each line is read."""
    settings = sandbox_settings(settings)
    core = await Core.open(settings)
    try:
        out(HELP.format(data_dir=Path(settings.data_dir).resolve()))
        async with BotHarness(core) as harness:
            chat = Chat(harness, out, await conversation.last_processed(core) + 1)
            printer = asyncio.create_task(chat.printer())
            try:
                source = _as_async(lines).__aiter__()
                while True:
                    if prompt:
                        out("Você: ")
                    try:
                        line = await source.__anext__()
                    except StopAsyncIteration:
                        break
                    if not await chat.handle(line):
                        break
            finally:
                printer.cancel()
                await asyncio.gather(printer, return_exceptions=True)
        out("Sandbox encerrado. Até logo!")
    finally:
        await core.close()
    return 0


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on stdin, read on a daemon thread (so Ctrl-C or :sair never waits for a
    pending read); ends at EOF."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        try:
            for line in sys.stdin:
                loop.call_soon_threadsafe(queue.put_nowait, line)
        except (OSError, ValueError, RuntimeError):
            pass
        try:
            loop.call_soon_threadsafe(queue.put_nowait, None)
        except RuntimeError:  # the loop is already closed
            pass

    threading.Thread(target=read, name="sandbox-stdin", daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line


class _OneLine(logging.Formatter):
    """Log records on one line: the sandbox never prints a traceback."""

    def formatException(self, ei) -> str:  # noqa: N802
        return ""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record).rstrip()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        return text


def _quiet_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine("(log) %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)


def _print_now(text: str) -> None:
    if text == "Você: ":
        print(text, end="", flush=True)
    else:
        print(text, flush=True)


def main() -> int:
    _quiet_logging()
    interactive = sys.stdin.isatty()
    try:
        return asyncio.run(run_sandbox(stdin_lines(), _print_now, prompt=interactive))
    except KeyboardInterrupt:
        print("\nSandbox encerrado. Até logo!", flush=True)
        return 0
    except Exception as exc:  # never a traceback at the terminal
        print(f"Via Livre (sandbox): não foi possível iniciar o sandbox: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
