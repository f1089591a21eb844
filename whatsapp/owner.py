"""The owner on WhatsApp: the case code sent (the notice's WhatsApp link writes it for them,
https://wa.me/<number>?text=<code>), the same proof as on the web owner page asked (the
plate, the chassis' last 4 characters or the owner's CPF/CNPJ; wrong answers cooled down,
core.services.public.access.owner_page), then the owner's view as plain text
(core.services.owners.text: the deadline, what comes next, the depot's conditions and fees)
and, when a PIX is offered, its copy-and-paste code as a message of its own (a long press
copies it whole) and its QR code."""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from core.documents.qr import qr_png
from core.formatting import fmt_money
from core.identifiers import case_code_keys, format_case_code
from core.services.errors import USER_ERRORS, NotFound
from core.services.owners.text import view_text
from core.services.public.access import owner_page
from whatsapp.graph import GraphError

if TYPE_CHECKING:
    from whatsapp.citizen import Turn

log = logging.getLogger(__name__)

PROOF = "owner:proof"  # the chat's state while the proof is awaited
ASK_PROOF = ("Caso {code} encontrado. Para ver os prazos, as condições e os valores, confirme "
             "que o objeto é seu: envie a placa do veículo (com ou sem o traço), os 4 últimos "
             "caracteres do chassi ou o CPF/CNPJ do proprietário. Depois de várias tentativas "
             "erradas, é preciso aguardar uma hora para tentar de novo.")
PIX_INTRO = "PIX copia e cola de {amount} (toque e segure para copiar):"
_DASHED = re.compile(r"^\s*[0-9A-Za-z]{4}\s*-\s*[0-9A-Za-z]{4}\s*$")


def code_typed(text: str | None) -> str | None:
    """The case code a message is (as printed, "K7QM-42XD", or 8 letters and digits with a
    digit among them), else None: a word of 8 letters is a word."""
    keys = case_code_keys(text)
    if not keys:
        return None
    if _DASHED.match(text or "") or any(ch.isdigit() for ch in keys[0]):
        return keys[0]
    return None


async def start(turn: Turn, code: str) -> bool:
    """A case code sent: the proof asked for; False when no case has it (the face goes on
    as with any other message)."""
    visitor = f"whatsapp:{turn.m.wa_id}"
    try:
        page = await owner_page(turn.core, visitor, code)
    except NotFound:
        return False
    await turn.commit(PROOF, {"code": page.code})
    await turn.say(ASK_PROOF.format(code=format_case_code(page.code)))
    return True


async def proof(turn: Turn, answer: str) -> None:
    """The proof given: the owner's view, or why not (the question stays for another try;
    while cooling down the chat goes back to the start)."""
    code = turn.draft.get("code", "")
    visitor = f"whatsapp:{turn.m.wa_id}"
    try:
        page = await owner_page(turn.core, visitor, code, answer)
    except USER_ERRORS as exc:
        await turn.commit()
        await turn.say(exc.message)
        return
    await turn.commit(clear=True)
    if page.view is None:
        return
    await turn.say(view_text(page.view))
    payment = page.view.depot.payment if page.view.depot is not None else None
    if payment is None or not payment.pix:  # a guia instead: its instructions are in the view
        return
    await turn.say(PIX_INTRO.format(amount=fmt_money(payment.amount)))
    await turn.say(payment.pix)
    try:
        media = await turn.face.graph.upload(qr_png(payment.pix, scale=8).getvalue(),
                                             "image/png", f"pix-{payment.txid}.png")
        await turn.face.graph.send({
            "messaging_product": "whatsapp", "recipient_type": "individual",
            "to": turn.m.wa_id, "type": "image",
            "image": {"id": media, "caption": f"QR code do PIX de {fmt_money(payment.amount)} "
                                              f"(caso {payment.txid})"}})
    except GraphError as exc:  # the code above pays as well
        log.warning("PIX QR code not sent on WhatsApp: %s", exc)
