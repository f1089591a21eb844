"""The report conversation's questions (core/services/citizens/conversation/states.py): each state's prompt with its
buttons, the summary, and `go` (store the next state, then ask its question)."""
from __future__ import annotations

from telegram import InputFile

from bot import buttons
from bot.citizen import texts
from core.services.citizens.conversation.states import (ADDRESS_CONFIRM, CATEGORY, COLOUR, DESCRIPTION, DUPLICATES,
                                LOCATION, MAKE_MODEL, PHOTOS, PLATE, SIGNS, SUMMARY, TIME_THERE,
                                next_question)
from bot.router import Turn, inline, location_keyboard
from core.identifiers import format_plate
from core.services.cases.evidence import public_photo
from core.services.citizens.conversation import steps
from core.services.citizens.guidance import citizen_signs
from core.services.context import Core


def button(draft: dict, action: str, value: object | None = None) -> str:
    """A button of the question shown now: it carries the draft and the question's number
    (core.services.citizens.conversation.steps), so a button of an earlier question is stale."""
    return buttons.report(steps.key(draft), action, value)


def city_core(core: Core, d: dict) -> Core:
    """The installation acting for the draft's city (the pin decided it), else `core`."""
    slug = d.get("city")
    return core.for_city(slug) if slug and core.city_named(slug) is not None else core


def here(turn: Turn, d: dict | None = None) -> Core:
    """The Core of the city this report is in: its law, categories and questions."""
    return city_core(turn.core, turn.conv.draft if d is None else d)


async def ask(turn: Turn, state: str, before: str = "") -> None:
    """Send the question of `state` (also used to repeat it after bad input), with `before`
    (e.g. the acknowledgement of the previous answer) at the top."""
    d, law = turn.conv.draft, here(turn).law
    if before:
        turn = Prefixed(turn, before)
    if state == CATEGORY:
        await turn.reply(*category_prompt(law, d))
    elif state == PHOTOS:
        n = len(d.get("photos", []))
        extra = f"\n\nJá recebi {texts.photos_count(n)}." if n else ""
        cat = law.categories[d["category"]]
        ask_photos = texts.ASK_PHOTOS.format(plate=texts.PHOTO_PLATE if cat.has_plate else "")
        await turn.reply(f"Tipo: {cat.label}\n\n" + ask_photos + extra,
                         inline([[("✅ Pronto", button(d, "done"))]]))
    elif state == LOCATION:
        await turn.reply(location_question(turn.core, d), location_keyboard())
    elif state == ADDRESS_CONFIRM:
        p = d["pending"]
        await turn.reply(f"Entendi este endereço:\n{p['address']}\n\nÉ esse o local?",
                         inline([[("✅ Sim, é aqui", button(d, "addr", "yes")),
                                  ("❌ Não", button(d, "addr", "no"))]]))
    elif state == DUPLICATES:
        await show_candidates(turn)
    elif state == PLATE:
        await turn.reply(texts.ASK_PLATE, inline([[("Pular", button(d, "skip"))]]))
    elif state == COLOUR:
        await turn.reply(texts.ASK_COLOUR, inline([[("Pular", button(d, "skip"))]]))
    elif state == MAKE_MODEL:
        await turn.reply(texts.ASK_MAKE_MODEL, inline([[("Pular", button(d, "skip"))]]))
    elif state == TIME_THERE:
        rows = [[(t, button(d, "time", i))]
                for i, t in enumerate(texts.time_options(here(turn)))]
        await turn.reply(texts.ASK_TIME_THERE, inline(rows))
    elif state == SIGNS:
        await turn.reply(texts.ASK_SIGNS, signs_keyboard(turn))
    elif state == DESCRIPTION:
        await turn.reply(texts.ASK_DESCRIPTION, inline([[("Pular", button(d, "skip"))]]))
    elif state == SUMMARY:
        await turn.reply(summary(turn), inline([[("✅ Confirmar", button(d, "ok")),
                                                ("✏️ Corrigir", button(d, "fix"))]]))


def location_question(core: Core, d: dict) -> str:
    """Where is it: with several cities and no category yet, the location comes first (it
    decides the city, its law and its categories)."""
    if core.many_cities and "category" not in d:
        return texts.ASK_LOCATION_FIRST.format(cities=core.cities_named())
    return texts.ASK_LOCATION


def category_prompt(law, d: dict):
    """The category question: the city's law's categories as buttons."""
    rows = [[(c.label, button(d, "cat", c.code))] for c in law.categories.values()]
    return texts.ASK_CATEGORY, inline(rows)


class Prefixed:
    """A Turn whose next reply starts with a given text (one message instead of two)."""

    def __init__(self, turn: Turn, before: str) -> None:
        self._turn, self._before = turn, before

    def __getattr__(self, name):
        return getattr(self._turn, name)

    async def reply(self, text: str, markup=None):
        before, self._before = self._before, ""
        return await self._turn.reply(before + text, markup)


def signs_keyboard(turn: Turn):
    d = turn.conv.draft
    ticked = set(d.get("signs", []))
    rows = [[(("✅ " if c.code in ticked else "⬜ ") + c.label, button(d, "sign", c.code))]
            for c in citizen_signs(here(turn).law, d["category"])]
    rows.append([("Continuar ➡️", button(d, "signs", "done"))])
    return inline(rows)


def summary(turn: Turn) -> str:
    d, law = turn.conv.draft, here(turn).law
    cat = law.categories[d["category"]]
    lines = ["Confira sua denúncia:", f"Tipo: {cat.label}", f"Fotos: {len(d['photos'])}"]
    if turn.core.many_cities:
        lines.append(f"Município: {here(turn).city.label}")
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


def coords(d: dict) -> str:
    return f"{d['lat']:.5f}, {d['lon']:.5f}"


def registered(core: Core, d: dict) -> str:
    """"📍 Local registrado: Rua X, 100 — Centro", naming the city when the installation
    serves more than one ("📍 Local registrado em Dracena (SP): …")."""
    where = d.get("address") or coords(d)
    if core.many_cities and d.get("city"):
        return f"📍 Local registrado em {city_core(core, d).city.label}: {where}\n\n"
    return f"📍 Local registrado: {where}\n\n"


async def store(turn: Turn, state: str, draft: dict) -> None:
    """Store `draft` in `state` (durable from here on), with the number of the question it
    is at and the person's message taken (steps.advance)."""
    order = turn.message.message_id if turn.message is not None else None
    await turn.save(state, steps.advance(draft, turn.conv.state, state, order))


async def go(turn: Turn, state: str, draft: dict) -> None:
    """Store `draft` in `state` (durable from here on), then ask its question."""
    await store(turn, state, draft)
    await ask(turn, state)


def unfix(d: dict) -> dict:
    d.pop("fixing", None)
    return d


def after(turn: Turn, answered: str) -> str:
    d = turn.conv.draft
    if d.get("fixing"):
        return SUMMARY
    return next_question(here(turn).law, d["category"], answered)


async def show_candidates(turn: Turn) -> None:
    d = turn.conv.draft
    await turn.reply("Já existe denúncia aberta do mesmo tipo bem perto desse local. "
                     "Veja se é o mesmo caso:")
    rows = []
    for c in d["candidates"]:
        told = c.get("situation") or f"Situação: {c['state']}"  # plain words (a draft saved
        # before them has only the state's name)
        caption = (f"Protocolo {c['protocol']} — {c['category']}\n{told}\n"
                   f"Local: {c['address'] or 'sem endereço'} (a {c['distance']:.0f} m)")[:1024]
        data = await public_photo(here(turn), c["photo"]) if c.get("photo") else None
        if data is not None:  # another citizen's photo: the copy without EXIF/GPS
            await turn.bot.send_photo(turn.chat_id, InputFile(data, filename="caso.jpg"),
                                      caption=caption)
        else:
            await turn.reply(caption)
        rows.append([(f"É este: {c['protocol']}", button(d, "dup", c['protocol']))])
    rows.append([("Não, é outro caso", button(d, "dup", "new"))])
    await turn.reply("É algum destes? Se for, suas fotos são juntadas ao caso e você passa a "
                     "receber os avisos dele.", inline(rows))
