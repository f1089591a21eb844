"""The case lifecycle as a state machine: law-agnostic engine.

Each law module (core/laws/<slug>.py) declares, per procedure track, its states and its
transitions. A transition names who may take it (actor and, for inspectors, the agencies the
law makes competent), the facts it needs, the article that allows it and the text it
implements, the deadline it starts, and the paper it issues with what the inspector
reviews and photographs around it. The engine refuses anything else with an error that
names what is missing. It does no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Callable, Literal, Mapping


class Actor(StrEnum):
    CITIZEN = "citizen"
    INSPECTOR = "inspector"
    OWNER = "owner"
    STAFF = "staff"
    SYSTEM = "system"  # the deadline sweep


ACTOR_LABELS = {
    Actor.CITIZEN: "cidadão",
    Actor.INSPECTOR: "fiscal",
    Actor.OWNER: "proprietário/responsável",
    Actor.STAFF: "servidor da prefeitura",
    Actor.SYSTEM: "sistema (prazo vencido)",
}


@dataclass(frozen=True)
class State:
    code: str
    label: str  # plain Portuguese, safe to show the public
    final: bool = False
    in_depot: bool = False  # the object is in the municipal depot (fees run)
    in_public_space: bool = False  # the object is still on the street
    #: What anyone without a role (the public map, status page, Open311) reads instead of
    #: `label`; empty: the label itself.
    public_label: str = ""
    #: The state this one looks like to the public, when being known to be in it would
    #: attach a suspicion to an identifiable object (e.g. a police referral): its public
    #: label and citizen text are that state's, and the steps into and out of it are not
    #: shown (Lifecycle.public_state, public_step).
    public_as: str = ""


@dataclass(frozen=True)
class DeadlineRule:
    """A deadline a transition starts. `starts_from` is a fact name holding the date or
    datetime the count starts from, or "event" for the moment of the transition itself."""

    amount: int
    unit: Literal["days", "hours"]
    article: str
    description: str  # Portuguese: what must happen by then
    starts_from: str = "event"
    on_lapse: str | None = None  # transition the sweep takes when it lapses


@dataclass(frozen=True)
class Undo:
    """Taking a step back (declared on the step it undoes, Transition.undo): the case returns
    to the state it was in before the step and to the deadline that was running then, counted
    as it was — neither the step nor its withdrawal extends it (core.services.cases.transitions
    .revert_transition). Allowed only while the case is still where the step left it."""

    code: str  # the timeline event's action, e.g. "owner_withdraws"
    actors: frozenset[Actor]
    article: str
    label: str  # Portuguese label (timeline, panel)
    button: str = ""  # short label for a phone's button (at most BUTTON_MAX characters)


Guard = Callable[[Mapping[str, Any]], "str | None"]
#: The longest button label that fits a phone's screen beside another (Transition.button).
BUTTON_MAX = 24


@dataclass(frozen=True)
class Transition:
    code: str
    sources: frozenset[str]
    target: str
    actors: frozenset[Actor]
    article: str  # e.g. "Art. 4º, II, b"
    text: str  # the text of the law this transition implements
    label: str  # Portuguese label (timeline, panel, the step's heading)
    requires: tuple[str, ...] = ()  # facts that must be present and non-empty
    agencies: frozenset[str] = frozenset()  # inspector agencies allowed; empty = any
    deadline: DeadlineRule | None = None
    guard: Guard | None = None  # returns a Portuguese reason to refuse, or None
    public: bool = True  # shown in the citizen's timeline
    optional: tuple[str, ...] = ()  # facts the step also asks for, not required (e.g. amounts)
    #: (fact, from_fact): a fact not given takes the value of another already on the case
    #: (e.g. the collection moment defaults to the removal's start, Dores Art. 3º).
    defaults: tuple[tuple[str, str], ...] = ()
    #: Short Portuguese label for a phone's button ("Notificar"): an action in a few words
    #: (at most BUTTON_MAX characters); the label and the article go in the message text.
    button: str = ""
    #: How this step may be taken back (return to the previous state and its deadline).
    undo: Undo | None = None
    #: The legal document the step issues, by kind (core.services.papers.kinds: its issuer,
    #: label and button): produced in the step's own transaction, so no deadline starts
    #: without its paper, and issued again on request; "" for a step without a paper.
    document: str = ""
    #: The object's facts the inspector confirms or fills before the step, in this order,
    #: because its document describes the object (e.g. Dores Art. 4º, I: the notification's
    #: "características do veículo"); only these reviewed facts go on official paper.
    reviews: tuple[str, ...] = ()
    #: (fact, extra): an optional fact asked right after one of the step's own (e.g. the
    #: vendor's name after the goods, Dracena Art. 4º, §1º).
    asks_after: tuple[tuple[str, str], ...] = ()
    #: The photos asked right after the step and its document, because they show the
    #: document itself (Dores Art. 4º, II, a: the notice photographed affixed): the fact
    #: they are kept as; "" for none.
    photo_after: str = ""

    def with_defaults(self, given: Mapping[str, Any], known: Mapping[str, Any]
                      ) -> dict[str, Any]:
        """`given` with this step's defaults filled in from `known` (the case's facts)."""
        out = dict(given)
        for fact, source in self.defaults:
            if _empty(out.get(fact)) and not _empty(known.get(source)):
                out[fact] = known[source]
        return out


class TransitionRefused(Exception):
    """An illegal transition. `message` is Portuguese and names what is missing."""

    def __init__(self, message: str, *, missing: tuple[str, ...] = (), code: str = ""):
        super().__init__(message)
        self.message = message
        self.missing = missing
        self.code = code


@dataclass
class Lifecycle:
    track: str
    initial: str
    states: dict[str, State]
    transitions: dict[str, Transition]
    fact_labels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.initial not in self.states:
            raise ValueError(f"{self.track}: unknown initial state {self.initial}")
        for st in self.states.values():
            if st.public_as and (st.public_as not in self.states
                                 or self.states[st.public_as].public_as):
                raise ValueError(f"{self.track}: {st.code} shows as unknown {st.public_as}")
        for t in self.transitions.values():
            for s in (*t.sources, t.target):
                if s not in self.states:
                    raise ValueError(f"{self.track}: transition {t.code} names unknown state {s}")
            if t.deadline and t.deadline.on_lapse and t.deadline.on_lapse not in self.transitions:
                raise ValueError(f"{self.track}: {t.code} lapses into unknown {t.deadline.on_lapse}")
            if t.undo and (t.undo.code in self.transitions or
                           sum(u.undo is not None and u.undo.code == t.undo.code
                               for u in self.transitions.values()) > 1):
                raise ValueError(f"{self.track}: undo code {t.undo.code} is not unique")

    @classmethod
    def build(cls, track: str, initial: str, states: list[State], transitions: list[Transition],
              fact_labels: Mapping[str, str] | None = None) -> "Lifecycle":
        return cls(track, initial, {s.code: s for s in states},
                   {t.code: t for t in transitions}, dict(fact_labels or {}))

    def state(self, code: str) -> State:
        return self.states[code]

    def public_state(self, code: str) -> State:
        """The state the public is shown for `code` (State.public_as), its label already the
        public one (State.public_label)."""
        st = self.states[code]
        if st.public_as:
            st = self.states[st.public_as]
        return replace(st, label=st.public_label or st.label) if st.public_label else st

    def public_step(self, action: str) -> bool:
        """False for a step the public must not see: one into a state that hides behind
        another (State.public_as), or out of such states only; True otherwise."""
        t = self.transitions.get(action)
        if t is None:
            t = self.undoing(action)
            if t is None:
                return True
            hidden = {t.target, *t.sources}
            return not any(self.states[s].public_as for s in hidden)
        return not (self.states[t.target].public_as
                    or all(self.states[s].public_as for s in t.sources))

    def available(self, state: str, actor: Actor | None = None,
                  agency: str | None = None) -> list[Transition]:
        """Transitions that may be taken from `state` (by `actor` of `agency`, if given)."""
        out = []
        for t in self.transitions.values():
            if state not in t.sources:
                continue
            if actor is not None and actor not in t.actors:
                continue
            if actor is Actor.INSPECTOR and t.agencies and agency not in t.agencies:
                continue
            out.append(t)
        return out

    def undoing(self, undo_code: str) -> Transition | None:
        """The step that the undo `undo_code` takes back, if this track declares it."""
        return next((t for t in self.transitions.values()
                     if t.undo is not None and t.undo.code == undo_code), None)

    def step_label(self, action: str) -> str | None:
        """The law's label of a timeline action: a step's or an undo's; None otherwise."""
        t = self.transitions.get(action)
        if t is not None:
            return t.label
        t = self.undoing(action)
        return t.undo.label if t is not None and t.undo is not None else None

    def is_step(self, action: str) -> bool:
        """True for a lifecycle step or the undo of one (they move the case)."""
        return action in self.transitions or self.undoing(action) is not None

    def check_undo(self, state: str, undo_code: str, actor: Actor, *,
                   outdated: bool = False) -> Transition:
        """The step `undo_code` takes back, if `actor` may take it back from `state`;
        TransitionRefused (Portuguese) otherwise. `outdated`: the step was recorded from a
        state this lifecycle no longer takes it from, so the law itself takes it back (any
        actor, the system)."""
        t = self.undoing(undo_code)
        if t is None or t.undo is None:
            raise TransitionRefused(f"Ação desconhecida neste procedimento: {undo_code}.",
                                    code=undo_code)
        if not outdated and actor not in t.undo.actors:
            who = ", ".join(ACTOR_LABELS[a] for a in sorted(t.undo.actors))
            raise TransitionRefused(f"“{t.undo.label}” só pode ser feito por: {who} "
                                    f"({t.undo.article}).", code=undo_code)
        if state != t.target:
            raise TransitionRefused(
                f"“{t.undo.label}” não é mais possível: o caso está em "
                f"“{self.states[state].label}”.", code=undo_code)
        return t

    def label_fact(self, name: str) -> str:
        return self.fact_labels.get(name, name)

    def check(self, state: str, code: str, actor: Actor, facts: Mapping[str, Any] | None = None,
              agency: str | None = None) -> Transition:
        """Return the transition if it is allowed, or raise TransitionRefused."""
        facts = facts or {}
        t = self.transitions.get(code)
        if t is None:
            raise TransitionRefused(f"Ação desconhecida neste procedimento: {code}.", code=code)
        if state not in t.sources:
            raise TransitionRefused(
                f"“{t.label}” não é permitido quando o caso está em “{self.states[state].label}”.",
                code=code)
        if actor not in t.actors:
            who = ", ".join(ACTOR_LABELS[a] for a in sorted(t.actors))
            raise TransitionRefused(f"“{t.label}” só pode ser feito por: {who} ({t.article}).",
                                    code=code)
        if actor is Actor.INSPECTOR and t.agencies and agency not in t.agencies:
            raise TransitionRefused(
                f"“{t.label}” é competência de outro órgão ({t.article}).", code=code)
        missing = tuple(f for f in t.requires if _empty(facts.get(f)))
        if missing:
            names = "; ".join(self.label_fact(f) for f in missing)
            raise TransitionRefused(f"Falta para “{t.label}” ({t.article}): {names}.",
                                    missing=missing, code=code)
        if t.guard is not None:
            reason = t.guard(facts)
            if reason:
                raise TransitionRefused(f"“{t.label}” recusado ({t.article}): {reason}", code=code)
        return t


def _empty(value: Any) -> bool:
    return value is None or value == "" or (hasattr(value, "__len__") and len(value) == 0)
