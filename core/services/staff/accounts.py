"""What the city staff do outside a case's plain lifecycle step: panel accounts (argon2
hashes), dated tariffs and closures, merging a duplicate report, the auction edital, and
reports that arrive through Open311 instead of Telegram.

Every case change still goes through `core.services.cases.transitions.apply_transition` (or, for steps the
lifecycle does not model, an event appended to the case's hash-chained timeline) with the staff
member as the actor.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select

from core.formatting import fmt_date
from core.lifecycle import Actor
from core.services.cases.transitions import TransitionResult, apply_transition, load_case
from core.services.context import Core
from core.services.cases.deadline_recount import Recounted, recount_for_closure
from core.services.errors import InvalidInput, NotFound
from core.services.citizens.reports import ReportIn, Submitted, submit_report
from core.storage.models import (Closure, Evidence, StaffUser, Subscription, SupportingReport,
                                 Tariff)
from core.storage.timeline import ActorRef, append_event

ROLES = ("admin", "staff")
ROLE_LABELS = {"admin": "Administrador(a)", "staff": "Servidor(a)"}
CLOSURE_KINDS = {"holiday": "Feriado municipal", "optional": "Ponto facultativo",
                 "decree": "Fechamento por decreto"}
MIN_PASSWORD = 10
_USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{1,39}$")
_hasher = PasswordHasher()
# Verified when the username does not exist, so a miss costs as long as a wrong password.
_DUMMY_HASH = _hasher.hash("via-livre-dummy-password")

#: Who acts from the command line (python -m admin): staff, without a panel account.
CLI_ACTOR = ActorRef(Actor.STAFF.value, None, "cli")


@dataclass(frozen=True)
class StaffUserInfo:
    id: int
    username: str
    role: str
    active: bool
    last_login_at: datetime | None = None
    session_version: int = 0  # sessions signed with another version are over

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    def actor(self) -> ActorRef:
        """How the timeline records this person."""
        return ActorRef(Actor.STAFF.value, self.id, self.username)


def _info(u: StaffUser) -> StaffUserInfo:
    return StaffUserInfo(u.id, u.username, u.role, u.active, u.last_login_at,
                         u.session_version or 0)


# -- accounts --------------------------------------------------------------------------------

async def create_user(core: Core, username: str, password: str, role: str) -> StaffUserInfo:
    username = (username or "").strip().lower()
    if not _USERNAME_RE.match(username):
        raise InvalidInput("Nome de usuário inválido: use de 2 a 40 letras minúsculas, "
                           "números, ponto, hífen ou sublinhado.", "username")
    if role not in ROLES:
        raise InvalidInput("Perfil inválido: escolha administrador(a) ou servidor(a).", "role")
    if len(password or "") < MIN_PASSWORD:
        raise InvalidInput(f"A senha precisa ter pelo menos {MIN_PASSWORD} caracteres.",
                           "password")
    async with core.db.unit_of_work() as s:
        if (await s.execute(select(StaffUser.id).where(StaffUser.username == username))).first():
            raise InvalidInput(f"Já existe um usuário “{username}”.", "username")
        user = StaffUser(username=username, password_hash=_hasher.hash(password), role=role,
                         active=True, created_at=core.now())
        s.add(user)
        await s.flush()
        return _info(user)


async def authenticate(core: Core, username: str, password: str) -> StaffUserInfo | None:
    """The active user with this username and password, or None (never says which was wrong)."""
    username = (username or "").strip().lower()
    async with core.db.unit_of_work() as s:
        user = (await s.execute(select(StaffUser).where(StaffUser.username == username))
                ).scalar_one_or_none()
        try:
            _hasher.verify(user.password_hash if user else _DUMMY_HASH, password or "")
        except (VerificationError, InvalidHashError):
            return None
        if user is None or not user.active:
            return None
        if _hasher.check_needs_rehash(user.password_hash):
            user.password_hash = _hasher.hash(password)
        user.last_login_at = core.now()
        return _info(user)


async def get_user(core: Core, user_id: int) -> StaffUserInfo | None:
    async with core.db.read() as s:
        user = await s.get(StaffUser, user_id)
        return _info(user) if user else None


async def list_users(core: Core) -> list[StaffUserInfo]:
    async with core.db.read() as s:
        rows = (await s.execute(select(StaffUser).order_by(StaffUser.username))).scalars().all()
        return [_info(u) for u in rows]


async def set_user_active(core: Core, user_id: int, active: bool, by: StaffUserInfo) -> None:
    if user_id == by.id and not active:
        raise InvalidInput("Você não pode desativar a sua própria conta.")
    async with core.db.unit_of_work() as s:
        user = await s.get(StaffUser, user_id)
        if user is None:
            raise NotFound("Usuário não encontrado.")
        if user.active and not active:
            user.session_version = (user.session_version or 0) + 1  # signed out everywhere
        user.active = active


async def end_sessions(core: Core, user_id: int) -> None:
    """Log out: every panel session of this user issued so far is refused from now on."""
    async with core.db.unit_of_work() as s:
        user = await s.get(StaffUser, user_id)
        if user is not None:
            user.session_version = (user.session_version or 0) + 1


async def change_password(core: Core, user_id: int, current: str, new: str,
                          repeated: str) -> StaffUserInfo:
    """A user's own new password (the current one must be right); every other session of
    the user ends (the returned info carries the new session version)."""
    if len(new or "") < MIN_PASSWORD:
        raise InvalidInput(f"A nova senha precisa ter pelo menos {MIN_PASSWORD} caracteres.",
                           "new")
    if new != repeated:
        raise InvalidInput("A repetição não confere com a nova senha.", "repeat")
    async with core.db.unit_of_work() as s:
        user = await s.get(StaffUser, user_id)
        if user is None or not user.active:
            raise NotFound("Usuário não encontrado.")
        try:
            _hasher.verify(user.password_hash, current or "")
        except (VerificationError, InvalidHashError):
            raise InvalidInput("A senha atual está incorreta.", "current") from None
        user.password_hash = _hasher.hash(new)
        user.session_version = (user.session_version or 0) + 1
        await s.flush()
        return _info(user)


# -- tariffs and calendar ------------------------------------------------------------------

def _today(core: Core) -> date:
    return core.now().astimezone(ZoneInfo(core.settings.timezone)).date()


async def add_tariff(core: Core, code: str, amount: Decimal, valid_from: date, article: str,
                     source: str, by: StaffUserInfo) -> None:
    """A new value for a fee, from `valid_from` on (Dores Art. 9º, II: the Secretaria "definir
    os valores das despesas"; Dracena Art. 7º: keeping costs "na seguinte base").

    A new value is a new dated row, never an edit: values already in force stay, and a value
    may not start before today, so fees already charged are never rewritten."""
    seeds = {t.code: t for t in core.law.tariffs}
    if code not in seeds:
        raise InvalidInput("Tarifa desconhecida para esta lei.", "code")
    if amount <= 0:
        raise InvalidInput("O valor precisa ser maior que zero.", "amount")
    if valid_from < _today(core):
        raise InvalidInput("Um novo valor não pode valer para datas passadas: as taxas já "
                           f"cobradas não mudam. Use {fmt_date(_today(core))} ou uma data futura.",
                           "valid_from")
    if not article.strip() or not source.strip():
        raise InvalidInput("Informe o artigo e o ato (fonte legal) que fixou o novo valor.",
                           "source" if article.strip() else "article")
    async with core.db.unit_of_work() as s:
        clash = (await s.execute(select(Tariff.id).where(
            Tariff.municipality == core.law.slug, Tariff.code == code,
            Tariff.valid_from == valid_from))).first()
        if clash:
            raise InvalidInput("Já existe um valor desta tarifa a partir de "
                               f"{fmt_date(valid_from)}.", "valid_from")
        s.add(Tariff(municipality=core.law.slug, code=code, amount=amount, currency="BRL",
                     unit=seeds[code].unit, valid_from=valid_from, article=article.strip(),
                     source=source.strip(), created_by=by.username, created_at=core.now()))
    core.invalidate()


async def list_closures(core: Core) -> list[Closure]:
    """The city's registered closures (municipal holidays, decreed closures), by date."""
    async with core.db.read() as s:
        return list((await s.execute(select(Closure).where(
            Closure.municipality == core.law.slug).order_by(Closure.date))).scalars().all())


async def add_closure(core: Core, day: date, name: str, kind: str, source: str,
                      by: StaffUserInfo) -> list[Recounted]:
    """A municipal holiday, optional point or decreed closure (the legal calendar skips it when
    counting deadlines). Only today or later. Every running deadline that ends that day moves
    to the next business day (Lei 9.784/1999, art. 66, § 1º), in the same transaction: the
    timeline records it and the owner and the inspector are told (core.services
    .deadline_recount). Returns the deadlines moved."""
    if kind not in CLOSURE_KINDS:
        raise InvalidInput("Tipo de fechamento inválido.")
    if day < _today(core):
        raise InvalidInput("Não é possível cadastrar fechamento em data passada: os prazos que "
                           "já venceram não são reabertos.")
    if not name.strip() or not source.strip():
        raise InvalidInput("Informe o nome e o ato (decreto, lei) do fechamento.")
    async with core.db.unit_of_work() as s:
        if (await s.execute(select(Closure.id).where(Closure.municipality == core.law.slug,
                                                     Closure.date == day))).first():
            raise InvalidInput(f"Já há um fechamento cadastrado em {fmt_date(day)}.")
        s.add(Closure(municipality=core.law.slug, date=day, name=name.strip(), kind=kind,
                      source=f"{source.strip()} (cadastrado por {by.username})"))
        await s.flush()
        moved = await recount_for_closure(core, s, day)
    core.invalidate()
    return moved


async def remove_closure(core: Core, closure_id: int, by: StaffUserInfo) -> None:
    """Remove a future closure (a past one already shaped counted deadlines). The deadlines it
    already extended keep their later date: a recount never shortens a deadline the owner was
    told (core.services.cases.deadline_recount)."""
    async with core.db.unit_of_work() as s:
        row = await s.get(Closure, closure_id)
        if row is None or row.municipality != core.law.slug:
            raise NotFound("Fechamento não encontrado.")
        if row.date <= _today(core):
            raise InvalidInput("Fechamentos de hoje ou de datas passadas não podem ser removidos.")
        await s.delete(row)
    core.invalidate()


# -- case steps the plain transition form does not cover ------------------------------------

async def close_as_duplicate(core: Core, ref: str, original_ref: str, reason: str,
                             by: StaffUserInfo) -> TransitionResult:
    """Close a report as a duplicate of another case and merge it there: its followers follow
    the original, and its photos become a supporting report of the original."""
    async with core.db.unit_of_work() as s:
        case = await load_case(s, ref, for_update=True)
        try:
            original = await load_case(s, original_ref.strip())
        except NotFound:
            raise InvalidInput(f"Caso original “{original_ref}” não encontrado.") from None
        if original.id == case.id:
            raise InvalidInput("Um caso não pode ser duplicado de si mesmo.")
        if not original.is_open:
            raise InvalidInput(f"O caso original {original.protocol} já está encerrado.")
        text = reason.strip() or f"Esta ocorrência já é acompanhada no protocolo {original.protocol}."
        result = await apply_transition(core, case.id, "close_duplicate", by.actor(),
                                        {"duplicate_of": original.protocol, "reason": text},
                                        session=s)
        followers = (await s.execute(select(Subscription).where(
            Subscription.case_id == case.id))).scalars().all()
        already = set((await s.execute(select(Subscription.person_id).where(
            Subscription.case_id == original.id))).scalars().all())
        for sub in followers:
            if sub.person_id not in already:
                s.add(Subscription(person_id=sub.person_id, case_id=original.id,
                                   notify=sub.notify))
        photos = list((await s.execute(select(Evidence.sha256).where(
            Evidence.case_id == case.id).order_by(Evidence.id))).scalars().all())
        s.add(SupportingReport(case_id=original.id, person_id=case.reporter_id,
                               created_at=core.now(), photos=photos,
                               note=f"Denúncia {case.protocol} incorporada (duplicada)."))
        await append_event(s, original, by.actor(), "merge_duplicate", None,
                           {"duplicate": case.protocol, "photos": photos}, public=False,
                           at=core.now())
        return result


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
    if published_on > _today(core):
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
        case = await load_case(s, ref, for_update=True)
        if not case.is_open:
            raise InvalidInput(f"O caso {case.protocol} está encerrado.")
        details = dict(case.details or {})
        details["facts"] = {**details.get("facts", {}), "auction_edital_at": iso,
                            "auction_edital_reference": reference.strip()}
        case.details = details
        await append_event(s, case, by.actor(), "auction_edital", auction_edital_article(core),
                           {"auction_edital_at": iso, "auction_edital_reference": reference},
                           at=core.now())


# -- reports from other channels --------------------------------------------------------------

async def submit_external_report(core: Core, report: ReportIn, channel: str = "Open311"
                                 ) -> Submitted:
    """A report from an Open311 client: a reporter without Telegram (no chat, so nobody is
    subscribed to its updates and no message is queued for it)."""
    return await submit_report(core, None, report, display_name=channel)

