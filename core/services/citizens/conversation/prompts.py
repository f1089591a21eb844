"""What the report conversation asks in each state, for every face: a `Prompt` is the
question's text and its choices (each one an action of the state table, states.py, with the
value it carries), and whether a location is asked for. A face renders it within its
platform's limits — Telegram as an inline keyboard, WhatsApp as reply buttons or a list, a
text-only channel as numbered lines (`numbered`, read back by `chosen`) — and never decides
what is asked."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.identifiers import format_plate
from core.services.citizens.conversation import words
from core.services.citizens.conversation.states import (ADDRESS_CONFIRM, CATEGORY, COLOUR,
                                                        DESCRIPTION, DUPLICATES, LOCATION,
                                                        MAKE_MODEL, PHOTOS, PLATE, SIGNS,
                                                        SUMMARY, TIME_THERE)
from core.services.citizens.guidance import citizen_signs
from core.services.context import Core


@dataclass(frozen=True)
class Choice:
    label: str  # Portuguese, as the person reads it ("✅ Pronto")
    action: str  # the state table's action ("done", "cat", "skip"…)
    value: str | None = None  # what the action carries (a category code, an index…)


@dataclass(frozen=True)
class Prompt:
    text: str
    rows: tuple[tuple[Choice, ...], ...] = ()  # choices, by rows as a keyboard shows them
    location: bool = False  # ask for a location pin (a face's "send my location")

    @property
    def choices(self) -> tuple[Choice, ...]:
        return tuple(c for row in self.rows for c in row)

    def before(self, text: str) -> Prompt:
        """The same question with `text` (an acknowledgement) at the top."""
        return Prompt(text + self.text, self.rows, self.location) if text else self


def _one(*choices: Choice) -> tuple[tuple[Choice, ...], ...]:
    return (choices,)


def _each(choices: list[Choice]) -> tuple[tuple[Choice, ...], ...]:
    return tuple((c,) for c in choices)


SKIP = Choice("Pular", "skip")
DONE = Choice("✅ Pronto", "done")


def city_core(core: Core, d: dict[str, Any]) -> Core:
    """The installation acting for the draft's city (the pin decided it), else `core`."""
    slug = d.get("city")
    return core.for_city(slug) if slug and core.city_named(slug) is not None else core


def question(core: Core, d: dict[str, Any], state: str) -> Prompt:
    """The question of `state` for the draft `d` (the installation's `core`; the draft's
    city decides the law, its categories and its questions). DUPLICATES: the choice among
    the cases nearby (`duplicates`); the cases themselves are shown before it."""
    here = city_core(core, d)
    law = here.law
    if state == CATEGORY:
        return category(core, d)
    if state == PHOTOS:
        n = len(d.get("photos", []))
        extra = f"\n\nJá recebi {words.photos_count(n)}." if n else ""
        cat = law.categories[d["category"]]
        ask = words.ASK_PHOTOS.format(plate=words.PHOTO_PLATE if cat.has_plate else "")
        return Prompt(f"Tipo: {cat.label}\n\n" + ask + extra, _one(DONE))
    if state == LOCATION:
        return Prompt(location_question(core, d), location=True)
    if state == ADDRESS_CONFIRM:
        p = d["pending"]
        return Prompt(f"Entendi este endereço:\n{p['address']}\n\nÉ esse o local?",
                      _one(Choice("✅ Sim, é aqui", "addr", "yes"),
                           Choice("❌ Não", "addr", "no")))
    if state == DUPLICATES:
        return duplicates(d)
    if state == PLATE:
        return Prompt(words.ASK_PLATE, _one(SKIP))
    if state == COLOUR:
        return Prompt(words.ASK_COLOUR, _one(SKIP))
    if state == MAKE_MODEL:
        return Prompt(words.ASK_MAKE_MODEL, _one(SKIP))
    if state == TIME_THERE:
        return Prompt(words.ASK_TIME_THERE,
                      _each([Choice(t, "time", str(i))
                             for i, t in enumerate(words.time_options(here))]))
    if state == SIGNS:
        return signs(core, d)
    if state == DESCRIPTION:
        return Prompt(words.ASK_DESCRIPTION, _one(SKIP))
    if state == SUMMARY:
        return Prompt(summary(core, d), _one(Choice("✅ Confirmar", "ok"),
                                             Choice("✏️ Corrigir", "fix")))
    raise ValueError(f"no question in state {state!r}")


def category(core: Core, d: dict[str, Any], text: str = words.ASK_CATEGORY) -> Prompt:
    """The category question: the city's law's categories, one a row."""
    law = city_core(core, d).law
    return Prompt(text, _each([Choice(c.label, "cat", c.code)
                               for c in law.categories.values()]))


def location_question(core: Core, d: dict[str, Any]) -> str:
    """Where is it: with several cities and no category yet, the location comes first (it
    decides the city, its law and its categories)."""
    if core.many_cities and "category" not in d:
        return words.ASK_LOCATION_FIRST.format(cities=core.cities_named())
    return words.ASK_LOCATION


def signs(core: Core, d: dict[str, Any]) -> Prompt:
    """The abandonment signs the law lists for the category, each marked or not, and
    "Continuar"."""
    ticked = set(d.get("signs", []))
    rows = [Choice(("✅ " if c.code in ticked else "⬜ ") + c.label, "sign", c.code)
            for c in citizen_signs(city_core(core, d).law, d["category"])]
    rows.append(Choice("Continuar ➡️", "signs", "done"))
    return Prompt(words.ASK_SIGNS, _each(rows))


DUPLICATES_INTRO = ("Já existe denúncia aberta do mesmo tipo bem perto desse local. Veja se é "
                    "o mesmo caso:")


def candidate_caption(c: dict[str, Any]) -> str:
    """One open case nearby, as the draft keeps it (location.py in a face)."""
    told = c.get("situation") or f"Situação: {c['state']}"  # plain words (a draft saved
    # before them has only the state's name)
    return (f"Protocolo {c['protocol']} — {c['category']}\n{told}\n"
            f"Local: {c['address'] or 'sem endereço'} (a {c['distance']:.0f} m)")


def duplicates(d: dict[str, Any]) -> Prompt:
    rows = [Choice(f"É este: {c['protocol']}", "dup", c["protocol"])
            for c in d.get("candidates", [])]
    rows.append(Choice("Não, é outro caso", "dup", "new"))
    return Prompt("É algum destes? Se for, suas fotos são juntadas ao caso e você passa a "
                  "receber os avisos dele.", _each(rows))


def summary(core: Core, d: dict[str, Any]) -> str:
    here = city_core(core, d)
    law = here.law
    cat = law.categories[d["category"]]
    lines = ["Confira sua denúncia:", f"Tipo: {cat.label}", f"Fotos: {len(d['photos'])}"]
    if core.many_cities:
        lines.append(f"Município: {here.city.label}")
    lines.append(f"Local: {d.get('address') or coords(d)}")
    if d.get("plate"):
        lines.append(f"Placa: {format_plate(d['plate'])}")
    for key, label in (("colour", "Cor"), ("make_model", "Marca/modelo"),
                       ("time_there", "Tempo no local")):
        if d.get(key):
            lines.append(f"{label}: {d[key]}")
    labels = {c.code: c.label for c in law.criteria}
    if d.get("signs"):
        lines.append("Sinais de abandono: " + "; ".join(labels[s] for s in d["signs"]))
    if d.get("description"):
        lines.append(f"Descrição: {d['description']}")
    lines.append("\nEstá tudo certo?")
    return "\n".join(lines)


def coords(d: dict[str, Any]) -> str:
    return f"{d['lat']:.5f}, {d['lon']:.5f}"


def registered(core: Core, d: dict[str, Any]) -> str:
    """"📍 Local registrado: Rua X, 100 — Centro", naming the city when the installation
    serves more than one ("📍 Local registrado em Dracena (SP): …")."""
    where = d.get("address") or coords(d)
    if core.many_cities and d.get("city"):
        return f"📍 Local registrado em {city_core(core, d).city.label}: {where}\n\n"
    return f"📍 Local registrado: {where}\n\n"


# -- the last resort of a face without buttons: numbered lines, read back ------------------

def numbered(prompt: Prompt) -> str:
    """The prompt as plain text: its choices as numbered lines ("1. Pular"), for a channel
    that shows no buttons (or more of them than it can)."""
    if not prompt.choices:
        return prompt.text
    lines = [f"{i}. {c.label}" for i, c in enumerate(prompt.choices, 1)]
    return prompt.text + "\n\n" + "\n".join(lines) + "\n\nResponda com o número."


def _plain(label: str) -> str:
    return "".join(ch for ch in label if ch.isalnum() or ch.isspace()).strip().casefold()


def chosen(prompt: Prompt, typed: str) -> Choice | None:
    """The choice a typed answer names: its number in `numbered`, or its label (without the
    emoji, in any case); None when it names none."""
    text = typed.strip().rstrip(".")
    choices = prompt.choices
    if text.isdigit() and 1 <= int(text) <= len(choices):
        return choices[int(text) - 1]
    return named(prompt, text)


def named(prompt: Prompt, typed: str) -> Choice | None:
    """The choice whose words were typed ("pular", "Sim, é aqui"), never its number."""
    wanted = _plain(typed.strip().rstrip("."))
    found = [c for c in prompt.choices if wanted and _plain(c.label) == wanted]
    return found[0] if len(found) == 1 else None
