"""`python -m bot`: the Telegram bot, by long polling or (WEBHOOK_URL set) a webhook served
by aiohttp. Without TELEGRAM_BOT_TOKEN it says what to set and exits with status 2."""
from __future__ import annotations

import asyncio
import logging
import sys

from core.settings import Settings

NO_TOKEN = """\
Via Livre bot: TELEGRAM_BOT_TOKEN is not set.
  1. Create a bot with @BotFather in Telegram and copy the token it gives you.
  2. Put TELEGRAM_BOT_TOKEN=<token> in .env (copy .env.example) or in the environment.
  Optional: TELEGRAM_API_URL (self-hosted Bot API server), WEBHOOK_URL + WEBHOOK_SECRET
  (webhook instead of long polling), NOMINATIM_URL (geocoder). See .env.example."""


def main() -> int:
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = Settings()
    if not settings.telegram_bot_token.strip():
        print(NO_TOKEN, file=sys.stderr)
        return 2
    if settings.webhook_url and not settings.webhook_secret:
        print("Via Livre bot: WEBHOOK_URL is set but WEBHOOK_SECRET is empty; set a secret "
              "(letters, digits, _ and -) so every webhook request can be checked.",
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


def run_polling(settings: Settings) -> None:
    from bot.app import build_application
    from core.services.context import Core

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    core = loop.run_until_complete(Core.open(settings))  # migrations applied here
    app = build_application(core, settings)
    try:
        app.run_polling(allowed_updates=["message", "callback_query"], close_loop=False)
    finally:
        loop.run_until_complete(core.close())
        loop.close()


if __name__ == "__main__":
    sys.exit(main())
