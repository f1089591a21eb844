"""The city's numbers: the panel's indicators over the cases reported in a period (and,
optionally, one neighbourhood). Reads only.

The counts (cases per month and category, open cases by state, outcomes, the reporters'
answers, depot entries and exits) are sums of the tallies the database keeps (core.storage
.tallies, migration 0021): a few rows per day, whatever the number of cases. The overdue
count reads the due index. The durations (report → inspection, notification, removal,
closure) are percentiles computed in Python over a bounded sample: the SAMPLE most recent
cases of each category in the period, with their timeline events.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import func, select

from core.fees import TariffNotFound
from core.services.context import Core
from core.services.staff.common import day_bounds, today
from core.services.cases.fee_statement import case_statement, collected_at
from core.storage.models import Case, Event
from core.storage.tallies import case_counts, event_counts

SAMPLE = 500  # cases per category for the durations
FEE_CAP = 100  # depot exits whose fees are computed (beyond it the figure says "parcial")
MAX_MONTHS = 36
MILESTONES = ("inspection", "notification", "removal", "closure")
MILESTONE_LABELS = {"inspection": "até a vistoria", "notification": "até a notificação",
                    "removal": "até a remoção", "closure": "até o encerramento"}
OUTCOME_LABELS = {"owner": "Resolvido pelo proprietário", "removed": "Removido pela prefeitura",
                  "auctioned": "Leiloado", "other": "Outros encerramentos"}
#: The reporter asked after the closing whether the object is gone (core.services.citizens
#: .followup): the answers, and the questions still without one.
FOLLOWUP_LABELS = {"gone": "Confirmou que o objeto saiu", "there": "Informou que continua no "
                   "local (vistoria reaberta)", "silent": "Não respondeu"}


@dataclass(frozen=True)
class Period:
    start: date  # first day, local
    end: date  # last day, local (inclusive)
    neighbourhood: str | None = None

    def months(self) -> list[date]:
        out, m = [], self.start.replace(day=1)
        while m <= self.end:
            out.append(m)
            m = (m + timedelta(days=32)).replace(day=1)
        return out


def default_period(core: Core) -> Period:
    end = today(core)
    start = (end.replace(day=1) - timedelta(days=330)).replace(day=1)
    return Period(start, end)


def check_period(start: date | None, end: date | None, core: Core,
                 neighbourhood: str | None = None) -> tuple[Period | None, str | None]:
    """(period, None) or (None, a Portuguese reason): end after start, at most MAX_MONTHS."""
    d = default_period(core)
    p = Period(start or (d.start if end is None else (end.replace(day=1) - timedelta(days=330))
                         .replace(day=1)), end or d.end, neighbourhood or None)
    if p.end < p.start:
        return None, "A data final é anterior à data inicial. Corrija o período."
    if len(p.months()) > MAX_MONTHS:
        return None, f"Escolha um período de até {MAX_MONTHS} meses."
    return p, None


@dataclass
class Indicators:
    period: Period
    months: list[date]
    categories: list[tuple[str, str]]  # (code, label)
    per_month: dict[str, list[int]]  # category → count per month
    open_by_state: list[tuple[str, int]]  # (label, count)
    durations: dict[str, dict[str, tuple[float, float, int] | None]]  # cat → milestone → p50,p90,n
    sampled: bool
    outcomes: list[tuple[str, int]]  # (label, count)
    depot: list[tuple[int, int, int]]  # per month: entries, exits, in the depot at its end
    fees: list[Decimal]  # per month
    fees_partial: bool
    overdue: list[tuple[str, int]]  # (deadline description, open cases past it)
    followups: list[tuple[str, int]] = field(default_factory=list)  # (answer, cases)


def _bounds(core: Core, first: date, last: date) -> tuple[datetime, datetime]:
    return day_bounds(core, first)[0], day_bounds(core, last)[1]


def _month_bounds(core: Core, p: Period) -> list[tuple[datetime, datetime]]:
    out = []
    for m in p.months():
        nxt = (m + timedelta(days=32)).replace(day=1)
        out.append(_bounds(core, max(m, p.start), min(nxt - timedelta(days=1), p.end)))
    return out


def depot_actions(core: Core) -> tuple[set[str], set[str]]:
    """Transition codes that bring an object into the depot and take it out, by the law's
    states (State.in_depot), in every track."""
    entries, exits = set(), set()
    for lc in core.law.tracks.values():
        for t in lc.transitions.values():
            to_depot = lc.states[t.target].in_depot
            from_depot = [lc.states[s].in_depot for s in t.sources]
            if to_depot and not all(from_depot):
                entries.add(t.code)
            if not to_depot and any(from_depot):
                exits.add(t.code)
    return entries, exits


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(-(-p * len(ordered) // 100)) - 1))
    return ordered[k]


def _nb(core: Core, p: Period) -> list:
    """The period's cases: the Core's city's (no city sees another's), in the neighbourhood."""
    here = [Case.municipality == core.municipality]
    return [*here, Case.neighbourhood == p.neighbourhood] if p.neighbourhood else here


async def per_month(core: Core, s, p: Period) -> dict[str, list[int]]:
    """Cases reported per month, per category (the case tallies)."""
    bounds = _month_bounds(core, p)
    n = await case_counts(s, core.municipality, bounds, "category", p.neighbourhood)
    return {c.code: [n[(i, c.code)] for i in range(len(bounds))]
            for c in core.law.categories.values()}


async def by_state(core: Core, s, p: Period):
    """(open cases by state, closed cases by outcome) for the cases reported in the period."""
    states: dict[str, tuple[str, bool]] = {}
    for lc in core.law.tracks.values():
        for st in lc.states.values():
            states.setdefault(st.code, (st.label, st.final))
    counts = await case_counts(s, core.municipality, [_bounds(core, p.start, p.end)],
                               "state", p.neighbourhood)
    n = {code: counts[(0, code)] for code in states}
    open_by_state = sorted(((states[c][0], k) for c, k in n.items() if k and not states[c][1]),
                           key=lambda x: -x[1])
    out_n = {k: 0 for k in OUTCOME_LABELS}
    for code, k in n.items():
        if states[code][1]:
            out_n[core.law.outcomes.get(code, "other")] += k
    return open_by_state, [(OUTCOME_LABELS[k], v) for k, v in out_n.items()]


async def overdue(core: Core, s, p: Period) -> list[tuple[str, int]]:
    """Open cases whose deadline has passed with nothing done, by deadline (the due index)."""
    lo, hi = _bounds(core, p.start, p.end)
    rows = (await s.execute(
        select(Case.next_deadline_kind, func.count()).where(
            Case.next_deadline_at.is_not(None), Case.next_deadline_at < core.now(),
            Case.is_open, Case.created_at >= lo, Case.created_at < hi, *_nb(core, p))
        .group_by(Case.next_deadline_kind))).all()
    return sorted(((k or "prazo", n) for k, n in rows), key=lambda x: -x[1])


async def durations(core: Core, s, p: Period):
    lo, hi = _bounds(core, p.start, p.end)
    cats = [(c.code, c.label) for c in core.law.categories.values()]
    return await _durations(core, s, p, lo, hi, cats)


async def depot(core: Core, s, p: Period):
    return await _depot(core, s, p, _month_bounds(core, p))


async def followups(core: Core, s, p: Period) -> list[tuple[str, int]]:
    """Of the cases reported in the period whose reporter was asked after the closing: how
    many confirmed the object gone, said it was still there (the reopen step, also when staff
    recorded an answer given by phone), or have not answered (Case.followup, tallied)."""
    n = await case_counts(s, core.municipality, [_bounds(core, p.start, p.end)],
                          "followup", p.neighbourhood)
    return [(FOLLOWUP_LABELS["gone"], n[(0, "gone")]),
            (FOLLOWUP_LABELS["there"], n[(0, "there")]),
            (FOLLOWUP_LABELS["silent"], n[(0, "asked")])]


#: Each chart's query, by name (the benchmark times them one by one).
PARTS = {"per_month": per_month, "by_state": by_state, "durations": durations,
         "depot": depot, "overdue": overdue, "followups": followups}


async def compute(core: Core, p: Period) -> Indicators:
    async with core.db.read() as s:
        months = await per_month(core, s, p)
        open_by_state, outcomes = await by_state(core, s, p)
        dur, sampled = await durations(core, s, p)
        stock, fees, partial = await depot(core, s, p)
        late = await overdue(core, s, p)
        answers = await followups(core, s, p)
    cats = [(c.code, c.label) for c in core.law.categories.values()]
    return Indicators(p, p.months(), cats, months, open_by_state, dur, sampled, outcomes,
                      stock, fees, partial, late, answers)


async def _durations(core, s, p: Period, lo, hi, cats):
    """Days from the report to each milestone, per category: (p50, p90, n) or None."""
    ms = core.law.milestones
    actions = set().union(*ms.values()) if ms else set()
    nb = _nb(core, p)
    out, sampled = {}, False
    for code, _ in cats:
        rows = (await s.execute(
            select(Case.id, Case.created_at, Case.closed_at)
            .where(Case.category == code, Case.created_at >= lo, Case.created_at < hi, *nb)
            .order_by(Case.created_at.desc(), Case.id.desc()).limit(SAMPLE + 1))).all()
        sampled = sampled or len(rows) > SAMPLE
        rows = rows[:SAMPLE]
        firsts: dict[tuple[int, str], datetime] = {}
        ids = [r.id for r in rows]
        for i in range(0, len(ids), 500):
            for case_id, action, at in (await s.execute(
                    select(Event.case_id, Event.action, func.min(Event.at))
                    .where(Event.case_id.in_(ids[i:i + 500]), Event.action.in_(actions))
                    .group_by(Event.case_id, Event.action))).all():
                for m, codes in ms.items():
                    if action in codes:
                        key = (case_id, m)
                        firsts[key] = min(at, firsts.get(key, at))
        days: dict[str, list[float]] = {m: [] for m in MILESTONES}
        for r in rows:
            for m in MILESTONES:
                at = r.closed_at if m == "closure" else firsts.get((r.id, m))
                if at is not None:
                    days[m].append(max(0.0, (at - r.created_at).total_seconds() / 86400))
        out[code] = {m: (percentile(v, 50), percentile(v, 90), len(v)) if v else None
                     for m, v in days.items()}
    return out, sampled


async def _depot(core, s, p: Period, months):
    """Per month: depot entries, exits and objects in the depot at its end; fees charged at
    the exits (the fee statement at the moment the object left, Law.fee_statement), computed
    for at most FEE_CAP exits (beyond them the figure is marked partial)."""
    entries, exits = depot_actions(core)
    nb = _nb(core, p)

    def q(*cols):
        stmt = select(*cols).select_from(Event)
        return stmt.join(Case, Case.id == Event.case_id).where(*nb) if nb else stmt

    lo, hi = months[0][0], months[-1][1]
    moved = entries | exits
    before = await event_counts(s, core.municipality, [(None, lo)], moved, p.neighbourhood)
    stock = sum(n if a in entries else -n for (_, a), n in before.items())
    steps = await event_counts(s, core.municipality, months, moved, p.neighbourhood)
    moves = Counter()
    for (i, a), n in steps.items():
        moves[(a in entries, i)] += n
    fees = [Decimal(0)] * len(months)
    rows = (await s.execute(
        q(Event.case_id, Event.at).where(Event.action.in_(exits), Event.at >= lo,
                                         Event.at < hi)
        .order_by(Event.at.desc()).limit(FEE_CAP + 1))).all()
    partial = len(rows) > FEE_CAP
    cases = {c.id: c for c in (await s.execute(select(Case).where(
        Case.id.in_({r.case_id for r in rows[:FEE_CAP]})))).scalars()} if rows else {}
    entered = dict((await s.execute(
        select(Event.case_id, func.max(Event.at))
        .where(Event.case_id.in_(list(cases)), Event.action.in_(entries))
        .group_by(Event.case_id))).all()) if cases else {}
    for case_id, at in rows[:FEE_CAP]:
        i = next(k for k, (_, b) in enumerate(months) if at < b)
        fees[i] += await _charged(core, cases[case_id], entered.get(case_id), at)
    depot = []
    for i in range(len(months)):
        e_in, e_out = moves.get((True, i), 0), moves.get((False, i), 0)
        stock += e_in - e_out
        depot.append((e_in, e_out, max(0, stock)))
    return depot, fees, partial


async def _charged(core: Core, case: Case, entered: datetime | None,
                   left: datetime) -> Decimal:
    collected = collected_at(core, case, entered)
    if collected is None:
        return Decimal(0)
    try:
        return (await case_statement(core, case, collected, left)).total
    except (TariffNotFound, ValueError):  # a missing tariff: nothing counted on this exit
        return Decimal(0)
