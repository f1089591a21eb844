"""The sandbox chat (`python -m sandbox`): try the bot in the terminal, with no Telegram token.

The real bot runs against the local stand-ins (sandbox.standin.botapi for the Bot API,
sandbox.standin.nominatim for geocoding) through sandbox.harness.BotHarness, on the same DATA_DIR
and database as `python -m admin` (an invite made there works here); it refuses a database
a real bot has used. The person at the terminal is the citizen "Você" and can switch to an
inspector or an owner (sandbox.chat): each line typed goes to the bot as a message, and
what a phone would show is printed as it arrives.

`run_sandbox(lines, out)` is the whole chat: `lines` is any (async) iterable of input lines,
`out` is called with each line of output; main() feeds it stdin.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import AsyncIterable, AsyncIterator, Callable, Iterable
from zoneinfo import ZoneInfo

from sandbox.harness import BotHarness
from sandbox.chat import IDENTITIES, YOU, Chat, describe, generated_jpeg  # noqa: F401 (re-exported)
from sandbox.standin.botapi import BotApiStandIn
from sandbox.demo import DemoClock, demo_account, describe_offset, documents_dir
from sandbox.panel import DEMO_PIX, demo_tariffs, serve_panel, with_demo_pix
from core.services.messaging import conversation
from core.services.messaging.bot_identity import learnt_username
from core.services.context import Core
from core.settings import Settings

HELP = """\
Via Livre — sandbox local do bot (você conversa com o bot real, mas aqui no terminal).
ATENÇÃO: isto NÃO está conectado ao Telegram. Para usar o Telegram de verdade, defina
TELEGRAM_BOT_TOKEN (veja o .env.example). Os dados ficam em {data_dir} (o mesmo
diretório do python -m admin: um convite de fiscal criado lá vale aqui).
Digite uma mensagem ou um comando (/start, /denunciar, /minhas, /ajuda…) e tecle Enter.
  :foto [CAMINHO]   envia uma foto (sem caminho, uma foto gerada)
  :local [LAT LON]  envia uma localização (sem números, o centro de {city})
  :botao N          aperta o botão [N] da última mensagem do bot que tem botões
  :botao M N        aperta o botão [N] da mensagem #M (qualquer mensagem anterior)
  :eu QUEM          troca de pessoa: cidadao, fiscal ou proprietario (você é o cidadão)
  :relogio +3d      adianta o relógio do sandbox (3 dias; também +12h, +30m) e roda os prazos
  :sair             encerra o sandbox (Ctrl-D ou Ctrl-C também)
Respostas a botões aparecem como (aviso) ou (alerta); mensagens editadas, como (editada)."""

REAL_BOT_DATA = """\
Via Livre (sandbox): o banco de dados em {where} já é usado pelo bot real @{username}.
O sandbox não roda sobre ele (entregaria ao Telegram de mentira as mensagens de pessoas
reais). Use outro diretório para o sandbox e para o python -m admin, por exemplo:
  DATA_DIR=data-sandbox python -m admin invite-inspector --name "Fiscal Teste" --agency ...
  DATA_DIR=data-sandbox python -m sandbox"""

PANEL = """\
Painel da prefeitura ({served}): {address}
  usuário {username}, senha {password} (conta de demonstração, só neste banco do sandbox)"""
PANEL_OWN = """\
Painel da prefeitura ({served}): {address}
  entre com uma conta já criada neste banco (python -m admin create-user NOME --role admin)"""
SERVED = "aberto pelo sandbox, no mesmo relógio do chat"
SERVED_ELSEWHERE = ("a porta já está em uso, talvez por um python -m admin: esse painel segue "
                    "o relógio real, não o do sandbox")
DEMO_TARIFFS = """\
Tarifas de demonstração neste banco do sandbox, no lugar dos valores de referência da lei:
  {tariffs} (veja em Tarifas, no painel)."""
DEMO_PIX_LINE = """\
PIX de demonstração (só no sandbox): chave {pix_key}, que não é de nenhuma conta;
  o proprietário recebe o código “copia e cola” dos valores devidos."""
DOCUMENTS = "Os documentos (PDF) que o bot envia ficam salvos em {path}"
WEB_REPORT = "Denúncia pelo site, sem aplicativo nem conta: {address}/publico/denunciar"


def sandbox_settings(base: Settings | None = None) -> Settings:
    """The settings the sandbox runs on: the same DATA_DIR and database as `python -m admin`
    (so an invite made on the command line works here), no webhook (the token, Bot API and
    Nominatim URLs are set to the stand-ins' by BotHarness), and a demo PIX receiver when the
    .env names none (sandbox.panel)."""
    base = base or Settings()
    return with_demo_pix(base.model_copy(update={"webhook_url": "", "webhook_secret": ""}))


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
    """Run the sandbox chat until `:sair` or the end of `lines`; returns the exit status (0,
    or 1 on a database a real bot uses). With `prompt`, "Você (cidadão): " (the current
    identity) is printed before each line is read."""
    settings = sandbox_settings(settings)
    clock = DemoClock(settings)
    core = await Core.open(settings, clock=clock)
    try:
        real = await learnt_username(core)
        if real and real != BotApiStandIn().me["username"]:
            out(REAL_BOT_DATA.format(where=Path(settings.data_dir).resolve(), username=real))
            return 1
        out(HELP.format(data_dir=Path(settings.data_dir).resolve(), city=core.city.name))
        account = await demo_account(core)
        panel = await serve_panel(core)
        served = SERVED if panel.runner is not None else SERVED_ELSEWHERE
        out(PANEL.format(**{**account.__dict__, "address": panel.address, "served": served})
            if account else PANEL_OWN.format(address=panel.address, served=served))
        site = panel.address.removesuffix("/login")
        out(WEB_REPORT.format(address=site))
        out(DOCUMENTS.format(path=documents_dir(settings)))
        seeded = await demo_tariffs(core, account.username) if account else []
        if seeded:
            out(DEMO_TARIFFS.format(tariffs=", ".join(seeded)))
        if settings.pix_key == DEMO_PIX["pix_key"]:
            out(DEMO_PIX_LINE.format(pix_key=settings.pix_key))
        if clock.offset:
            out(describe_offset(clock, ZoneInfo(settings.timezone)))
        try:
            await _chat(core, clock, settings, lines, out, prompt)
        finally:
            await panel.close()
        out("Sandbox encerrado. Até logo!")
    finally:
        await core.close()
    return 0


async def _chat(core: Core, clock: DemoClock, settings: Settings,
                lines: Iterable[str] | AsyncIterable[str], out: Callable[[str], None],
                prompt: bool) -> None:
    """The chat itself, until `:sair` or the end of `lines`."""
    async with BotHarness(core) as harness:
        # the three accounts wrote to the bot before (on an earlier run, maybe): what waits in
        # the outbox for them is delivered at once, not refused as a chat the bot never met
        for identity in IDENTITIES.values():
            harness.api.add_user(identity.user)
        chat = Chat(harness, out, await conversation.last_processed(core) + 1,
                    clock=clock, documents=documents_dir(settings))
        printer = asyncio.create_task(chat.printer())
        try:
            source = _as_async(lines).__aiter__()
            while True:
                if prompt:
                    out(f"Você ({chat.me.label}): ")
                try:
                    line = await source.__anext__()
                except StopAsyncIteration:
                    break
                if not await chat.handle(line):
                    break
        finally:
            printer.cancel()
            await asyncio.gather(printer, return_exceptions=True)


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on stdin, read on a daemon thread (so Ctrl-C or :sair never waits for a
    pending read); ends at EOF (Ctrl-D) or at Ctrl-C, which then ends the chat as :sair does
    (the bot stops cleanly, pending messages stay in the outbox)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    try:
        loop.add_signal_handler(signal.SIGINT, queue.put_nowait, None)
    except (NotImplementedError, RuntimeError):  # no signal handlers here: KeyboardInterrupt
        pass

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

    def formatException(self, ei) -> str:
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
    if text.startswith("Você (") and text.endswith("): "):  # the prompt
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
