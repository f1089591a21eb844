"""`python -m sandbox`: the bot in the terminal, with no Telegram token (sandbox.terminal).

    python -m sandbox              # the chat; prints the panel's address and a demo account
    python -m sandbox --whatsapp   # the same, as a citizen on WhatsApp (sandbox.whatsapp_chat)
    python -m sandbox clock        # the demo clock's date
    python -m sandbox clock +3d    # move it forward (also +12h, +30m) and run the deadlines now
"""
from __future__ import annotations

import asyncio
import sys
from zoneinfo import ZoneInfo

USAGE = """\
uso: python -m sandbox               conversa com o bot no terminal (sem Telegram)
     python -m sandbox --whatsapp    conversa como cidadão no WhatsApp (sem conta da Meta)
     python -m sandbox clock         mostra o relógio do sandbox
     python -m sandbox clock +3d     adianta o relógio (3 dias; também +12h, +30m) e confere
                                     os prazos na hora (as mensagens saem no chat do sandbox)"""


async def _clock(step: str | None) -> int:
    from core.services.context import Core
    from core.services.periodic import run_periodic
    from sandbox.demo import DemoClock, describe_offset, moved_text, parse_step
    from sandbox.terminal import sandbox_settings

    settings = sandbox_settings()
    clock = DemoClock(settings)
    tz = ZoneInfo(settings.timezone)
    if step is None:
        print(describe_offset(clock, tz))
        return 0
    try:
        delta = parse_step(step)
    except ValueError as exc:
        print(f"Via Livre (sandbox): {exc}.", file=sys.stderr)
        return 2
    core = await Core.open(settings, clock=clock)
    try:
        clock.move(delta)
        print(describe_offset(clock, tz))
        report = await run_periodic(core)
    finally:
        await core.close()
    print(f"Prazos conferidos: {moved_text(len(report.sweep.moved))}"
          + ("; as mensagens saem no chat do sandbox." if report.queued_messages else "."))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        from sandbox.terminal import main as chat
        return chat()
    if args == ["--whatsapp"] or args == ["whatsapp"]:
        from sandbox.whatsapp_chat import main as whatsapp_chat
        return whatsapp_chat()
    if args[0] in ("clock", "relogio", "relógio") and len(args) <= 2:
        from sandbox.terminal import _quiet_logging
        _quiet_logging()
        return asyncio.run(_clock(args[1] if len(args) == 2 else None))
    print(USAGE, file=sys.stderr if args[0] not in ("-h", "--help", "ajuda") else sys.stdout)
    return 0 if args[0] in ("-h", "--help", "ajuda") else 2


if __name__ == "__main__":
    sys.exit(main())
