"""What the owner writes to reach and describe their case: the link between a Telegram account
and a case (by the QR code's case code, or the case code and the plate), and what the owner
says about themselves that changes the release checklist. Each answers with the owner's view
(core.services.owners.view)."""
from __future__ import annotations

from core.laws.base import ReleaseSituation
from core.services.context import Core, SessionHook
from core.services.errors import InvalidInput
from core.services.owners.access import link, owned
from core.services.owners.view import OwnerView, owner_view


async def link_by_code(core: Core, telegram_id: int, case_code: str, *,
                       also: SessionHook | None = None) -> OwnerView:
    """`/start <case code>` from the QR code on the notice: the code alone opens the case.
    `also` runs in the linking transaction, only when the link succeeds."""
    code = await link(core, telegram_id, case_code, None, check_answer=False, also=also)
    return await owner_view(core, telegram_id, code)


async def link_by_code_and_plate(core: Core, telegram_id: int, case_code: str,
                                 plate_or_chassis_tail: str | None = None, *,
                                 also: SessionHook | None = None) -> OwnerView:
    """`/proprietario`: the case code and the plate; without a plate, the last four characters
    of the chassis; the code alone where the object has neither."""
    code = await link(core, telegram_id, case_code, plate_or_chassis_tail, check_answer=True,
                      also=also)
    return await owner_view(core, telegram_id, code)


async def set_owner_situation(core: Core, telegram_id: int, case_code: str, *,
                              also: SessionHook | None = None, **flags: bool) -> OwnerView:
    """"Sou procurador", "vendi mas não transferi", "sem recuperação": what the owner says
    about themselves changes the release checklist (Dores Art. 3º, §3º, I and III, a–b)."""
    allowed = set(ReleaseSituation.__dataclass_fields__)
    unknown = set(flags) - allowed
    if unknown:
        raise InvalidInput("Opção desconhecida: " + ", ".join(sorted(unknown)))
    async with core.db.unit_of_work() as s:
        _case, olink = await owned(s, telegram_id, case_code)
        if not _case.is_open:
            raise InvalidInput("Este caso já foi encerrado.")
        olink.situation = {**(olink.situation or {}), **{k: bool(v) for k, v in flags.items()}}
        if also is not None:
            await also(s)
    return await owner_view(core, telegram_id, case_code)
