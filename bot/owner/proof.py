"""Before "Já retirei" / "Vou retirar" (or taking it back): an owner who reached the case by the code alone (the QR
code on the notice) proves more — the plate, the chassis's last four characters or the owner's
CPF/CNPJ. The rule and the check are core.services.owners.proof's; here only the question, the
answer, and then the statement goes on where it was headed."""
from __future__ import annotations

from datetime import timedelta

from bot import buttons
from bot.owner import texts
from bot.owner.link import CANCEL_ROW
from bot.owner.states import DATE, PROOF
from bot.owner.view import send_view
from bot.router import Turn, inline
from core.formatting import TZ, fmt_date
from core.services.messaging.conversation import Conversation
from core.services.errors import Forbidden, NotFound, ServiceError
from core.services.owners.proof import NEEDS_PROOF, Declarant, needs_proof, prove_owner
from core.services.owners import owner_statement, owner_view, withdrawable


def declarant(turn: Turn) -> Declarant:
    user = turn.update.effective_user
    return Declarant(turn.display_name, user.username if user else None)


async def asked(turn: Turn, code: str, kind: str) -> bool:
    """True when the proof was asked for (the statement waits for it in owner:proof)."""
    if not await needs_proof(turn.core, turn.user_id, code):
        return False
    await turn.save(PROOF, {"code": code, "kind": kind})
    await turn.answer()
    await turn.reply(NEEDS_PROOF, inline([CANCEL_ROW]))
    return True


async def ask_date(turn: Turn, code: str, before: str = "") -> None:
    """"Vou retirar": Hoje, Amanhã (when still within the deadline) or a typed date, never
    past the limit the core gives (OwnerView.promise_limit, Art. 6º, §3º)."""
    question = await date_question(turn, code, before)
    await turn.save(DATE, {"code": code})
    await turn.answer()
    await turn.reply(*question)


async def date_question(turn: Turn, code: str, before: str = "") -> tuple[str, object]:
    """The date question's text and buttons (reads only)."""
    view = await owner_view(turn.core, turn.user_id, code)
    today = turn.core.now().astimezone(TZ).date()
    limit = view.promise_limit or today
    days = [(texts.TODAY, "today")] + ([(texts.TOMORROW, "tomorrow")]
                                       if today + timedelta(days=1) <= limit else [])
    return (before + texts.ASK_DATE.format(limit=fmt_date(limit), example=fmt_date(limit)),
            inline([[(t, buttons.owner("when", k, code)) for t, k in days], CANCEL_ROW]))


async def record_removed(turn: Turn, code: str, *, clear: bool = False) -> None:
    """"Já retirei": recorded at once; the inspector is asked to verify."""
    res = await owner_statement(turn.core, turn.user_id, code, "removed",
                                also=turn.hook(clear=clear), declarant=declarant(turn))
    if clear:
        turn.conv = Conversation(turn.user_id)
    await turn.answer()
    await turn.reply(res.message)
    await send_view(turn, await owner_view(turn.core, turn.user_id, code))


async def confirm_undo(turn: Turn, code: str, before: str = "") -> None:
    """"Desfazer declaração": ask "Tem certeza?" (Sim / Não) so a slip of the thumb loses
    nothing; "Sim" names the statement it takes back (a stale one changes nothing)."""
    seq, said = await withdrawable(turn.core, turn.user_id, code)
    await turn.answer()
    await turn.reply(before + texts.CONFIRM_UNDO.format(said=said),
                     inline([[(texts.YES, buttons.owner("undo_yes", seq, code)),
                              (texts.NO, buttons.owner("undo_no", code))]]))


async def on_proof_message(turn: Turn) -> None:
    d = turn.conv.draft
    code, kind = d.get("code", ""), d.get("kind")
    try:
        proof = await prove_owner(turn.core, turn.user_id, code, turn.text)
    except Forbidden as exc:  # cooled down (or no longer linked): start again later
        await turn.clear()
        await turn.reply(exc.message)
        return
    except NotFound as exc:
        await turn.reply(exc.message, inline([CANCEL_ROW]))
        return
    done = texts.PROOF_OK.format(proof=proof)
    if kind == "will_remove":
        await ask_date(turn, code, done + "\n")
        return
    if kind == "withdraw":
        await turn.clear()
        try:
            await confirm_undo(turn, code, done + "\n")
        except ServiceError as exc:  # the inspector acted meanwhile
            await turn.reply(exc.message)
        return
    await turn.reply(done)
    try:
        await record_removed(turn, code, clear=True)
    except ServiceError as exc:  # the case moved on meanwhile (closed, towing started)
        await turn.clear()
        await turn.reply(exc.message)
