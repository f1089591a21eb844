"""Performing an action from the case card: a durable step-by-step form over the facts the
step requires (core.services.inspectors.step_forms), a confirmation, then the step and its document.

Buttons carry "insp:<draft id>:<action>[:<arg>]"; one from another draft or state is stale.
The form is re-read from the core at every answer, so a case that moved on (or was taken
away) ends the form politely instead of recording anything."""
from __future__ import annotations

import secrets
from datetime import date

from bot import attachments, buttons
from bot.inspector import after, card, texts
from bot.inspector.media import policy
from bot.inspector.states import FORM
from bot.replies import send_document_or_queue
from bot.router import Turn, inline
from bot.texts import STALE_BUTTON
from core.formatting import fmt_date, plural
from core.lifecycle import BUTTON_MAX, TransitionRefused
from core.services.papers.documents import DocumentUnavailable
from core.services.errors import ServiceError
from core.services.inspectors.step_forms import (BOOL, CHOICE, CRITERIA, DATETIME, NO_MISSING_PARTS,
                                      NO_ODOMETER, ODOMETER, PARTS, PHOTOS, FormField, StepForm,
                                      now_value, parse_answer, perform_step, show_value,
                                      step_form, wanted)

MAX_PHOTOS = 10
TYPED = {"date", "datetime", "cpf", "odometer", "money", "names", "text", "goods", "plate",
         "count", "weight"}


def _b(d: dict, action: str, value: object | None = None) -> str:
    return buttons.step_form(d["id"], action, value)


async def start(turn: Turn, protocol: str, code: str) -> None:
    """insp:do:<protocol>:<code> from the card."""
    form = await step_form(turn.core, turn.user_id, protocol, code)
    draft = {"id": secrets.token_hex(3), "protocol": form.protocol, "code": code,
             "i": -1, "facts": {}}
    await _advance(turn, form, draft)


def _next(form: StepForm, d: dict) -> int:
    """The first field after the current one that is asked and not answered yet."""
    facts = d["facts"]
    for j in range(d["i"] + 1, len(form.fields)):
        f = form.fields[j]
        if wanted(f, facts, d.get("more", False)) and f.fact not in facts:
            return j
    return len(form.fields)


async def _advance(turn: Turn, form: StepForm, d: dict, before: str = "") -> None:
    d = {**d, "i": _next(form, d)}
    await turn.save(FORM, d)
    await ask(turn, form, d, before)


async def ask(turn: Turn, form: StepForm, d: dict, before: str = "") -> None:
    head = before + "\n\n" if before else ""
    if d["i"] >= len(form.fields):
        await _summary(turn, form, d, head)
        return
    f = form.fields[d["i"]]
    asked = [x for x in form.fields if wanted(x, d["facts"], d.get("more", False))]
    n = asked.index(f) + 1 if f in asked else d["i"] + 1
    text = head + texts.FORM_STEP.format(label=form.label, article=form.article, n=n,
                                         total=len(asked), field=f.label)
    text += "\n" + texts.HINT["media" if f.video else f.kind]
    more, rows = field_buttons(f, d)
    await turn.reply((text + more)[:4096], inline(rows))


def _toggles(f: FormField, d: dict) -> list[list[tuple[str, str]]]:
    """One short button per sign or part (FormField.button), ticked or not."""
    ticked = set(d["facts"].get(f.fact) or ())
    return [[(("✅ " if v in ticked else "⬜ ") + f.button(k), _b(d, "tog", k))]
            for k, (v, _) in enumerate(f.options)]


def field_buttons(f: FormField, d: dict) -> tuple[str, list[list[tuple[str, str]]]]:
    """The buttons answering field `f` (each a few words, for a phone) and the text the
    message adds to say in full what they stand for (the sign and its article, the value
    suggested)."""
    more = ""
    rows: list[list[tuple[str, str]]] = []
    value = d["facts"].get(f.fact)
    if f.kind in (CRITERIA, PARTS, CHOICE):  # each option's full label, if its button is short
        more += "".join("\n" + texts.OPTION_LINE.format(button=f.button(k), label=label)
                        for k, (_, label) in enumerate(f.options) if f.button(k) != label)
    if f.kind in (CRITERIA, PARTS):
        rows = _toggles(f, d)
        if f.kind == PARTS:
            rows.append([(texts.NO_PARTS_BUTTON, _b(d, "noparts"))])
        rows.append([(texts.CONTINUE, _b(d, "next"))])
    elif f.kind == PHOTOS:
        if value:
            more += "\nJá recebi " + (plural(len(value), "foto ou vídeo", "fotos ou vídeos") if f.video
                                       else plural(len(value), "foto", "fotos")) + "."
        rows = [[(texts.DONE, _b(d, "next"))]]
    elif f.kind == BOOL:
        rows = [[(texts.YES, _b(d, "yes")), (texts.NO, _b(d, "no"))]]
    elif f.kind == CHOICE:
        rows = [[(f.button(k), _b(d, "pick", k))] for k in range(len(f.options))]
    elif f.kind == DATETIME and f.now:
        rows = [[(texts.NOW, _b(d, "now"))]]
    elif f.kind == ODOMETER:
        rows = [[(texts.NO_ODOMETER_BUTTON, _b(d, "noodo"))]]
    if f.suggestion:
        use = texts.USE.format(value=f.shown_suggestion())
        if len(use) > BUTTON_MAX:  # the value in the text, a short button to take it
            more += "\n" + texts.SUGGESTED.format(value=f.shown_suggestion())
            use = texts.USE_SUGGESTION
        rows.append([(use, _b(d, "use"))])
    if not f.required and f.kind not in (BOOL,):
        rows.append([(texts.SKIP, _b(d, "skip"))])
    rows.append([(texts.CANCEL, _b(d, "cancel"))])
    return more, rows


def _asked(form: StepForm, d: dict) -> list[tuple[int, FormField]]:
    """(index in the form, field) of the fields answered, as the summary numbers them."""
    return [(k, f) for k, f in enumerate(form.fields)
            if wanted(f, d["facts"], d.get("more", False)) and f.fact in d["facts"]]


def _on_request(form: StepForm, d: dict) -> list[FormField]:
    """The facts the inspector may still add (the vehicle's papers), until he asked once."""
    if d.get("more"):
        return []
    return [f for f in form.fields if f.on_request and f.fact not in d["facts"]]


def fix_buttons(form: StepForm, d: dict) -> tuple[str, list[list[tuple[str, str]]]]:
    """"Qual dado corrigir?": the answers numbered in the text, a short "Corrigir n" button
    for each, two to a row."""
    asked = _asked(form, d)
    text = "\n".join([texts.WHICH_FIX] + [f"{n}. {f.label}: {show_value(f, d['facts'][f.fact])}"
                                          for n, (_, f) in enumerate(asked, 1)])
    buttons = [(texts.FIX_N.format(n=n), _b(d, "redo", k)) for n, (k, _) in
               enumerate(asked, 1)]
    rows = [buttons[i:i + 2] for i in range(0, len(buttons), 2)]
    return text[:4096], rows + [[(texts.CANCEL, _b(d, "cancel"))]]


async def _summary(turn: Turn, form: StepForm, d: dict, head: str = "") -> None:
    lines = [head + texts.SUMMARY_HEAD.format(label=form.label, article=form.article,
                                              protocol=form.protocol)]
    for n, (_, f) in enumerate(_asked(form, d), 1):
        lines.append(f"{n}. {f.label}: {show_value(f, d['facts'][f.fact])}")
    extra = _on_request(form, d)
    rows = [[(texts.CONFIRM, _b(d, "ok")), (texts.FIX, _b(d, "fix"))]]
    if extra:
        lines.append(texts.MORE_OFFER.format(labels="; ".join(f.label for f in extra)))
        rows.append([(texts.MORE, _b(d, "more"))])
    lines.append(texts.SUMMARY_TAIL)
    await turn.reply("\n".join(lines)[:4096], inline(rows + [[(texts.CANCEL, _b(d, "cancel"))]]))


async def _current(turn: Turn) -> tuple[StepForm, dict]:
    d = dict(turn.conv.draft)
    try:
        form = await step_form(turn.core, turn.user_id, d["protocol"], d["code"])
    except ServiceError:
        await turn.clear()  # the case moved on or is no longer theirs: the form ends
        raise
    return form, d


async def _answer(turn: Turn, form: StepForm, d: dict, f: FormField, value) -> None:
    d = {**d, "facts": {**d["facts"], f.fact: value}}
    await _advance(turn, form, d)


# ----------------------------------------------------------------------------- buttons

async def on_button(turn: Turn, data: list[str]) -> None:
    """insp:<draft id>:<action>[:<arg>]."""
    d = turn.conv.draft
    if turn.conv.state != FORM or len(data) < 3 or data[1] != d.get("id"):
        await turn.answer(STALE_BUTTON)
        return
    action, arg = data[2], (data[3] if len(data) > 3 else "")
    form, d = await _current(turn)
    if action == "cancel":
        await turn.clear()
        await turn.answer()
        await turn.reply(texts.FORM_CANCELLED)
        return
    if action == "ok" and d["i"] >= len(form.fields):
        await _perform(turn, form, d)
        return
    if action == "more" and d["i"] >= len(form.fields) and _on_request(form, d):
        await turn.answer()
        await _advance(turn, form, {**d, "more": True, "i": -1})
        return
    if action == "fix" and d["i"] >= len(form.fields):
        text, rows = fix_buttons(form, d)
        await turn.answer()
        await turn.reply(text, inline(rows))
        return
    if action == "redo" and arg.isdigit() and int(arg) < len(form.fields):
        k = int(arg)
        facts = {key: v for key, v in d["facts"].items() if key != form.fields[k].fact}
        if form.fields[k].kind in (CRITERIA, PARTS, PHOTOS):
            facts = d["facts"]  # toggles and photos start from what was given
        d = {**d, "i": k, "facts": facts}
        await turn.save(FORM, d)
        await turn.answer()
        await ask(turn, form, d)
        return
    if d["i"] >= len(form.fields):
        await turn.answer(STALE_BUTTON)
        return
    f = form.fields[d["i"]]
    value = d["facts"].get(f.fact)
    await turn.answer()
    if action == "tog" and f.kind in (CRITERIA, PARTS) and arg.isdigit() \
            and int(arg) < len(f.options):
        code = f.options[int(arg)][0]
        ticked = [v for v in (value or []) if v != NO_MISSING_PARTS]
        ticked = [v for v in ticked if v != code] if code in ticked else ticked + [code]
        d = {**d, "facts": {**d["facts"], f.fact: ticked}}
        await turn.save(FORM, d)
        await turn.query.edit_message_reply_markup(_toggle_markup(f, d))
    elif action == "next" and f.kind in (CRITERIA, PARTS, PHOTOS):
        if not value and f.kind == PARTS:
            await _answer(turn, form, d, f, [NO_MISSING_PARTS])
        elif not value:
            await turn.reply((texts.NEED_MEDIA if f.video else texts.NEED_PHOTO)
                             if f.kind == PHOTOS else texts.PICK_ONE)
            await ask(turn, form, d)
        else:
            await _answer(turn, form, d, f, value)
    elif action == "noparts" and f.kind == PARTS:
        await _answer(turn, form, d, f, [NO_MISSING_PARTS])
    elif action in ("yes", "no") and f.kind == BOOL:
        await _answer(turn, form, d, f, action == "yes")
    elif action == "pick" and f.kind == CHOICE and arg.isdigit() and int(arg) < len(f.options):
        await _answer(turn, form, d, f, f.options[int(arg)][0])
    elif action == "now" and f.kind == DATETIME:
        await _answer(turn, form, d, f, now_value(turn.core))
    elif action == "noodo" and f.kind == ODOMETER:
        await _answer(turn, form, d, f, NO_ODOMETER)
    elif action == "use" and f.suggestion:
        await _answer(turn, form, d, f, f.suggestion)
    elif action == "skip" and not f.required:
        await _answer(turn, form, d, f, None)
    else:
        await turn.reply(STALE_BUTTON)


def _toggle_markup(f: FormField, d: dict):
    return inline(field_buttons(f, d)[1])


# ----------------------------------------------------------------------------- messages

async def on_message(turn: Turn) -> None:
    msg = turn.message
    if msg is None:
        return
    form, d = await _current(turn)
    if d["i"] >= len(form.fields):
        await turn.reply(texts.USE_BUTTONS)
        await _summary(turn, form, d)
        return
    f = form.fields[d["i"]]
    if f.kind == PHOTOS:
        await _photo(turn, form, d, f)
        return
    if f.kind not in TYPED or not msg.text:
        await turn.reply(texts.USE_BUTTONS)
        await ask(turn, form, d)
        return
    try:
        value = parse_answer(turn.core, f, msg.text)
    except ServiceError as exc:
        await ask(turn, form, d, exc.message)
        return
    await _answer(turn, form, d, f, value)


async def _photo(turn: Turn, form: StepForm, d: dict, f: FormField) -> None:
    """A photo (or, where the law allows filming, a video) for field `f`; the MIME type of
    each file is kept in the draft ("media": {sha256: mime}) for the evidence record."""
    item, refusal = attachments.read(turn.message, policy(f.video))
    have = list(d["facts"].get(f.fact) or [])
    if refusal is None and len(have) >= MAX_PHOTOS:
        refusal = texts.MAX_MEDIA
    if refusal is None:
        sha, refusal = await attachments.fetch(turn.bot, turn.core, item, policy(f.video))
    if refusal is not None:
        await turn.reply(refusal, inline([[(texts.DONE, _b(d, "next"))]]))
        return
    if sha not in have:
        have.append(sha)
    media = {**d.get("media", {}), sha: item.mime}
    d = {**d, "facts": {**d["facts"], f.fact: have}, "media": media}
    await turn.save(FORM, d)
    videos = sum(1 for h in have if media.get(h, "").startswith("video/"))
    got = texts.MEDIA_GOT.format(photos=plural(len(have) - videos, "foto", "fotos"),
                                 videos=plural(videos, "vídeo", "vídeos")) if f.video \
        else texts.photos_got(len(have))
    await turn.reply(got, inline([[(texts.DONE, _b(d, "next"))]]))


# ----------------------------------------------------------------------------- the step

async def _perform(turn: Turn, form: StepForm, d: dict) -> None:
    try:
        done = await perform_step(turn.core, turn.user_id, form.protocol, form.code,
                                  d["facts"], also=turn.hook(clear=True),
                                  media=d.get("media"))
    except (TransitionRefused, DocumentUnavailable) as exc:  # nothing written: the answers
        # stay, the summary again
        await turn.answer()
        await _summary(turn, form, d, texts.REFUSED.format(message=exc.message) + "\n\n")
        return
    await turn.answer()
    r = done.result
    lines = [texts.DONE_STEP.format(label=form.label, article=form.article,
                                    protocol=form.protocol, state=done.state_label)]
    if r.deadline and r.deadline.get("due"):
        lines.append(texts.DEADLINE.format(description=r.deadline["description"],
                                           due=fmt_date(date.fromisoformat(r.deadline["due"])),
                                           article=r.deadline["article"]))
    await turn.reply("\n".join(lines))
    for sha, filename, blob in done.documents:  # queued if Telegram fails at this moment
        await send_document_or_queue(
            turn.bot, turn.state, turn.chat_id, sha, filename,
            texts.DOCUMENT_CAPTION.format(name=filename, protocol=form.protocol), blob)
    if form.photo_after:  # the printed notice first, then its photo affixed (Art. 4º, II, a)
        await after.ask(turn, form.protocol, form.code, form.article)
        return
    try:
        await card.show(turn, form.protocol)
    except ServiceError:
        pass  # closed, or no longer this inspector's: nothing more to do here
