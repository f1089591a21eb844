"""The owner proves more than a glance at the notice before a statement changes the case.

The case code is printed on the notice stuck on the object, so `/start <case code>` (the QR
code) lets anyone who walks by read the case — and that may stay so: it shows nothing private.
But "Vou retirar" / "Já retirei" (Dores Art. 6º, §3º: the removal "deixará de acontecer, caso o
proprietário/responsável se prontifique [...] a retirar o objeto") postpones the removal, and
only the owner or the person responsible may make it. So a statement needs a second proof,
something the notice does not show: the plate, the chassis's last four characters, or the
owner's CPF/CNPJ when the inspector recorded it (Dores Art. 4º, I). The account's link keeps
the proof (OwnerLink.via); wrong answers count towards the same cool-down as linking (five
within the hour lock the account for an hour).

Decision: an object with no plate, no chassis and no recorded owner document (a sofa, a
machine) has nothing more to check; its statement is accepted on the code alone and marked
so for the inspector, who verifies on site anyway.

The inspector sees who made each statement (`declared_by`: the Telegram name, username and id,
and which proof), in the "please verify" message and in the case's timeline.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select

from core.identifiers import InvalidIdentifier, normalize_plate
from core.services.context import Core
from core.services.errors import Forbidden, NotFound
from core.storage.models import Case, CaseOwner, OwnerAccessGuard, OwnerLink
from core.text import clean_optional

#: OwnerLink.via values that prove more than the code, and how the inspector reads them.
PROOFS = {"code_plate": "placa", "code_chassis": "final do chassi",
          "code_document": "CPF/CNPJ do proprietário"}
CODE_ONLY = ("só o código do aviso (o objeto não tem placa, chassi nem documento do "
             "proprietário registrado)")
NEEDS_PROOF = ("Para registrar essa declaração, confirme que o objeto é seu: envie a placa do "
               "veículo, os 4 últimos caracteres do chassi ou o CPF/CNPJ do proprietário.")
WRONG_PROOF = ("Esses dados não conferem com o caso. Confira a placa (ou os 4 últimos "
               "caracteres do chassi, ou o CPF/CNPJ do proprietário) e envie de novo.")


@dataclass(frozen=True)
class Declarant:
    """Who is making a statement, as Telegram shows them."""
    name: str | None = None
    username: str | None = None


def _compact(text: str | None) -> str:
    return re.sub(r"[\s\-./]+", "", text or "").upper()


async def owner_document(s, case: Case) -> str | None:
    """The owner's CPF/CNPJ digits the inspector recorded (Dores Art. 4º, I), if any."""
    return (await s.execute(select(CaseOwner.owner_cpf).where(CaseOwner.case_id == case.id))
            ).scalar_one_or_none() or None


def proof_of(case: Case, document: str | None, answer: str | None) -> str | None:
    """Which proof `answer` is for this case ("code_plate", "code_chassis", "code_document"),
    or None when it matches nothing."""
    if case.plate:
        try:
            if normalize_plate(answer or "").value == case.plate:
                return "code_plate"
        except InvalidIdentifier:
            pass
    given = _compact(answer)
    if case.chassis and len(given) >= 4 and given in (case.chassis.upper()[-4:],
                                                      case.chassis.upper()):
        return "code_chassis"
    if document and given.isdigit() and given == re.sub(r"\D", "", document):
        return "code_document"
    return None


async def proof_needed(s, case: Case, link: OwnerLink) -> bool:
    """True when this link may not yet make a statement on this case."""
    if link.via in PROOFS:
        return False
    return bool(case.plate or case.chassis or await owner_document(s, case))


async def require_proof(s, case: Case, link: OwnerLink) -> str:
    """The proof this link holds, in words for the inspector; Forbidden(NEEDS_PROOF) when a
    statement needs one it has not given yet."""
    if await proof_needed(s, case, link):
        raise Forbidden(NEEDS_PROOF)
    return PROOFS.get(link.via, CODE_ONLY)


def declared_by(telegram_id: int, who: Declarant | None, proof: str) -> str:
    """One line for the inspector and the timeline: name, Telegram and the proof given."""
    who = who or Declarant()
    name = clean_optional(who.name) or "sem nome no Telegram"
    user = f"@{clean_optional(who.username)}, " if who.username else ""
    return f"{name} (Telegram {user}id {telegram_id}); comprovou com: {proof}"


async def needs_proof(core: Core, telegram_id: int, case_code: str) -> bool:
    """For the bot: ask for the proof before the statement's own questions (not on a closed
    case: the statement's own refusal says so)."""
    async with core.db.read() as s:
        case, link = await _linked(s, telegram_id, case_code)
        return case.is_open and await proof_needed(s, case, link)


async def prove_owner(core: Core, telegram_id: int, case_code: str, answer: str | None) -> str:
    """Check the plate / chassis tail / CPF-CNPJ the owner sent for their linked case; on a
    match the link keeps the proof (returns it in words). A wrong answer is NotFound and counts
    towards the cool-down (Forbidden once locked)."""
    from core.services.owners.access import cool_down_message, record_failure
    now = core.now()
    locked_until = None
    async with core.db.unit_of_work() as s:
        guard = await s.get(OwnerAccessGuard, telegram_id, with_for_update=True)
        if guard is not None and guard.locked_until and guard.locked_until > now:
            raise Forbidden(cool_down_message(core, guard.locked_until))
        case, link = await _linked(s, telegram_id, case_code, for_update=True)
        proof = proof_of(case, await owner_document(s, case), answer)
        if proof is None:
            locked_until = await record_failure(s, guard, telegram_id, now)
        else:  # a right answer does not clear the count (owner_access.count_failure)
            link.via = proof
    if proof is None:
        raise Forbidden(cool_down_message(core, locked_until)) if locked_until \
            else NotFound(WRONG_PROOF)
    return PROOFS[proof]


async def _linked(s, telegram_id: int, case_code: str, *, for_update: bool = False
                  ) -> tuple[Case, OwnerLink]:
    from core.services.owners.access import owned  # the owner's link to the case, or NotFound
    return await owned(s, telegram_id, case_code, for_update=for_update)
