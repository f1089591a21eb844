"""An edital's publication in the Diário Oficial, recorded by the staff: the lifecycle step it
stands for (record_publication, publish_removal_edital) or, for the auction edital that no
step models, a fact and a timeline event."""
from __future__ import annotations

from datetime import date

from core.services.cases.transitions import apply_transition
from core.services.staff.scope import load_here
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.staff.accounts import StaffUserInfo
from core.services.staff.common import today
from core.storage.timeline import append_event


def auction_edital_article(core: Core) -> str | None:
    """The article the law rests its auction edital on (Law.editais: Dores Art. 3º, caput
    and Art. 8º; Dracena Art. 6º, §1º); None when the law words none."""
    wording = core.law.edital("leilao")
    return wording.article if wording else None


async def record_edital(core: Core, ref: str, kind: str, published_on: date, reference: str,
                        by: StaffUserInfo) -> None:
    """Mark a case's edital published in the Diário Oficial on `published_on`.

    - "notificacao": Dores Art. 4º, II, b — the lifecycle step record_publication (its 10 days
      run from the publication date).
    - "notificacao_bens": Dores Art. 5º, III — the furniture track's record_publication, for
      an object removed at once (Art. 5º, II); its 10 days run from the publication date.
    - "remocao": Dores Art. 6º, §1º — the step publish_removal_edital.
    - "leilao": no lifecycle step; the date is kept as the fact auction_edital_at (Dracena
      Art. 6º, §1º requires it before the auction) and recorded in the timeline."""
    if not reference.strip():
        raise InvalidInput("Informe a edição/página do Diário Oficial.")
    if published_on > today(core):
        raise InvalidInput("A data de publicação não pode estar no futuro.")
    iso = published_on.isoformat()
    if kind in ("notificacao", "notificacao_bens"):
        await apply_transition(core, ref, "record_publication", by.actor(),
                               {"publication_date": iso, "publication_reference": reference})
        return
    if kind == "remocao":
        await apply_transition(core, ref, "publish_removal_edital", by.actor(),
                               {"edital_date": iso, "edital_reference": reference})
        return
    if kind != "leilao":
        raise InvalidInput("Tipo de edital desconhecido.")
    async with core.db.unit_of_work() as s:
        case = await load_here(s, core, ref, for_update=True)
        if not case.is_open:
            raise InvalidInput(f"O caso {case.protocol} está encerrado.")
        details = dict(case.details or {})
        details["facts"] = {**details.get("facts", {}), "auction_edital_at": iso,
                            "auction_edital_reference": reference.strip()}
        case.details = details
        await append_event(s, case, by.actor(), "auction_edital", auction_edital_article(core),
                           {"auction_edital_at": iso, "auction_edital_reference": reference},
                           at=core.now())
