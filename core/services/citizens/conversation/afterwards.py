"""The photos after "Não, continua lá", decided once for every face: the reporter answered
the question after the closing (core.services.citizens.followup) that the object is still
there; the case is reopened at once and up to MAX_PHOTOS photos of the place are asked,
optional, for PHOTO_WAIT. The conversation waits in FOLLOWUP_PHOTO (draft: the protocol,
since when, how many photos); later, a photo is read as if idle (a new report starts)."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from core.services.citizens.conversation.states import FOLLOWUP_PHOTO
from core.services.citizens.followup import NO, YES
from core.services.context import Core

PHOTO_WAIT = timedelta(hours=24)
MAX_PHOTOS = 5
NO_PHOTO, DONE = "Sem foto", "Pronto"
THANKS_GONE = "Obrigado por confirmar! O caso continua encerrado."
ASK_PHOTO = ("Obrigado por avisar. O caso foi reaberto e um fiscal vai voltar ao local.\n"
             "Se puder, envie agora uma foto de como o local está hoje (opcional): ela vai "
             "direto para o fiscal.")
PHOTO_AGAIN = "Envie uma foto de como o local está hoje, ou toque em “Sem foto”."
PHOTO_SENT = "📷 Foto recebida e enviada ao fiscal."
PHOTO_KEPT = "📷 Foto recebida e juntada ao caso."
MORE = f"Pode enviar outra ou tocar em “{DONE}”."
LAST = "Obrigado! Você será avisado do andamento do caso."
NO_PHOTO_OK = ("Tudo bem, sem foto. O fiscal vai ao local assim mesmo; você será avisado do "
               "andamento do caso.")


def answered(shown: str, gone: bool) -> str:
    """The question as it reads once answered (its buttons gone)."""
    if gone:
        return f"{shown}\n\nSua resposta: {YES}. {THANKS_GONE}"
    return f"{shown}\n\nSua resposta: {NO}."


def waiting_draft(core: Core, protocol: str) -> dict[str, Any]:
    """The draft of FOLLOWUP_PHOTO once "Não, continua lá" is stored."""
    return {"case": protocol, "since": core.now().isoformat(), "photos": 0}


def waiting_for(state: str, d: dict[str, Any], protocol: str) -> bool:
    """Photos of `protocol`'s place are awaited (its "Sem foto" / "Pronto" still apply)."""
    return state == FOLLOWUP_PHOTO and d.get("case") == protocol


def too_late(core: Core, d: dict[str, Any]) -> bool:
    """PHOTO_WAIT has passed since the answer: a message is read as if idle."""
    since = datetime.fromisoformat(d["since"]) if d.get("since") else None
    return since is None or core.now() - since > PHOTO_WAIT


def photos(d: dict[str, Any]) -> int:
    return int(d.get("photos") or 0)


def request(n: int) -> tuple[str, str, str]:
    """After `n` photos: what to ask, and the one choice offered (its label and intent)."""
    if n:
        return MORE, DONE, "followup.done"
    return PHOTO_AGAIN, NO_PHOTO, "followup.no_photo"


def received(told: bool, last: bool) -> str:
    """A photo taken: sent to the inspector already in charge (`told`) or kept in the case;
    `last`: MAX_PHOTOS reached, nothing more asked."""
    said = PHOTO_SENT if told else PHOTO_KEPT
    return f"{said} {LAST if last else MORE}"
