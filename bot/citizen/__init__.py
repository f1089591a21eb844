"""The citizen's flow: greeting, privacy notice, reporting, status and notifications."""
from __future__ import annotations

from bot.citizen import followup, info, my_data, report
from core.services.citizens.conversation.states import FOLLOWUP, PREFIX
from bot.router import Router


def register(router: Router) -> None:
    router.command("start", info.start)
    router.command("denunciar", report.start_report, "Fazer uma denúncia (fotos e local)")
    router.command("minhas", info.mine, "Minhas denúncias e avisos")
    router.command("status", info.status, "Consultar um protocolo (AAAA-NNNNNN)")
    router.command("privacidade", info.privacy, "Como tratamos seus dados (LGPD)")
    router.command("meusdados", my_data.show, "Ver ou pedir a eliminação dos meus dados")
    router.command("ajuda", info.help_, "Ajuda")
    router.command("cancelar", info.cancel, "Cancelar o que estiver fazendo")
    router.callback("rep", report.on_button)
    router.callback("notif", info.on_notify_button)
    router.callback("unsub", info.on_unsub_button)
    router.callback("lgpd", my_data.on_button)
    router.callback("fup", followup.on_button)
    router.state(PREFIX, info.in_report, resume=info.resume)
    router.state(FOLLOWUP, followup.on_message, resume=followup.resume)
    router.idle = info.idle
