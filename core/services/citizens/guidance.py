"""What the citizen is told while reporting: the abandonment signs they can tick and the
steps ahead once the report is in. Derived from the law module, never written in the bot."""
from __future__ import annotations

from core.laws.base import Criterion, Law
from core.lifecycle import Actor, Transition

def citizen_signs(law: Law, category: str) -> tuple[Criterion, ...]:
    """Signs offered as toggle buttons for `category`: the law module decides which it lists
    for citizens (empty when it lists none)."""
    if category not in law.categories or law.citizen_signs is None:
        return ()
    codes = set(law.citizen_signs(category))
    return tuple(c for c in law.criteria if c.code in codes)


def next_steps(law: Law, category: str, limit: int = 5) -> tuple[str, ...]:
    """Plain-words steps ahead for a new report: the law module's own text when it has one,
    else the usual path through the category's lifecycle (system and staff moves first, then
    the steps that start a legal deadline), with each deadline and its article."""
    cat = law.categories[category]
    written = law.next_steps.get(cat.track)
    if written:
        return tuple(written)
    lc = law.tracks[cat.track]
    state, seen, steps = lc.initial, {lc.initial}, []
    while len(steps) < limit:
        options = [t for t in lc.transitions.values()
                   if state in t.sources and t.public and t.target not in seen
                   and not lc.state(t.target).final and Actor.OWNER not in t.actors]
        if not options:
            break
        t = min(options, key=_preference)
        steps.append(_describe(t))
        state = t.target
        seen.add(state)
        if lc.state(state).in_depot:
            break
    return tuple(steps)


def _preference(t: Transition) -> int:
    if Actor.SYSTEM in t.actors:
        return 0
    if t.deadline is not None:
        return 1
    return 2


def _describe(t: Transition) -> str:
    if t.deadline is None:
        return f"{t.label} ({t.article})."
    d = t.deadline
    unit = "dias" if d.unit == "days" else "horas"
    return f"{t.label}: {d.description} — prazo de {d.amount} {unit} ({d.article})."
