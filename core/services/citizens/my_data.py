"""A citizen's rights over their data in the bot (LGPD, Lei 13.709/2018, art. 18): /meusdados
shows every personal datum the system keeps about their Telegram account (art. 18, II, and
art. 19: at once, in simplified form), and they may ask for the deletion of what no legal duty
keeps (art. 18, VI; art. 16).

What is deleted, and what is kept with the reason said:
- kept: each report of a case still open (it is part of an administrative process under the
  city's law: LGPD art. 7º, III, and art. 16, I), an owner's data recorded by the city in any
  case (they are on the process's documents), an inspector's registration (their work), the
  case's hash-chained history (it names a person only by an internal number) and, for closed
  cases, the case record itself (photos, place, what was reported) until the archive period
  ends (core.services.cases.retention) — but no longer tied to them;
- deleted: their tie to closed cases (reporter, supporter, uploader, follower, owner link),
  the contact they gave for closed cases, the text of the messages already delivered to them,
  a report being drafted, the name from their Telegram profile, and the account's record
  itself when nothing above still needs it.

Every request and the answer given, word for word, are recorded (`DataRequest`, by Telegram
id, so the record outlives the deletion: the city must be able to show it answered) and listed
to the panel's staff.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import fmt_date, fmt_datetime
from core.services.context import Core
from core.services.staff.common import state_label
from core.storage.models import (Case, CaseOwner, ConversationState, Evidence, Inspector,
                                 InviteCode, OutboxMessage, OwnerLink, Person, Subscription,
                                 SupportingReport)
from core.storage.models_lgpd import DataRequest
from core.storage.models_whatsapp import WhatsAppChat
from core.storage.timeline import ActorRef, append_event

ACCESS, DELETION = "access", "deletion"
ANSWERED, PARTIAL = "answered", "partial"
LABELS = {ACCESS: "Acesso aos dados (art. 18, II)", DELETION: "Eliminação (art. 18, VI)",
          ANSWERED: "Atendido", PARTIAL: "Atendido em parte (a lei manda guardar o resto)"}
#: What a deletion removed, as the panel's list names it.
REMOVED = {"messages": "textos de mensagens", "draft": "rascunho", "reports": "vínculos de "
           "denunciante", "supports": "apoios", "follows": "acompanhamentos",
           "owner_links": "acessos de responsável", "contacts": "contatos",
           "name": "nome do perfil", "account": "conta"}
ERASED_PAYLOAD = {"erased": "LGPD art. 18, VI"}
MESSAGES_SHOWN = 10
#: The choices under /meusdados's answer and the deletion's preview, and the answer to "Não".
ASK_DELETION = "🗑️ Pedir a eliminação dos meus dados"
CONFIRM_DELETION = "Confirma a eliminação?"
CONFIRM, KEEP = "Sim, eliminar", "Não, manter"
KEPT = "Tudo bem: nada foi apagado. Seus dados continuam como estavam."
CHUNK = 3500  # a Telegram message holds 4096 characters


# -- whose data --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Account:
    """The person asking, as their channel knows them: a Telegram id, or a WhatsApp number.
    A request is recorded by it (DataRequest.telegram_id holds the chat's id on its channel,
    details["channel"] says which), so the record outlives the person's row."""
    channel: str  # "telegram" / "whatsapp" (core.storage.outbox's channels)
    id: int | str

    @classmethod
    def whatsapp(cls, wa_id: str) -> Account:
        return cls("whatsapp", wa_id)

    @property
    def chat_id(self) -> int:
        return int(self.id)

    @property
    def platform(self) -> str:
        return "WhatsApp" if self.channel == "whatsapp" else "Telegram"

    @property
    def identity(self) -> str:
        """"seu identificador do Telegram" / "seu número de WhatsApp"."""
        return ("seu número de WhatsApp" if self.channel == "whatsapp"
                else "seu identificador do Telegram")

    def of_person(self):
        return (Person.whatsapp_id == str(self.id) if self.channel == "whatsapp"
                else Person.telegram_id == self.chat_id)


def _account(who: int | Account) -> Account:
    return who if isinstance(who, Account) else Account("telegram", who)


async def _draft(s: AsyncSession, acc: Account) -> Any:
    """The report being written in the person's chat (None: none)."""
    if acc.channel == "whatsapp":
        chat = await s.get(WhatsAppChat, str(acc.id))
        return chat if chat is not None and chat.state != "idle" else None
    return await s.get(ConversationState, acc.chat_id)


def masked(row_id: int, channel: str | None) -> str:
    """How the panel names the requester: a Telegram id as it is; a WhatsApp number masked
    (core.services.messaging.delivery.masked_number)."""
    if channel == "whatsapp":
        from core.services.messaging.delivery import masked_number
        return f"WhatsApp {masked_number(row_id)}"
    return str(row_id)


# -- what is kept -----------------------------------------------------------------------------

@dataclass
class MyData:
    lines: list[str] = field(default_factory=list)

    def add(self, title: str, items: list[str]) -> None:
        if items:
            self.lines += ["", title, *[f"• {i}" for i in items]]


def _case_line(core: Core, c: Case, photos: int) -> str:
    core = core.for_case(c)  # the case's own city and law
    cat = core.law.categories.get(c.category)
    where = f" em {core.city.label}" if core.many_cities else ""
    parts = [f"{c.protocol} — {cat.label if cat else c.category}{where}, de "
             f"{fmt_date(c.created_at)}",
             "em andamento" if c.is_open else f"encerrado ({state_label(core, c.track, c.state)})"]
    if c.address:
        parts.append(f"local: {c.address}")
    if c.plate:
        parts.append(f"placa informada: {c.plate}")
    if c.description:
        parts.append(f"descrição: {c.description[:200]}")
    parts.append("1 foto" if photos == 1 else f"{photos} fotos")
    return "; ".join(parts)


async def _person(s: AsyncSession, acc: Account) -> Person | None:
    return (await s.execute(select(Person).where(acc.of_person()))).scalar_one_or_none()


async def collect(core: Core, s: AsyncSession, who: int | Account) -> MyData:
    """Everything kept about this account (Telegram or WhatsApp), in plain words."""
    acc = _account(who)
    out = MyData([f"Seus dados guardados {_keepers(core)} (LGPD, Lei 13.709/2018, art. 18, "
                  "II):"])
    person = await _person(s, acc)
    draft = await _draft(s, acc)
    messages = (await s.execute(select(OutboxMessage).where(
        OutboxMessage.channel == acc.channel, OutboxMessage.chat_id == acc.chat_id)
        .order_by(OutboxMessage.id.desc()))).scalars().all()
    if person is None and draft is None and not messages:
        out.lines.append(f"Nenhum dado pessoal seu está guardado (além de {acc.identity}, "
                         "que recebemos a cada mensagem e não guardamos).")
        return out
    number = "número de WhatsApp" if acc.channel == "whatsapp" else "identificador do Telegram"
    out.add("Cadastro:", [f"{number}: {acc.id}"]
            + ([f"nome do seu perfil do {acc.platform}: {person.display_name}"]
               if person and person.display_name else [])
            + ([f"primeiro contato: {fmt_date(person.created_at)}"] if person else []))
    if person is not None:
        reported = (await s.execute(select(Case).where(Case.reporter_id == person.id)
                                    .order_by(Case.id))).scalars().all()
        photos = dict((await s.execute(select(Evidence.case_id, func.count()).where(
            Evidence.uploaded_by == person.id).group_by(Evidence.case_id))).all())
        out.add("Suas denúncias:", [_case_line(core, c, photos.get(c.id, 0)) for c in reported])
        supports = (await s.execute(select(SupportingReport, Case.protocol).join(
            Case, Case.id == SupportingReport.case_id).where(
            SupportingReport.person_id == person.id))).all()
        out.add("Apoios a denúncias de outras pessoas (“É este”):", [
            f"{p} em {fmt_date(r.created_at)}" + (f"; observação: {r.note[:200]}" if r.note
                                                  else "") for r, p in supports])
        follows = (await s.execute(select(Case.protocol, Subscription.notify).join(
            Case, Case.id == Subscription.case_id).where(Subscription.person_id == person.id)
            .order_by(Case.id))).all()
        out.add("Casos que você acompanha (avisos):", [
            f"{p}: avisos {'ligados' if on else 'desligados'}" for p, on in follows])
        owned = (await s.execute(select(CaseOwner, Case.protocol).join(
            Case, Case.id == CaseOwner.case_id).where(CaseOwner.person_id == person.id))).all()
        links = (await s.execute(select(Case.protocol).join(
            OwnerLink, OwnerLink.case_id == Case.id).where(OwnerLink.person_id == person.id))
                 ).scalars().all()
        out.add("Como proprietário(a) ou responsável:", [
            f"{p}: " + "; ".join(x for x in (
                f"nome: {o.owner_name}" if o.owner_name else "",
                f"CPF/CNPJ: {o.owner_cpf}" if o.owner_cpf else "",
                f"contato: {o.owner_contact}" if o.owner_contact else "") if x)
            for o, p in owned] + [f"{p}: acesso pelo código do caso" for p in links])
        inspector = (await s.execute(select(Inspector).where(
            Inspector.person_id == person.id))).scalar_one_or_none()
        if inspector is not None:
            out.add("Cadastro de fiscal:", [f"{inspector.name}, {inspector.agency}"
                                            + (f", matrícula {inspector.registration}"
                                               if inspector.registration else "")])
    if draft is not None and draft.state != "idle":
        out.add("Em andamento:", ["uma denúncia ainda não enviada (rascunho)"])
    if messages:
        shown = [f"{fmt_datetime(m.created_at)}: " + _message_text(m) for m in
                 messages[:MESSAGES_SHOWN]]
        more = len(messages) - MESSAGES_SHOWN
        out.add(f"Mensagens que o sistema enviou a você ({len(messages)}"
                + (f"; as {MESSAGES_SHOWN} mais recentes" if more > 0 else "") + "):", shown)
    out.lines += ["", "O histórico de cada caso registra quem fez cada passo só por um número "
                  "interno. Para pedir a eliminação do que a lei não manda guardar, use o "
                  "botão abaixo."]
    return out


def _keepers(core: Core) -> str:
    """Who keeps the data: the city's prefeitura, or every city's the installation serves."""
    if core.many_cities:
        return f"pelas Prefeituras de {core.cities_named()}"
    return f"pela Prefeitura de {core.city.name}"


def _message_text(m: OutboxMessage) -> str:
    if m.payload.get("erased"):
        return "(texto apagado a seu pedido)"
    text = " ".join(str(m.payload.get("text") or m.kind).split())
    return text[:160] + ("…" if len(text) > 160 else "")


def chunks(lines: list[str], size: int = CHUNK) -> list[str]:
    """The lines as messages of at most `size` characters, cut between lines."""
    out, cur = [], ""
    for line in lines:
        line = line[:size]
        if cur and len(cur) + len(line) + 1 > size:
            out.append(cur)
            cur = ""
        cur = f"{cur}\n{line}" if cur else line
    return out + ([cur] if cur.strip() else [])


async def cities_of(s: AsyncSession, who: int | Account) -> list[str]:
    """The cities whose records hold the person (reporter, supporter, owner, inspector): a
    request's answer, which shows those records, is shown in the panel to those cities'
    staff only (no city sees another's)."""
    person = select(Person.id).where(_account(who).of_person()).scalar_subquery()
    found: set[str] = set()
    for link in (Case.reporter_id == person,
                 Case.id.in_(select(SupportingReport.case_id)
                             .where(SupportingReport.person_id == person)),
                 Case.id.in_(select(OwnerLink.case_id).where(OwnerLink.person_id == person)),
                 Case.id.in_(select(CaseOwner.case_id).where(CaseOwner.person_id == person))):
        found |= set((await s.execute(select(Case.municipality).where(link).distinct()))
                     .scalars())
    found |= set((await s.execute(select(Inspector.municipality).where(
        Inspector.person_id == person))).scalars())
    return sorted(c for c in found if c)


async def my_data(core: Core, who: int | Account) -> list[str]:
    """/meusdados: the messages that show the data, recorded as an access request."""
    acc = _account(who)
    async with core.db.unit_of_work() as s:
        data = await collect(core, s, acc)
        text = "\n".join(data.lines)
        s.add(DataRequest(telegram_id=acc.chat_id, kind=ACCESS, status=ANSWERED,
                          requested_at=core.now(), answered_at=core.now(), answer=text,
                          details={"cities": await cities_of(s, acc), "channel": acc.channel}))
    return chunks(data.lines)


# -- deletion ---------------------------------------------------------------------------------

@dataclass
class Erasure:
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    #: something still tied to the person is kept (not only the archive's case records)
    partial: bool = False

    def count(self, key: str, n: int | None, text: str) -> None:
        """`text` with {n} and singular|plural choices ("{caso|casos}") for `n`."""
        if n:
            self.counts[key] = self.counts.get(key, 0) + n
            self.removed.append(re.sub(r"\{([^{}|]*)\|([^{}|]*)\}",
                                       lambda m: m.group(1 if n == 1 else 2),
                                       text.replace("{n}", str(n))))


async def _plan(core: Core, s: AsyncSession, acc: Account, apply: bool) -> Erasure:
    """What deletion removes and keeps (and, with `apply`, does it in the session)."""
    e = Erasure()
    person = await _person(s, acc)
    # delivered messages: their text goes, the row stays (its dedupe key keeps it from being
    # sent again); those still to be delivered are left to go out
    sent = [i for i, payload in (await s.execute(select(OutboxMessage.id, OutboxMessage.payload)
                                                 .where(OutboxMessage.chat_id == acc.chat_id,
                                                        OutboxMessage.channel == acc.channel,
                                                        OutboxMessage.status == "sent"))).all()
            if not (payload or {}).get("erased")]
    if apply and sent:
        await s.execute(update(OutboxMessage).where(OutboxMessage.id.in_(sent)).values(
            payload=ERASED_PAYLOAD).execution_options(synchronize_session=False))
    e.count("messages", len(sent), "o texto {da mensagem já entregue|das {n} mensagens já entregues} a você")
    draft = await _draft(s, acc)
    if draft is not None:
        e.count("draft", 1, "a denúncia que você estava escrevendo (rascunho)")
        if apply:
            await s.delete(draft)
    if person is None:
        return e
    closed = select(Case.id).where(Case.is_open.is_not(True))
    reported = (await s.execute(select(Case).where(Case.reporter_id == person.id))).scalars().all()
    open_ = [c for c in reported if c.is_open]
    done = [c for c in reported if not c.is_open]
    e.partial = bool(open_)
    for c in open_:
        law = core.for_case(c).law.short  # the case's own city's law
        e.kept.append(f"sua denúncia {c.protocol}, em andamento: faz parte de um processo "
                      f"administrativo ({law}; LGPD art. 7º, III, e art. 16, I). Quando o caso "
                      "terminar, você pode pedir de novo.")
    for c in done:
        until = (await s.scalar(select(func.max(Evidence.retain_until)).where(
            Evidence.case_id == c.id)))
        e.kept.append(f"o registro do caso {c.protocol} (fotos, local e o que foi "
                      "denunciado), encerrado, fica no arquivo da prefeitura"
                      + (f" até {fmt_date(until)}" if until else "")
                      + " (LGPD art. 16, I), mas sem o vínculo com você")
    e.count("reports", len(done), "o seu vínculo, como denunciante, com {n} {caso encerrado|casos encerrados}")
    n_support = await s.scalar(select(func.count()).select_from(SupportingReport).where(
        SupportingReport.person_id == person.id, SupportingReport.case_id.in_(closed)))
    e.count("supports", n_support, "o seu vínculo com {n} {apoio|apoios} a casos encerrados")
    n_follow = await s.scalar(select(func.count()).select_from(Subscription).where(
        Subscription.person_id == person.id, Subscription.case_id.in_(closed)))
    e.count("follows", n_follow, "o acompanhamento (avisos) de {n} {caso encerrado|casos encerrados}")
    n_links = await s.scalar(select(func.count()).select_from(OwnerLink).where(
        OwnerLink.person_id == person.id, OwnerLink.case_id.in_(closed)))
    e.count("owner_links", n_links, "o seu acesso como responsável a {n} {caso encerrado|casos encerrados}")
    owned = (await s.execute(select(CaseOwner, Case.is_open, Case.protocol).join(
        Case, Case.id == CaseOwner.case_id).where(CaseOwner.person_id == person.id))).all()
    contacts = [o for o, is_open, _ in owned if not is_open and o.owner_contact]
    e.count("contacts", len(contacts), "o contato que você deu em {n} {caso encerrado|casos encerrados}")
    e.partial = e.partial or bool(owned)
    for o, is_open, protocol in owned:
        e.kept.append(f"seus dados de proprietário(a)/responsável no caso {protocol} (nome e "
                      "CPF/CNPJ constam dos documentos do processo: LGPD art. 16, I)"
                      + ("; o contato também, enquanto o caso estiver em andamento"
                         if is_open and o.owner_contact else ""))
    inspector = await s.scalar(select(func.count()).select_from(Inspector).where(
        Inspector.person_id == person.id))
    if inspector:
        e.partial = True
        e.kept.append("seu cadastro de fiscal da prefeitura (vínculo de trabalho)")
    if person.display_name:
        e.count("name", 1, f"o nome do seu perfil do {acc.platform}")
    needed = await _still_needed(s, person.id)
    if needed:
        e.partial = True
        e.kept.append(f"{acc.identity}, enquanto houver caso em andamento ligado a você")
    else:
        e.count("account", 1, f"o registro da sua conta ({acc.identity.removeprefix('seu ')})")
    if not apply:
        return e
    actor = ActorRef("system", None, "Sistema (LGPD)")
    for c in done:
        c.reporter_id = None
        await append_event(s, c.id, actor, "lgpd_unlinked", "LGPD art. 18, VI",
                           {"removed": "vínculo com o denunciante"}, public=False,
                           at=core.now())
    for stmt in (
            update(SupportingReport).where(SupportingReport.person_id == person.id,
                                           SupportingReport.case_id.in_(closed))
            .values(person_id=None),
            update(Evidence).where(Evidence.uploaded_by == person.id,
                                   Evidence.case_id.in_(closed)).values(uploaded_by=None),
            delete(Subscription).where(Subscription.person_id == person.id,
                                       Subscription.case_id.in_(closed)),
            delete(OwnerLink).where(OwnerLink.person_id == person.id,
                                    OwnerLink.case_id.in_(closed)),
            update(CaseOwner).where(CaseOwner.person_id == person.id,
                                    CaseOwner.case_id.in_(closed))
            .values(owner_contact=None, person_id=None)):
        await s.execute(stmt.execution_options(synchronize_session=False))
    person.display_name = None
    if not needed:
        await s.flush()
        await s.delete(person)
    return e


async def _still_needed(s: AsyncSession, person_id: int) -> bool:
    """Whether the account's row is still needed once its ties to closed cases are gone: a
    tie to an open case, an inspector's registration or an invite it used. The same answer
    before the deletion (the preview) and after it."""
    open_ = select(Case.id).where(Case.is_open.is_(True))
    for column in (Case.reporter_id, SupportingReport.person_id, Subscription.person_id,
                   OwnerLink.person_id, CaseOwner.person_id, Evidence.uploaded_by):
        case_col = Case.id if column.table is Case.__table__ else column.table.c.case_id
        if await s.scalar(select(func.count()).select_from(column.table).where(
                column == person_id, case_col.in_(open_))):
            return True
    for column in (Inspector.person_id, InviteCode.used_by):
        if await s.scalar(select(func.count()).select_from(column.table).where(
                column == person_id)):
            return True
    return False


def _answer(e: Erasure, done: bool) -> str:
    head = ("Pedido de eliminação atendido (LGPD, art. 18, VI)." if done else
            "Se você pedir a eliminação (LGPD, art. 18, VI):")
    lines = [head]
    if e.removed:
        lines += ["", "Apagado:" if done else "Será apagado:", *[f"• {r}" for r in e.removed]]
    else:
        lines += ["", "Não há nada que a lei permita apagar agora."]
    if e.kept:
        lines += ["", "Mantido, porque a lei manda guardar:" if done else
                  "Fica guardado, porque a lei manda:", *[f"• {k}" for k in e.kept]]
    lines += ["", "Este pedido e a resposta ficam registrados, como prova de que foi atendido "
              "(LGPD, art. 37)."]
    return "\n".join(lines)


async def preview_deletion(core: Core, who: int | Account) -> str:
    """What a deletion would remove and keep (nothing is changed)."""
    async with core.db.read() as s:
        return _answer(await _plan(core, s, _account(who), apply=False), done=False)


async def delete_my_data(core: Core, who: int | Account) -> list[str]:
    """Delete what no legal duty keeps, record the request and the answer; the answer's
    messages."""
    now, acc = core.now(), _account(who)
    async with core.db.unit_of_work() as s:
        cities = await cities_of(s, acc)  # before the links it had are deleted
        e = await _plan(core, s, acc, apply=True)
        text = _answer(e, done=True)
        s.add(DataRequest(telegram_id=acc.chat_id, kind=DELETION,
                          status=PARTIAL if e.partial else ANSWERED, requested_at=now,
                          answered_at=now, answer=text,
                          details={"removed": e.counts, "kept": len(e.kept), "cities": cities,
                                   "channel": acc.channel}))
    return chunks(text.split("\n"))


# -- the panel's list -------------------------------------------------------------------------

@dataclass(frozen=True)
class RequestRow:
    id: int
    telegram_id: int
    kind: str
    status: str
    requested_at: datetime
    answered_at: datetime | None
    answer: str
    details: dict[str, Any]

    @property
    def who(self) -> str:
        """The requester as the panel shows them (a WhatsApp number masked)."""
        return masked(self.telegram_id, self.details.get("channel"))


async def requests_list(core: Core, limit: int = 200) -> list[RequestRow]:
    """The data requests the Core's city may read, newest first: those of people its records
    hold (`cities_of`, recorded with each request), and those that named no city (a person
    with no record anywhere, or recorded before the installation served several cities)."""
    out: list[RequestRow] = []
    last = None
    async with core.db.read() as s:
        while len(out) < limit:
            query = select(DataRequest).order_by(DataRequest.id.desc()).limit(limit)
            if last is not None:
                query = query.where(DataRequest.id < last)
            rows = (await s.execute(query)).scalars().all()
            if not rows:
                break
            last = rows[-1].id
            out += [RequestRow(r.id, r.telegram_id, r.kind, r.status, r.requested_at,
                               r.answered_at, r.answer, r.details or {})
                    for r in rows if _may_read(core, r.details or {})]
    return out[:limit]


def _may_read(core: Core, details: dict[str, Any]) -> bool:
    cities = details.get("cities") or []
    return not core.many_cities or not cities or core.municipality in cities
