"""The owner's buttons ("owner:<action>:<case code>") and the answers they lead to: the
statement (Dores Art. 6º, §3º) with its date and its withdrawal ("Tem certeza?"), the release situation toggles (Art. 3º, §3º),
the summary PDF, and the Dracena appeal (Art. 3º; Art. 4º, §2º) written in the chat.

Every button is re-checked by core.services.owners against the owner's link and the case: a
stale or forged one (someone else's code, a closed case) gets the service's polite answer and
nothing changes."""
from __future__ import annotations

from datetime import date, timedelta

from telegram import InputFile

from bot import attachments, buttons
from bot.owner import proof, texts
from bot.owner.link import CANCEL_ROW, answer, on_code
from bot.owner.states import (ANSWER, APPEAL, APPEAL_DOC, APPEAL_NAME, CODE, DATE, PREFIX,
                              PROOF)
from bot.owner.view import SITUATION_FLAGS, edit_view, refuse, send_view
from bot.router import Turn, inline
from bot.texts import FILE_TOO_BIG, STALE_BUTTON
from core import media
from core.formatting import TZ, fmt_datetime
from core.parsing import ParseError, parse_date
from core.services.messaging.conversation import Conversation
from core.services.errors import InvalidInput, ServiceError
from core.services.cases.evidence import EvidenceIn
from core.formatting import fmt_cpf_cnpj
from core.services.owners import (MAX_APPEAL_TEXT, appellant_document, appellant_name,
                                  check_appeal, file_appeal, owner_statement, owner_summary_pdf,
                                  owner_view, set_owner_situation, withdraw_owner_statement,
                                  withdrawable)

MAX_FILES = 10


# -- buttons ------------------------------------------------------------------------------------

async def on_button(turn: Turn) -> None:
    parts = turn.data
    action = parts[1] if len(parts) > 1 else ""
    handler = BUTTONS.get(action)
    if handler is None:
        await turn.answer(STALE_BUTTON)
        return
    try:
        await handler(turn, parts[2:])
    except ServiceError as exc:
        await refuse(turn, exc.message)


async def _view(turn: Turn, args: list[str]) -> None:
    await send_view(turn, await owner_view(turn.core, turn.user_id, _code(args)))


async def _removed(turn: Turn, args: list[str]) -> None:
    """"Já retirei": recorded at once (once the owner proved more than the code); the
    inspector is asked to verify."""
    code = _code(args)
    if not await proof.asked(turn, code, "removed"):
        await proof.record_removed(turn, code)


async def _will_remove(turn: Turn, args: list[str]) -> None:
    """"Vou retirar": ask by when (dd/mm/aaaa) — only while the view still offers it."""
    code = _code(args)
    view = await owner_view(turn.core, turn.user_id, code)
    if not any(a.intent == "owner.will_remove" for row in view.actions for a in row):
        await refuse(turn, view.next_step)
        return
    if not await proof.asked(turn, code, "will_remove"):
        await proof.ask_date(turn, code)


async def _when(turn: Turn, args: list[str]) -> None:
    """owner:when:today|tomorrow:<code> — the buttons beside the typed date."""
    if turn.conv.state != DATE or len(args) != 2 or args[0] not in ("today", "tomorrow") \
            or args[1] != turn.conv.draft.get("code"):
        await turn.answer(STALE_BUTTON)
        return
    today = turn.core.now().astimezone(TZ).date()
    await turn.answer()
    await _promise(turn, args[1], today + timedelta(days=1 if args[0] == "tomorrow" else 0))


async def _undo(turn: Turn, args: list[str]) -> None:
    """"Desfazer declaração": refused at once when there is nothing to take back; otherwise
    the same proof as the statement, then "Tem certeza?"."""
    code = _code(args)
    await withdrawable(turn.core, turn.user_id, code)
    if not await proof.asked(turn, code, "withdraw"):
        await proof.confirm_undo(turn, code)


async def _undo_yes(turn: Turn, args: list[str]) -> None:
    """owner:undo_yes:<statement's number>:<code> — the core refuses a button whose statement
    is no longer the standing one (stale) or that the inspector already acted on."""
    if len(args) != 2 or not args[0].isdigit():
        await turn.answer(STALE_BUTTON)
        return
    code = args[1]
    res = await withdraw_owner_statement(turn.core, turn.user_id, code,
                                         statement_seq=int(args[0]), also=turn.hook(),
                                         declarant=proof.declarant(turn))
    await turn.answer()
    await turn.reply(res.message)
    await send_view(turn, await owner_view(turn.core, turn.user_id, code))


async def _undo_no(turn: Turn, args: list[str]) -> None:
    await turn.answer()
    await turn.reply(texts.UNDO_KEPT)


async def _situation(turn: Turn, args: list[str]) -> None:
    """"Sou procurador" / "Vendi, não transferi" / "Sem recuperação": toggles that change the
    release checklist (Art. 3º, §3º, I and III)."""
    if len(args) != 2 or args[0] not in SITUATION_FLAGS:
        await turn.answer(STALE_BUTTON)
        return
    code, field = args[1], SITUATION_FLAGS[args[0]]
    view = await owner_view(turn.core, turn.user_id, code)
    if view.depot is None:
        await refuse(turn, view.next_step)
        return
    on = not getattr(view.depot.situation, field)
    view = await set_owner_situation(turn.core, turn.user_id, code, also=turn.hook(),
                                     **{field: on})
    await turn.answer(texts.SITUATION_SAVED)
    await edit_view(turn, view)


async def _pdf(turn: Turn, args: list[str]) -> None:
    code = _code(args)
    pdf = await owner_summary_pdf(turn.core, turn.user_id, code,
                                  bot_username=turn.bot.username or "")
    await turn.answer()
    await turn.bot.send_document(turn.chat_id, InputFile(pdf, filename=f"resumo-{code}.pdf"),
                                 caption=texts.PDF_CAPTION.format(code=code))


async def _appeal(turn: Turn, args: list[str]) -> None:
    """"Recorrer ao Prefeito": open while the service says the window is open; first who
    appeals (Art. 3º: the autuado or a co-responsible), by name and CPF/CNPJ."""
    code = _code(args)
    window = await check_appeal(turn.core, turn.user_id, code)
    await turn.save(APPEAL_NAME, {"code": code, "text": "", "files": []})
    await turn.answer()
    await turn.reply(*appellant_question(window, APPEAL_NAME, {}))


def appellant_question(window, state: str, draft: dict) -> tuple[str, object]:
    """The question of who appeals: the name (APPEAL_NAME), then the CPF/CNPJ (APPEAL_DOC)."""
    if state == APPEAL_NAME:
        text = texts.ASK_APPELLANT_NAME.format(due=fmt_datetime(window.due_at),
                                               article=window.article)
    else:
        text = texts.ASK_APPELLANT_DOC.format(name=draft.get("name", ""))
    return text, inline([CANCEL_ROW])


async def _appellant_message(turn: Turn) -> None:
    """The name, then the CPF/CNPJ of who appeals, each checked by the core; a wrong one is
    asked again with the core's reason, nothing lost."""
    d, state = dict(turn.conv.draft), turn.conv.state
    try:
        if state == APPEAL_NAME:
            d["name"] = appellant_name(turn.text or "")
        else:
            d["document"] = appellant_document(turn.text or "")
    except InvalidInput as exc:
        await turn.reply(exc.message, inline([CANCEL_ROW]))
        return
    try:
        window = await check_appeal(turn.core, turn.user_id, d["code"])
    except ServiceError as exc:
        await turn.clear()
        await turn.reply(exc.message)
        return
    if state == APPEAL_NAME:
        await turn.save(APPEAL_DOC, d)
        await turn.reply(*appellant_question(window, APPEAL_DOC, d))
        return
    await turn.save(APPEAL, d)
    await turn.reply(f"Recurso de {d['name']} (CPF/CNPJ {fmt_cpf_cnpj(d['document'])}).")
    await turn.reply(*appeal_question(window, d["code"]))


def appeal_question(window, code: str) -> tuple[str, object]:
    return (texts.ASK_APPEAL.format(due=fmt_datetime(window.due_at), article=window.article),
            _appeal_keyboard(code))


async def _send(turn: Turn, args: list[str]) -> None:
    """"Enviar recurso": file_appeal with the text and attachments gathered in the draft."""
    code = _code(args)
    d = turn.conv.draft
    if turn.conv.state != APPEAL or d.get("code") != code:
        await turn.answer(STALE_BUTTON)
        return
    items = [EvidenceIn(f["sha"], f["mime"], f["kind"], f["file_id"], f["unique_id"])
             for f in d.get("files", [])]
    try:
        res = await file_appeal(turn.core, turn.user_id, code, d.get("text", ""), items,
                                appellant=(d.get("name", ""), d.get("document", "")),
                                also=turn.hook(clear=True))
    except InvalidInput as exc:
        try:
            await check_appeal(turn.core, turn.user_id, code)
        except ServiceError:  # the window closed: nothing more to gather
            await turn.clear()
        await refuse(turn, exc.message)
        return
    turn.conv = Conversation(turn.user_id)
    await turn.answer()
    await turn.reply(res.message)


async def _none(turn: Turn, args: list[str]) -> None:
    """"Não tem placa nem chassi" while the code waits for its answer."""
    if turn.conv.state != ANSWER:
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    await answer(turn, None)


async def _cancel(turn: Turn, args: list[str]) -> None:
    if not turn.conv.state.startswith(PREFIX):
        await turn.answer(STALE_BUTTON)
        return
    await turn.clear()
    await turn.answer()
    await turn.reply(texts.CANCELLED)


def _code(args: list[str]) -> str:
    return args[0] if args else ""


def _appeal_keyboard(code: str):
    return inline([[(texts.SEND_APPEAL, buttons.owner("send", code))], CANCEL_ROW])


BUTTONS = {"view": _view, "removed": _removed, "will_remove": _will_remove, "when": _when,
           "sit": _situation, "pdf": _pdf, "appeal": _appeal, "send": _send, "none": _none,
           "cancel": _cancel, "undo": _undo, "undo_yes": _undo_yes, "undo_no": _undo_no}


# -- messages in an owner:* state ---------------------------------------------------------------

async def on_message(turn: Turn) -> None:
    state = turn.conv.state
    if state == APPEAL:
        await _appeal_message(turn)
        return
    if turn.text is None:
        if state in (APPEAL_NAME, APPEAL_DOC):
            await turn.reply(texts.NEED_ANSWER, inline([CANCEL_ROW]))
            return
        await turn.reply(texts.NEED_ANSWER, inline([CANCEL_ROW]))
        return
    if state == CODE:
        await on_code(turn)
    elif state == ANSWER:
        await answer(turn, turn.text)
    elif state == DATE:
        await _date_message(turn)
    elif state == PROOF:
        await proof.on_proof_message(turn)
    elif state in (APPEAL_NAME, APPEAL_DOC):
        await _appellant_message(turn)


async def _date_message(turn: Turn) -> None:
    code = turn.conv.draft.get("code", "")
    try:
        when = parse_date(turn.text or "")
    except ParseError as exc:
        await turn.reply(f"{exc.message}\n{texts.DATE_AGAIN}", inline([CANCEL_ROW]))
        return
    await _promise(turn, code, when)


async def _promise(turn: Turn, code: str, when: date) -> None:
    """"Vou retirar até <when>": the core refuses a date past the deadline, saying which."""
    try:
        res = await owner_statement(turn.core, turn.user_id, code, "will_remove", when,
                                    also=turn.hook(clear=True),
                                    declarant=proof.declarant(turn))
    except InvalidInput as exc:
        await turn.reply(f"{exc.message}\n{texts.DATE_AGAIN}", inline([CANCEL_ROW]))
        return
    turn.conv = Conversation(turn.user_id)
    await turn.reply(res.message)
    await send_view(turn, await owner_view(turn.core, turn.user_id, code))


#: An appeal takes photos and documents (images or PDF, decided from the bytes), no videos.
APPEAL_FILES = attachments.Policy(not_taken=texts.APPEAL_NEED, video=texts.APPEAL_NO_VIDEO,
                                  sticker=texts.APPEAL_NO_VIDEO, nothing=texts.APPEAL_NEED,
                                  too_big=FILE_TOO_BIG, documents=(media.IMAGE, media.PDF))


async def _appeal_message(turn: Turn) -> None:
    d, msg = dict(turn.conv.draft), turn.message
    keyboard = _appeal_keyboard(d["code"])
    if msg is None:
        return
    if msg.text and not msg.text.startswith("/"):
        joined = "\n\n".join(x for x in (d.get("text", ""), msg.text.strip()) if x)
        if len(joined) > MAX_APPEAL_TEXT:
            await turn.reply(f"Texto longo demais (máximo de {MAX_APPEAL_TEXT} caracteres).",
                             keyboard)
            return
        d["text"] = joined
        await turn.save(APPEAL, d)
        await turn.reply(texts.APPEAL_TEXT_OK.format(n=len(joined)), keyboard)
        return
    item, refusal = attachments.read(msg, APPEAL_FILES)
    if refusal is None and len(d.get("files", [])) >= MAX_FILES:
        refusal = texts.APPEAL_MAX_FILES.format(n=MAX_FILES)
    if refusal is None:
        sha, refusal = await attachments.fetch(turn.bot, turn.core, item, APPEAL_FILES)
    if refusal is not None:
        await turn.reply(refusal, keyboard)
        return
    files = [f for f in d.get("files", []) if f["sha"] != sha]
    kind = "photo" if item.kind == "photo" else "document"
    d["files"] = files + [{"sha": sha, "mime": item.mime, "kind": kind, "file_id": item.file_id,
                           "unique_id": item.unique_id}]
    if msg.caption:
        d["text"] = "\n\n".join(x for x in (d.get("text", ""), msg.caption.strip()) if x)
    await turn.save(APPEAL, d)
    await turn.reply(texts.APPEAL_FILE_OK.format(n=len(d["files"])), keyboard)
