"""The owner's flow: the QR deep link and /proprietario reach the case; the owner's view with
its buttons (statement, release situation, summary PDF, Dracena appeal). Everything the law
says comes from core.services.owners."""
from __future__ import annotations

from bot.owner import actions, link, resume
from bot.owner.states import PREFIX
from bot.router import Router


def register(router: Router) -> None:
    router.command("proprietario", link.start,
                   "Sou o proprietário: ver meu caso pelo código do aviso")
    router.deep_link("", link.on_deep_link)  # /start <case code> (QR code on the notice)
    router.callback("owner", actions.on_button)
    router.state(PREFIX, actions.on_message, resume=resume.resume)
