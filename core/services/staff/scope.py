"""No city sees another's: what the panel checks before it touches an object named in a URL or
a form (a case, an inspector, a photo, a dead letter) and how it trims a list a service of
another package made for the whole installation.

An object of another city is answered exactly as a missing one: the same NotFound, with the
same words the service itself uses for an id that does not exist."""
from __future__ import annotations

from typing import Iterable, Sequence, TypeVar

from sqlalchemy import select

from core.services.cases.transitions import NOT_FOUND as CASE_NOT_FOUND, load_case
from core.services.context import Core
from core.services.errors import NotFound
from core.storage.models import Case, Evidence, Inspector

T = TypeVar("T")


async def case_here(core: Core, ref: str) -> Case:
    """The case `ref` (protocol or case code) of the Core's city; NotFound otherwise."""
    async with core.db.read() as s:
        try:
            case = await load_case(s, ref)
        except NotFound:
            raise NotFound(CASE_NOT_FOUND) from None
    if case.municipality != core.municipality:
        raise NotFound(CASE_NOT_FOUND)
    return case


def inspector_cities(core: Core) -> tuple[str, ...]:
    """The `inspectors.municipality` values of the Core's city: its slug, and "" (a row made
    before inspectors carried a city) while the installation serves one city only."""
    return (core.municipality,) if core.many_cities else (core.municipality, "")


async def inspector_here(core: Core, inspector_id: int | None) -> bool:
    """True when the inspector exists and works for the Core's city."""
    if inspector_id is None:
        return True  # nothing named: the view's own check answers
    async with core.db.read() as s:
        city = (await s.execute(select(Inspector.municipality).where(
            Inspector.id == inspector_id))).scalar_one_or_none()
    return city is None or city in inspector_cities(core)  # missing: the service answers


async def evidence_here(core: Core, evidence_id: int) -> bool:
    """True when the photo (by evidence id) is missing or belongs to a case of this city."""
    async with core.db.read() as s:
        city = (await s.execute(select(Case.municipality).join(
            Evidence, Evidence.case_id == Case.id).where(Evidence.id == evidence_id))
        ).scalar_one_or_none()
    return city is None or city == core.municipality


async def protocols_here(core: Core, protocols: Iterable[str | None]) -> set[str]:
    """Which of `protocols` are cases of the Core's city."""
    wanted = sorted({p for p in protocols if p})
    found: set[str] = set()
    async with core.db.read() as s:
        for i in range(0, len(wanted), 500):
            found |= set((await s.execute(select(Case.protocol).where(
                Case.protocol.in_(wanted[i:i + 500]),
                Case.municipality == core.municipality))).scalars().all())
    return found


async def only_here(core: Core, rows: Sequence[T], attr: str = "protocol", *,
                    unlinked: bool = False) -> list[T]:
    """The rows (each with a case protocol in `attr`) of the Core's city; a row tied to no
    case is kept only when `unlinked` (an installation administrator, or a single city)."""
    here = await protocols_here(core, (getattr(r, attr, None) for r in rows))
    return [r for r in rows
            if (getattr(r, attr, None) in here) or (unlinked and not getattr(r, attr, None))]


async def load_here(s, core: Core, ref: str | int, *, for_update: bool = False) -> Case:
    """`load_case` within the Core's city: another city's case is NotFound, as a missing one."""
    case = await load_case(s, ref, for_update=for_update)
    if case.municipality != core.municipality:
        raise NotFound(CASE_NOT_FOUND)
    return case
