"""The case card: what the inspector sees of a case they hold, with only the actions the
lifecycle allows now (core.services.inspectors.task_list.case_card)."""
from __future__ import annotations

from datetime import date

from bot.buttons import case_step, task
from bot.inspector import texts
from bot.router import Turn, inline
from core.formatting import citizen_said, fmt_date, fmt_place
from core.identifiers import format_plate
from bot.replies import send_document_or_queue
from core.services.inspectors.accounts import actor_ref, require_inspector
from core.services.inspectors.notice_photo import BUTTON as PHOTO_BUTTON, MissingPhoto, pending_photo
from core.services.papers.reissue import IssuedDocument, issued_documents, reissue
from core.services.inspectors.task_list import CaseCard, case_card
from core.services.inspectors.tasks import OFFERED


def render(card: CaseCard) -> str:
    lines = [f"Protocolo {card.protocol} — {card.category_label}",
             f"Etapa: {card.state_label}",
             f"Endereço: {fmt_place(card.address, card.neighbourhood) or _pin(card)}"]
    if card.plate:
        lines.append(f"Placa: {format_plate(card.plate)}")
    if card.chassis:
        lines.append(f"Chassi: {card.chassis}")
    if card.description:
        lines.append(f"Descrição: {card.description[:500]}")
    told = citizen_said(card.report)
    if told:
        lines.append(told)
    if card.owner_name:
        lines.append(f"Proprietário/responsável: {card.owner_name}")
    d = card.deadline
    if d and d.get("due"):
        lines.append(f"Prazo: {d['description']} até {fmt_date(date.fromisoformat(d['due']))} "
                     f"({d['article']})")
    if card.photos:
        lines.append(f"Fotos no caso: {len(card.photos)}")
    for p in card.previous_cases:
        lines.append(f"⚠️ Caso anterior do mesmo veículo: {p.protocol} ({p.state_label}, "
                     f"{fmt_date(p.created_at)}) — reincidência, Art. 6º, §5º")
    if not card.actions:
        lines.append(texts.NO_ACTIONS)
    else:  # the button says the action in a few words; the text says what it is, and why
        lines.append(texts.ACTIONS_HEAD)
        lines += [texts.ACTION_LINE.format(button=a.button, label=a.label, article=a.article)
                  for a in card.actions]
    return "\n".join(lines)[:4096]


def _pin(card: CaseCard) -> str:
    return f"{card.lat:.5f}, {card.lon:.5f}"


def buttons(card: CaseCard, issued: list[IssuedDocument] = (),
            missing: MissingPhoto | None = None):
    """One short button per action (Transition.button), two to a row on a phone's screen;
    the photo of the notice affixed if it is still missing; then "Emitir de novo" for each
    legal document of the case, as first issued."""
    actions = [(a.button, case_step("do", card.protocol, a.code)) for a in card.actions]
    if missing is not None:
        actions.append((PHOTO_BUTTON, case_step("photo", card.protocol, missing.code)))
    rows = [actions[i:i + 2] for i in range(0, len(actions), 2)]
    again = [(texts.AGAIN.format(button=doc.button), case_step("again", card.protocol, doc.kind))
             for doc in issued]
    rows += [again[i:i + 2] for i in range(0, len(again), 2)]
    if card.task_status == OFFERED:
        rows.insert(0, [(texts.ACCEPT, task("accept", card.task_id)),
                        (texts.REFUSE, task("refuse", card.task_id))])
    return inline(rows) if rows else None


async def show(turn: Turn, protocol: str, before: str = "") -> None:
    card = await case_card(turn.core, turn.user_id, protocol)
    issued = await issued_documents(turn.core, card.protocol)
    missing = await pending_photo(turn.core, card.protocol)
    if missing is not None and missing.task_id != card.task_id:
        missing = None
    text = render(card)
    if missing is not None:  # Art. 4º, II, a: the notice photographed affixed
        text += "\n" + texts.PHOTO_PENDING.format(label=missing.label, article=missing.article)
    if issued:  # the button names the document in a word or two; the text in full
        text += "\n" + "\n".join([texts.AGAIN_HEAD] + [
            texts.OPTION_LINE.format(button=texts.AGAIN.format(button=doc.button),
                                     label=doc.label) for doc in issued])
    await turn.reply(((before + "\n\n" if before else "") + text)[:4096],
                     buttons(card, issued, missing))


async def again(turn: Turn, protocol: str, kind: str) -> None:
    """insp:again:<protocol>:<kind>: the document as first issued, in the chat (the case must
    be this inspector's)."""
    inspector = await require_inspector(turn.core, turn.user_id)
    card = await case_card(turn.core, turn.user_id, protocol)
    await turn.answer()
    sha, filename, blob = await reissue(turn.core, card.protocol, kind, actor_ref(inspector))
    await send_document_or_queue(
        turn.bot, turn.state, turn.chat_id, sha, filename,
        texts.DOCUMENT_CAPTION.format(name=filename, protocol=card.protocol), blob)
