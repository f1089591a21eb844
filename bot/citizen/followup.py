"""The reporter's answer to "O objeto já saiu do local?" (core.services.citizens.followup):
"fup:gone:<protocol>" (Sim, saiu), "fup:there:<protocol>" (Não, continua lá: the case is
reopened at once, then photos of the place are asked, optional), "fup:nophoto:<protocol>" and
"fup:done:<protocol>" (no photo / no more photos). While photos are awaited the conversation
is "followup:photo" (draft: the protocol, since when, how many photos); a photo after
PHOTO_WAIT is read as if idle (a new report starts with it)."""
from __future__ import annotations

from datetime import datetime, timedelta

from telegram import InlineKeyboardMarkup

from bot.buttons import button
from bot.citizen import info
from core.services.citizens.conversation.states import FOLLOWUP_PHOTO as PHOTO
from bot import attachments
from bot.citizen.photos import PHOTOS_ONLY
from bot.router import Turn
from bot.texts import STALE_BUTTON
from core.services.cases.evidence import EvidenceIn
from core.services.citizens import followup
from core.services.errors import InvalidInput

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


def _keyboard(protocol: str, photos: int) -> InlineKeyboardMarkup:
    b = ({"text": DONE, "intent": "followup.done", "case": protocol} if photos else
         {"text": NO_PHOTO, "intent": "followup.no_photo", "case": protocol})
    return InlineKeyboardMarkup([[button(b)]])


def _waiting(turn: Turn, protocol: str) -> bool:
    return turn.conv.state == PHOTO and turn.conv.draft.get("case") == protocol


async def on_button(turn: Turn) -> None:
    parts = turn.data
    if len(parts) != 3 or parts[1] not in ("gone", "there", "nophoto", "done"):
        await turn.answer(STALE_BUTTON)
        return
    action, protocol = parts[1], parts[2]
    shown = turn.query.message.text if turn.query.message is not None else ""
    if action == "gone":
        await followup.answer_gone(turn.core, turn.user_id, protocol, also=turn.hook())
        await turn.answer("Resposta registrada.")
        await turn.edit(f"{shown}\n\nSua resposta: {followup.YES}. {THANKS_GONE}")
    elif action == "there":
        draft = {"case": protocol, "since": turn.core.now().isoformat(), "photos": 0}
        await followup.answer_still_there(turn.core, turn.user_id, protocol,
                                          also=turn.hook(PHOTO, draft))
        await turn.answer("Resposta registrada.")
        await turn.edit(f"{shown}\n\nSua resposta: {followup.NO}.")
        await turn.reply(ASK_PHOTO, _keyboard(protocol, 0))
    elif not _waiting(turn, protocol):
        await turn.answer(STALE_BUTTON)
        await turn.edit(shown)  # the button goes away
    else:
        await turn.answer()
        await turn.clear()
        await turn.edit(shown)
        await turn.reply(NO_PHOTO_OK if action == "nophoto" else LAST)


async def on_message(turn: Turn) -> None:
    """A message while the photos are awaited."""
    draft = dict(turn.conv.draft)
    protocol = draft.get("case", "")
    since = datetime.fromisoformat(draft["since"]) if draft.get("since") else None
    if since is None or turn.core.now() - since > PHOTO_WAIT:
        await turn.clear()  # too late for this answer: the message is read as if idle
        await info.idle(turn)
        return
    msg = turn.message
    n = int(draft.get("photos") or 0)
    if not (msg.photo or msg.document is not None):
        await turn.reply(PHOTO_AGAIN if not n else MORE, _keyboard(protocol, n))
        return
    item, refusal = attachments.read(msg, PHOTOS_ONLY)
    sha = None
    if refusal is None:
        sha, refusal = await attachments.fetch(turn.bot, turn.core, item, PHOTOS_ONLY)
    if refusal is not None:
        await turn.reply(refusal, _keyboard(protocol, n))
        return
    draft["photos"] = n + 1
    last = n + 1 >= MAX_PHOTOS
    evidence = EvidenceIn(sha, item.mime, "photo", item.file_id, item.unique_id)
    try:
        told = await followup.add_photo(
            turn.core, turn.user_id, protocol, evidence,
            also=turn.hook(clear=True) if last else turn.hook(PHOTO, draft))
    except InvalidInput as exc:  # the case is no longer reopened by this answer
        await turn.clear()
        await turn.reply(exc.message)
        return
    said = PHOTO_SENT if told else PHOTO_KEPT
    if last:
        await turn.reply(f"{said} {LAST}")
    else:
        await turn.reply(f"{said} {MORE}", _keyboard(protocol, n + 1))


async def resume(turn: Turn) -> None:
    """A redelivered update while the photos are awaited: the request again."""
    n = int(turn.conv.draft.get("photos") or 0)
    await turn.reply(PHOTO_AGAIN if not n else MORE,
                     _keyboard(turn.conv.draft.get("case", ""), n))
