"""`python -m sandbox --whatsapp`: chat with the WhatsApp face in the terminal, as a citizen on
WhatsApp, with no Meta account. The real face (whatsapp.app: the signed webhook, the
conversation, the Graph client) runs against the strict Cloud API stand-in
(sandbox.standin.whatsapp) and the Nominatim one, on the sandbox's DATA_DIR and database (the
same as `python -m sandbox` and `python -m admin`: a report made here is on the panel).

Each line typed is a message the citizen sends; what their phone would show is printed as it
arrives, reply buttons and list rows numbered to tap with `:botao N`.

`run_whatsapp(lines, out)` is the whole chat: `lines` is any (async) iterable of input lines,
`out` is called with each line of output; main() feeds it stdin.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import AsyncIterable, Callable, Iterable

from bot.geocoding import Geocoder
from core.services.context import Core
from sandbox.chat import generated_jpeg
from sandbox.demo import DemoClock
from sandbox.standin.nominatim import NominatimStandIn, default_gazetteer
from sandbox.standin.whatsapp.server import Sent, WhatsAppStandIn
from sandbox.terminal import _as_async, _quiet_logging, sandbox_settings, stdin_lines
from whatsapp.app import WhatsAppFace

YOU = "5537999990000"  # the citizen's number in the sandbox
HELP = """\
Via Livre — sandbox do WhatsApp (você conversa com o atendimento real, aqui no terminal).
ATENÇÃO: isto NÃO está conectado ao WhatsApp. Para um número de verdade, veja o README
("Connecting a WhatsApp number"). Os dados ficam em {data_dir}.
Digite uma mensagem (oi, denunciar, minhas, ajuda, cancelar…) e tecle Enter.
  :foto [CAMINHO]   envia uma foto (sem caminho, uma foto gerada)
  :local [LAT LON]  envia uma localização (sem números, o centro de {city})
  :botao N          toca a opção [N] da última mensagem que tem opções
  :sair             encerra (Ctrl-D ou Ctrl-C também)"""
UNKNOWN = "(sandbox) Comando desconhecido. Use :foto, :local, :botao N ou :sair."
NO_CHOICE = "(sandbox) A última mensagem não tem a opção [{n}]."


def choices(sent: Sent) -> list[tuple[str, str, str]]:
    """A message's choices as (kind, id, title): reply buttons or list rows, in order."""
    inter = sent.body.get("interactive", {}) if sent.type == "interactive" else {}
    action = inter.get("action", {})
    out = [("button", b["reply"]["id"], b["reply"]["title"]) for b in action.get("buttons", [])]
    for section in action.get("sections", []):
        out += [("list", r["id"], " — ".join(filter(None, [r["title"], r.get("description")])))
                for r in section["rows"]]
    return out


def describe(sent: Sent) -> list[str]:
    """What the phone shows of one message."""
    lines = [f"WhatsApp: {line}" if i == 0 else f"          {line}"
             for i, line in enumerate((sent.text or f"({sent.type})").splitlines() or [""])]
    if sent.type == "interactive" and sent.body["interactive"]["type"] == "location_request_message":
        lines.append("          [📍 Enviar localização]  (:local)")
    if sent.type == "template":
        params = [p["text"] for c in sent.body["template"].get("components", [])
                  for p in c.get("parameters", [])]
        lines.append(f"          (modelo {sent.body['template']['name']}: {', '.join(params)})")
    lines += [f"          [{i}] {title}" for i, (_k, _id, title) in enumerate(choices(sent), 1)]
    return lines


async def run_whatsapp(lines: Iterable[str] | AsyncIterable[str],
                       out: Callable[[str], None]) -> None:
    settings = sandbox_settings()
    async with WhatsAppStandIn() as wa, NominatimStandIn(default_gazetteer()) as osm:
        settings = settings.model_copy(update={
            "whatsapp_phone_number_id": wa.phone_number_id, "whatsapp_access_token": wa.token,
            "whatsapp_app_secret": wa.app_secret, "whatsapp_graph_url": wa.graph_url,
            "nominatim_url": osm.base_url})
        core = await Core.open(settings, clock=DemoClock(settings))
        geocoder = Geocoder(osm.base_url, core.area, min_interval_s=0)
        face = await WhatsAppFace.start(core, geocoder, host="127.0.0.1", port=0)
        wa.webhook_url = face.url
        shown = 0
        centre = core.area.centre
        try:
            out(HELP.format(data_dir=settings.data_dir, city=core.city.name))
            async for raw in _as_async(lines):
                line = raw.strip()
                if not line:
                    continue
                if line in (":sair", ":q", ":quit"):
                    break
                said = await _send(wa, line, centre)
                if said is not None:
                    out(said)
                await asyncio.sleep(0)
                for sent in wa.sent_to(YOU)[shown:]:
                    for text in describe(sent):
                        out(text)
                shown = len(wa.sent_to(YOU))
        finally:
            await face.stop()
            await geocoder.close()
            await core.close()
    out("Sandbox do WhatsApp encerrado.")


async def _send(wa: WhatsAppStandIn, line: str, centre) -> str | None:
    """Send what `line` says as the citizen; a note for the terminal, or None."""
    if not line.startswith(":"):
        await wa.user_text(YOU, line)
        return None
    command, *args = line[1:].split()
    if command == "foto":
        data = Path(args[0]).expanduser().read_bytes() if args else generated_jpeg()
        await wa.user_image(YOU, data)
        return None
    if command == "local":
        if len(args) == 2:
            lat, lon = (float(a.replace(",", ".")) for a in args)
        else:
            lat, lon = centre
        await wa.user_location(YOU, lat, lon)
        return None
    if command == "botao" and len(args) == 1 and args[0].isdigit():
        n = int(args[0])
        for sent in reversed(wa.sent_to(YOU)):
            options = choices(sent)
            if options:
                if not 1 <= n <= len(options):
                    return NO_CHOICE.format(n=n)
                kind, reply_id, _title = options[n - 1]
                if kind == "button":
                    await wa.user_button_reply(YOU, reply_id, context=sent.id)
                else:
                    await wa.user_list_reply(YOU, reply_id, context=sent.id)
                return None
        return NO_CHOICE.format(n=n)
    return UNKNOWN


def main() -> int:
    _quiet_logging()
    try:
        asyncio.run(run_whatsapp(stdin_lines(), lambda text: print(text, flush=True)))
    except KeyboardInterrupt:
        print("\nSandbox do WhatsApp encerrado.", flush=True)
    except Exception as exc:  # never a traceback at the terminal
        print(f"Via Livre (sandbox): não foi possível iniciar o sandbox do WhatsApp: {exc}",
              file=sys.stderr)
        return 1
    return 0
