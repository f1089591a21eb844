"""Inspectors: invitation codes, binding a Telegram account, and the role check every
inspector command goes through.

The law names who may act in the field (Dores Art. 10: "fiscal de posturas municipal"; Art. 3º,
§2º: "os agentes da vigilância sanitária, trânsito e órgãos conveniados"; Art. 5º, caput:
"Secretaria Municipal de Saúde ou a ela conveniada"; Dracena Art. 1º: "funcionário
competente"): an inspector is bound to one of the law's agencies, and each lifecycle step says
which agencies may take it (Transition.agencies).

An invitation code is shown once; only its SHA-256 is stored. Wrong codes are recorded per
Telegram account in the database (BindAttempt), so a restart does not reset the cool-down.
"""
from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.area import valid_point
from core.lifecycle import Actor
from core.services.context import Core
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.citizens.people import person_for
from core.storage.models import BindAttempt, Case, Inspector, InviteCode, Person
from core.storage.timeline import ActorRef

INVITE_VALID = timedelta(days=7)
MAX_WRONG_TRIES = 5
TRY_WINDOW = timedelta(minutes=30)  # five wrong codes within this window …
COOL_DOWN = timedelta(hours=1)  # … lock the account out for this long after the fifth
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed
CODE_LENGTH = 12

NOT_INSPECTOR = ("Desculpe, esta função é só para fiscais da prefeitura. Se você é fiscal, "
                 "peça um código de convite à Secretaria e envie /fiscal CÓDIGO.")
WRONG_CODE = "Código de convite inválido. Confira o código e tente de novo."
USED_CODE = "Este código de convite já foi usado. Peça um novo código à Secretaria."
EXPIRED_CODE = "Este código de convite expirou. Peça um novo código à Secretaria."


@dataclass(frozen=True)
class BoundInspector:
    inspector_id: int
    name: str
    agency: str
    agency_name: str
    municipality: str = ""  # the city whose tasks reach this inspector


def hash_code(code: str) -> str:
    return hashlib.sha256(normalise_code(code).encode("ascii", "ignore")).hexdigest()


def normalise_code(code: str) -> str:
    """Typed codes ignore case, spaces and hyphens ("abcd-efgh-jkmn" == "ABCDEFGHJKMN")."""
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().replace("_", " ").split())


def resolve_agency(core: Core, agency: str) -> str:
    """The agency code for `agency`, given as code or name (accents and case ignored)."""
    wanted = _fold(agency or "")
    for code, a in core.law.agencies.items():
        if wanted in (_fold(code), _fold(a.name)):
            return code
    names = "; ".join(f"{a.name} ({c})" for c, a in core.law.agencies.items())
    raise InvalidInput(f"Órgão desconhecido: “{agency}”. Órgãos previstos na "
                       f"{core.law.short}: {names}.", "agency")


def agency_name(core: Core, code: str) -> str:
    a = core.law.agencies.get(code)
    return a.name if a else code


def inspector_core(core: Core, inspector: Inspector) -> Core:
    """The installation acting for the inspector's city: their tasks, cards, forms and
    papers are that city's, with its law (an inspector without a city — none recorded —
    acts for `core`'s)."""
    slug = inspector.municipality
    return core.for_city(slug) if slug and core.city_named(slug) is not None else core


async def inspector_city(core: Core, telegram_id: int) -> Core:
    """`inspector_core` of the active inspector of this Telegram account (`core` itself for
    anyone else): the bot's inspector answers run with it."""
    inspector = await inspector_for(core, telegram_id)
    return inspector_core(core, inspector) if inspector is not None else core


def actor_ref(inspector: Inspector) -> ActorRef:
    """How the timeline records an inspector: kind "inspector", id = Inspector.id."""
    return ActorRef(Actor.INSPECTOR.value, inspector.id, inspector.name)


def clean_registration(value: str | None) -> str | None:
    """The inspector's matrícula as typed (letters, digits, ".", "-", "/"), up to 40
    characters; printed on the legal documents the inspector signs (Dores Anexo I and II)."""
    text = " ".join((value or "").split())
    if not text:
        return None
    if len(text) > 40 or not all(c.isalnum() or c in ".-/ " for c in text):
        raise InvalidInput("Matrícula inválida: use até 40 letras, números, ponto, hífen ou "
                           "barra (ex.: 12.345-6).", "matricula")
    return text


async def invite_inspector(core: Core, name: str, agency: str, created_by: str | None, *,
                           registration: str | None = None) -> str:
    """A one-time invitation code (shown once, valid 7 days) for `name` of `agency`, with the
    inspector's matrícula (`registration`) printed on the documents he signs."""
    name = " ".join((name or "").split())
    if not 2 <= len(name) <= 200:
        raise InvalidInput("Informe o nome do fiscal (de 2 a 200 caracteres).", "name")
    if registration is not None and clean_registration(registration) is None:
        raise InvalidInput("Informe a matrícula do fiscal: ela é impressa nos documentos que "
                           "ele assina.", "matricula")
    registration = clean_registration(registration)
    code_agency = resolve_agency(core, agency)
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    now = core.now()
    async with core.db.unit_of_work() as s:
        s.add(InviteCode(code_hash=hash_code(raw), name=name, agency=code_agency,
                         registration=registration, municipality=core.municipality,
                         created_by=(created_by or None) and str(created_by)[:80],
                         created_at=now, expires_at=now + INVITE_VALID))
    return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))


async def set_registration(core: Core, inspector_id: int, value: str | None) -> str:
    """Staff set or correct an inspector's matrícula (an inspector invited before it was
    asked, or one typed wrong at the invitation). Documents issued from now on print the new
    one; a document already issued is kept as it was issued. Returns the matrícula stored;
    InvalidInput (nothing written) for an empty or malformed one, NotFound for no inspector."""
    registration = clean_registration(value)
    if registration is None:
        raise InvalidInput("Informe a matrícula do fiscal: ela é impressa nos documentos que "
                           "ele assina.", "matricula")
    async with core.db.unit_of_work() as s:
        inspector = await s.get(Inspector, inspector_id, with_for_update=True)
        if inspector is None or inspector.municipality not in (core.municipality, ""):
            raise NotFound("Fiscal não encontrado.")
        inspector.registration = registration
    return registration


async def _cool_down_until(s: AsyncSession, telegram_id: int, now: datetime) -> datetime | None:
    rows = (await s.execute(
        select(BindAttempt.at).where(BindAttempt.telegram_id == telegram_id,
                                     BindAttempt.at > now - COOL_DOWN - TRY_WINDOW)
        .order_by(BindAttempt.at))).scalars().all()
    # The account is cooled down for COOL_DOWN after any 5th wrong try within TRY_WINDOW.
    for i in range(len(rows) - MAX_WRONG_TRIES + 1):
        first, fifth = rows[i], rows[i + MAX_WRONG_TRIES - 1]
        if fifth - first <= TRY_WINDOW and fifth + COOL_DOWN > now:
            return fifth + COOL_DOWN
    return None


async def bind_inspector(core: Core, telegram_id: int, code: str,
                         display_name: str | None = None) -> BoundInspector:
    """`/fiscal CÓDIGO`: bind this Telegram account as the invited inspector (or bind a
    deactivated one again: reactivated). A wrong, used or expired code is refused; five wrong
    codes within 30 minutes cool the account down for an hour (even the right code waits).
    The bot binds through core.services.inspectors.queue_flow.bind_and_take_waiting, which then offers
    the waiting cases the inspector can take."""
    from core.formatting import fmt_datetime
    now = core.now()
    refusal: str | None = None
    async with core.db.unit_of_work() as s:
        until = await _cool_down_until(s, telegram_id, now)
        if until is not None:
            refusal = ("Muitas tentativas com código errado. Por segurança, tente de novo a "
                       f"partir de {fmt_datetime(until)}.")
        else:
            invite = (await s.execute(select(InviteCode).where(
                InviteCode.code_hash == hash_code(code)).with_for_update())).scalar_one_or_none()
            if invite is None:
                s.add(BindAttempt(telegram_id=telegram_id, at=now))
                refusal = WRONG_CODE
            elif invite.used_at is not None:
                refusal = USED_CODE
            elif invite.expires_at <= now:
                refusal = EXPIRED_CODE
            else:
                person = await person_for(s, telegram_id, display_name)
                inspector = (await s.execute(select(Inspector).where(
                    Inspector.person_id == person.id))).scalar_one_or_none()
                if inspector is not None and inspector.active:
                    refusal = ("Esta conta do Telegram já está vinculada a um fiscal "
                               f"({inspector.name}).")
                else:
                    if inspector is None:
                        inspector = Inspector(person_id=person.id, name=invite.name,
                                              agency=invite.agency, created_at=now)
                        s.add(inspector)
                    inspector.name, inspector.agency, inspector.active = \
                        invite.name, invite.agency, True
                    inspector.registration = invite.registration or inspector.registration
                    # the invite's city (the staff member's when it was created)
                    inspector.municipality = invite.municipality or core.municipality
                    invite.used_at, invite.used_by = now, person.id
                    if "inspector" not in (person.roles or []):
                        person.roles = [*(person.roles or []), "inspector"]
                    await s.execute(delete(BindAttempt).where(
                        BindAttempt.telegram_id == telegram_id))
                    await s.flush()
                    here = inspector_core(core, inspector)
                    bound = BoundInspector(inspector.id, inspector.name, inspector.agency,
                                           agency_name(here, inspector.agency),
                                           here.municipality)
    # The wrong try is committed above before the refusal is raised.
    if refusal is not None:
        raise Forbidden(refusal)
    return bound


#: Outbox kind (no text): the bot deletes the chat-scoped command menu (deleteMyCommands),
#: so a deactivated inspector's chat falls back to the citizens' menu, without /tarefas.
MENU_WITHDRAWN = "inspector_menu_withdrawn"


async def withdraw_menu(core: Core, s: AsyncSession, inspector: Inspector) -> None:
    from core.storage.outbox import enqueue
    telegram_id = (await s.execute(select(Person.telegram_id).where(
        Person.id == inspector.person_id))).scalar_one_or_none()
    if telegram_id is not None:
        await enqueue(s, telegram_id, MENU_WITHDRAWN, {},
                      f"inspector:{inspector.id}:menu_withdrawn:{core.now().isoformat()}")


async def inspector_chats(core: Core) -> tuple[list[int], list[int]]:
    """Telegram ids of the bound inspectors: (active, deactivated), for their chat menus."""
    async with core.db.read() as s:
        rows = (await s.execute(select(Person.telegram_id, Inspector.active).join(
            Person, Person.id == Inspector.person_id).order_by(Inspector.id))).all()
    return [t for t, a in rows if a], [t for t, a in rows if not a]


async def inspector_for(core: Core, telegram_id: int) -> Inspector | None:
    """The active inspector bound to this Telegram account, or None."""
    async with core.db.read() as s:
        return await active_inspector(s, telegram_id)


async def active_inspector(s: AsyncSession, telegram_id: int) -> Inspector | None:
    return (await s.execute(
        select(Inspector).join(Person, Person.id == Inspector.person_id)
        .where(Person.telegram_id == telegram_id, Inspector.active.is_(True)))
    ).scalar_one_or_none()


async def require_inspector(core: Core, telegram_id: int, step_code: str | None = None,
                            case: Case | str | int | None = None, *,
                            session: AsyncSession | None = None) -> Inspector:
    """The bound active inspector, allowed (by agency) to take `step_code` on `case`'s
    track; Forbidden with a polite Portuguese refusal otherwise."""
    if session is None:
        async with core.db.read() as s:
            return await require_inspector(core, telegram_id, step_code, case, session=s)
    inspector = await active_inspector(session, telegram_id)
    if inspector is None:
        raise Forbidden(NOT_INSPECTOR)
    if step_code is None:
        return inspector
    if case is None:
        raise InvalidInput("Informe o caso (protocolo) para esta ação.")
    core = inspector_core(core, inspector)
    if not isinstance(case, Case):
        from core.services.cases.transitions import load_case
        case = await load_case(session, case, municipality=core.municipality)
    elif case.municipality != core.municipality:
        from core.services.cases.transitions import NOT_FOUND
        raise NotFound(NOT_FOUND)  # another city's case: exactly as a missing one
    t = core.law.tracks[case.track].transitions.get(step_code)
    if t is None:
        raise InvalidInput("Ação desconhecida neste procedimento.")
    if Actor.INSPECTOR not in t.actors:
        raise Forbidden(f"Desculpe, “{t.label}” não é feito por fiscais ({t.article}).")
    if t.agencies and inspector.agency not in t.agencies:
        allowed = ", ".join(sorted(agency_name(core, a) for a in t.agencies))
        raise Forbidden(f"Desculpe, “{t.label}” é competência de: {allowed} ({t.article}). "
                        "Nada foi alterado.")
    return inspector


async def update_location(core: Core, telegram_id: int, lat: float, lon: float) -> None:
    """The inspector shared their location: used to rank tasks by distance."""
    if not valid_point(lat, lon):
        raise InvalidInput("Localização inválida. Envie a localização pelo botão do Telegram.")
    async with core.db.unit_of_work() as s:
        inspector = await active_inspector(s, telegram_id)
        if inspector is None:
            raise Forbidden(NOT_INSPECTOR)
        inspector.last_lat, inspector.last_lon = float(lat), float(lon)
        inspector.last_seen_at = core.now()
