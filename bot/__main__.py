"""`python -m bot`: the Telegram bot, by long polling or (WEBHOOK_URL set) a webhook served
by aiohttp, and the WhatsApp face beside it whenever WHATSAPP_PHONE_NUMBER_ID,
WHATSAPP_ACCESS_TOKEN and WHATSAPP_APP_SECRET are set (whatsapp.app; alone, with the
deadline sweep, when there is no Telegram token). Without either it says what to set and
exits with status 2, or, at a terminal in a checkout that has it, hands over to the local
sandbox (`python -m sandbox`, run as
its own program: the product never imports the sandbox package, which the wheel leaves out)."""
from __future__ import annotations

import asyncio
import importlib.util
import os
import sys

from core import logs
from core.settings import Settings

NO_TOKEN = """\
Via Livre (bot): falta TELEGRAM_BOT_TOKEN.
  1. No Telegram, crie o bot com o @BotFather e copie o token que ele fornece.
  2. Coloque TELEGRAM_BOT_TOKEN=<token> no arquivo .env (copie o .env.example) ou no ambiente.
  Opcional: TELEGRAM_API_URL (servidor Bot API próprio), WEBHOOK_URL e WEBHOOK_SECRET
  (webhook em vez de long polling), NOMINATIM_URL (geocodificação). Veja o .env.example.
  Só WhatsApp: defina WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_ACCESS_TOKEN e WHATSAPP_APP_SECRET."""


def main() -> int:
    settings = Settings()
    logs.setup(settings)
    if not settings.telegram_bot_token.strip() and settings.whatsapp_enabled:
        try:
            asyncio.run(serve_whatsapp(settings))
        except KeyboardInterrupt:
            pass
        return 0
    if not settings.telegram_bot_token.strip():
        print(NO_TOKEN, file=sys.stderr)
        if not sys.stdin.isatty() or importlib.util.find_spec("sandbox") is None:
            return 2
        print("Iniciando o sandbox local (sem Telegram)…", file=sys.stderr, flush=True)
        os.execv(sys.executable, [sys.executable, "-m", "sandbox"])
    if settings.webhook_url and not settings.webhook_secret:
        print("Via Livre (bot): WEBHOOK_URL definido, mas WEBHOOK_SECRET está vazio. Defina um "
              "segredo (letras, dígitos, _ e -) para conferir cada chamada do webhook.",
              file=sys.stderr)
        return 2
    try:
        if settings.webhook_url:
            from bot.webhook import serve
            asyncio.run(serve(settings))
        else:
            run_polling(settings)
    except KeyboardInterrupt:
        pass
    return 0


async def serve_whatsapp(settings: Settings, stop_event: asyncio.Event | None = None) -> None:
    """The WhatsApp face alone (no Telegram): its webhook and sender, and the deadline sweep,
    until SIGTERM or SIGINT (or `stop_event`)."""
    import signal

    from bot.geocoding import Geocoder
    from bot.health import start_listener
    from bot.loops import LoopSettings, finish, sweep_loop
    from core.services.context import Core
    from whatsapp.app import WhatsAppFace

    stop = stop_event or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    core = await Core.open(settings)
    geocoder = Geocoder(settings.nominatim_url, core.area,
                        timeout_s=settings.geocoding_timeout_s)
    face = await WhatsAppFace.start(core, geocoder)
    listener = await start_listener(core, settings)  # /healthz, /readyz, /metrics
    sweep = asyncio.create_task(sweep_loop(core, LoopSettings(), face.wake, "whatsapp",
                                               stop))
    try:
        await stop.wait()
    finally:
        await finish([sweep], stop)
        if listener is not None:
            await listener.cleanup()
        await face.stop()
        await geocoder.close()
        await core.close()


def run_polling(settings: Settings) -> None:
    from bot.app import build_application
    from bot.health import start_listener
    from core.services.context import Core

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    core = loop.run_until_complete(Core.open(settings))  # migrations applied here
    app = build_application(core, settings)
    listener = loop.run_until_complete(start_listener(core, settings))  # /healthz, /readyz
    try:
        app.run_polling(allowed_updates=["message", "callback_query"], close_loop=False)
    finally:
        if listener is not None:
            loop.run_until_complete(listener.cleanup())
        loop.run_until_complete(core.close())
        loop.close()


if __name__ == "__main__":
    sys.exit(main())
