"""The citizen on WhatsApp: each message a person sends is read into the conversation's input
(core.services.citizens.conversation.step), the outcome stored with the message's id in one
transaction (core.services.messaging.whatsapp_chats: a redelivered webhook does nothing
twice), and the answer shown within WhatsApp's limits (whatsapp.render). One person's
messages are taken one at a time, in the order they came; different people's in parallel.

WhatsApp has no commands: the words are typed ("cancelar", "ajuda", "status 2026-000123"),
and the texts the core writes with "/cancelar" read "*cancelar*" here (guide.for_channel).
A first message that is not a photo or a pin is greeted, and the report begins at once."""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from core import logs, media
from core.services.cases.evidence import EvidenceIn, public_photo, store_upload
from core.services.citizens.case_status import my_cases, status_view
from core.services.citizens.conversation import guide, receipt, step, steps, tracking, words
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.conversation.location import Support
from core.services.citizens import my_data
from core.services.citizens.conversation.prompts import (DUPLICATES_INTRO, Choice, Prompt,
                                                         candidate_caption, city_core,
                                                         question)
from core.services.citizens.conversation.states import (CATEGORY, DUPLICATES, IDLE, LOCATION,
                                                        PREFIX, SIGNS)
from core.services.citizens.reports import submit_report, support_case
from core.services.context import Core
from core.services.errors import USER_ERRORS
from core.services.geocoding import Geocoder
from core.services.installation.metrics import UPDATES
from core.services.messaging import whatsapp_chats as chats
from core.services.messaging import whatsapp_held as held
from core.services.messaging.conversation import AlreadyProcessed
from whatsapp import owner, render
from whatsapp.graph import DEAD, Graph, GraphError
from whatsapp.webhook import Inbound, Status

log = logging.getLogger(__name__)
CHANNEL = guide.WHATSAPP
LGPD = "lgpd"  # the key of the choices under "meus dados" (not a question of the report)


class CitizenFace:
    def __init__(self, core: Core, graph: Graph, geocoder: Geocoder) -> None:
        self.core, self.graph, self.geocoder = core, graph, geocoder
        self._locks: dict[str, list] = {}  # wa_id → [its lock, turns holding or waiting]
        self._receipts: set[asyncio.Task] = set()

    async def receive(self, messages: list[Inbound], statuses: list[Status]) -> None:
        """A webhook's messages, each taken once, one person's in order."""
        for status in statuses:
            if status.status == "failed":
                log.info("whatsapp message %s failed: %s", logs.opaque(status.message_id),
                         status.error_code)
        for m in messages:
            await self.take(m)

    async def take(self, m: Inbound) -> None:
        """One message, after any of the same person's still being taken (their lock is
        dropped once nobody waits on it)."""
        logs.request_id.set(f"wa-{logs.opaque(m.message_id)}")  # the id holds the number
        entry = self._locks.setdefault(m.wa_id, [asyncio.Lock(), 0])
        entry[1] += 1
        started = time.perf_counter()
        try:
            async with entry[0]:
                chat = await chats.load(self.core, m.wa_id, m.message_id)
                if chat is None:  # taken before: a redelivery
                    log.info("whatsapp message already taken: nothing done again")
                    return
                self._read_receipt(m.message_id)
                await Turn(self, m).run(chat)
                await held.person_wrote(self.core, m.wa_id, chat.last_inbound_at)
        finally:
            took = time.perf_counter() - started
            UPDATES.labels("whatsapp").observe(took)
            log.info("whatsapp message handled in %.0f ms", took * 1000)  # one line a message
            entry[1] -= 1
            if entry[1] == 0:
                self._locks.pop(m.wa_id, None)

    def _read_receipt(self, message_id: str) -> None:
        """The blue ticks, sent beside the answer (a courtesy: its failure changes nothing)."""
        async def mark() -> None:
            try:
                await self.graph.mark_read(message_id)
            except GraphError:
                pass
        task = asyncio.get_running_loop().create_task(mark())
        self._receipts.add(task)
        task.add_done_callback(self._receipts.discard)


class Turn:
    """One message and what is done with it."""

    def __init__(self, face: CitizenFace, m: Inbound) -> None:
        self.face, self.m, self.core = face, m, face.core
        self.state: str = IDLE
        self.draft: dict[str, Any] = {}

    # -- storing and saying ----------------------------------------------------------------

    def hook(self, state: str | None = None, draft: dict | None = None, *,
             clear: bool = False) -> Callable[[AsyncSession], Any]:
        async def run(s: AsyncSession) -> None:
            await chats.record(s, self.m.wa_id, self.m.message_id, self.core.now(),
                               state=state, draft=draft, clear=clear)
        return run

    async def commit(self, state: str | None = None, draft: dict | None = None, *,
                     clear: bool = False) -> None:
        """The message taken, with the chat's next state (raises AlreadyProcessed)."""
        if state is not None and draft is not None:
            draft = steps.advance(dict(draft), self.state, state, None)
            self.state, self.draft = state, draft
        await chats.write(self.core, self.m.wa_id, self.m.message_id, state=state,
                          draft=draft, clear=clear)

    async def say(self, prompt: Prompt | str, key: str | None = None) -> None:
        """`prompt` shown; its choices carry `key` (by default the question's)."""
        p = prompt if isinstance(prompt, Prompt) else Prompt(prompt)
        p = Prompt(guide.for_channel(p.text, CHANNEL), p.rows, p.location)
        key = key or (steps.key(self.draft) if "id" in self.draft else "-")
        for body in render.messages(self.m.wa_id, p, key):
            try:
                await self.face.graph.send(body)
            except GraphError as exc:  # the answer is lost, the step is stored: say so
                log.warning("whatsapp reply to a chat not sent: %s", exc)
                if exc.outcome == DEAD:
                    return

    async def ask(self, before: str = "") -> None:
        """The question of the chat's state, with `before` on top."""
        if self.state == DUPLICATES:
            await self.candidates(before)
            return
        await self.say(question(self.core, self.draft, self.state).before(before))

    async def candidates(self, before: str = "") -> None:
        d = self.draft
        await self.say(before + DUPLICATES_INTRO)
        here = city_core(self.core, d)
        for c in d.get("candidates", []):
            caption = candidate_caption(c)[:1024]
            data = await public_photo(here, c["photo"]) if c.get("photo") else None
            if data is None:
                await self.say(caption)
                continue
            try:  # another citizen's photo: the copy without EXIF/GPS
                mid = await self.face.graph.upload(data, "image/jpeg", "caso.jpg")
                await self.face.graph.send({
                    "messaging_product": "whatsapp", "recipient_type": "individual",
                    "to": self.m.wa_id, "type": "image",
                    "image": {"id": mid, "caption": caption}})
            except GraphError:
                await self.say(caption)
        await self.say(step.shown(self.core, DUPLICATES, d))

    # -- the turn --------------------------------------------------------------------------

    async def run(self, chat: chats.Chat) -> None:
        self.state, self.draft = chat.state, chat.draft
        try:
            await self.dispatch()
        except AlreadyProcessed:
            log.info("whatsapp message taken twice at once; the second did nothing")
        except USER_ERRORS as exc:  # said plainly; the draft as it was
            try:
                await self.commit()
            except (AlreadyProcessed, *USER_ERRORS):
                pass
            await self.say(exc.message)
            if self.state.startswith(PREFIX):
                await self.ask()

    async def dispatch(self) -> None:
        m, reporting = self.m, self.state.startswith(PREFIX)
        command = guide.command_typed(m.text) if m.kind == "text" else None
        protocol = tracking.typed_protocol(m.text) if m.kind == "text" else None
        if command is not None or protocol is not None:
            name, arg = command or ("status", protocol or "")
            await self.command(name, arg, reporting)
            return
        if self.state == owner.PROOF and m.kind == "text":
            await owner.proof(self, m.text or "")
            return
        if (not reporting and m.kind == "text" and (code := owner.code_typed(m.text))
                and await owner.start(self, code)):
            return
        if m.kind == "reply" and (m.reply_id or "").startswith(LGPD + ":"):
            await self.data_choice((m.reply_id or "").split(":")[-1], reporting)
            return
        if not reporting:
            if m.kind in ("image", "document", "location"):
                self.draft = {"id": secrets.token_hex(3), "photos": []}
                self.state = LOCATION if self.core.many_cities else CATEGORY
                await self.answer(await self.said())
                return
            await self.begin(greet=True)
            return
        await self.answer(await self.said())

    async def begin(self, greet: bool) -> None:
        first = LOCATION if self.core.many_cities else CATEGORY
        await self.commit(first, {"id": secrets.token_hex(3), "photos": []})
        if greet:
            await self.say(guide.welcome(self.core, self.m.name))
        await self.ask()

    async def command(self, name: str, arg: str, reporting: bool) -> None:
        core = self.core
        if name == "cancelar":
            await self.commit(clear=True)
            await self.say(guide.CANCELLED if reporting else guide.NOTHING_TO_CANCEL)
            return
        if name == "denunciar" or (name == "start" and not reporting):
            if reporting:
                await self.commit()
                await self.ask(guide.RESUMING)
                return
            await self.begin(greet=name == "start")
            return
        await self.commit()
        if name == "ajuda":
            await self.say(guide.help_text(core))
        elif name == "privacidade":
            await self.say(guide.privacy(city_core(core, self.draft), every_city=True,
                                         channel=CHANNEL))
        elif name == "status":
            if not tracking.PROTOCOL.match(arg):
                await self.say(tracking.STATUS_USAGE)
            else:
                try:
                    await self.say(tracking.case_text(await status_view(core, arg)))
                except USER_ERRORS as exc:
                    await self.say(exc.message)
        elif name == "minhas":
            views = await my_cases(core, None, whatsapp_id=self.m.wa_id)
            if not views:
                await self.say(tracking.NO_CASES)
            else:
                await self.say(tracking.mine_header(len(views)) + "\n\n" + "\n\n".join(
                    tracking.case_text(v) for v in views[:10]))
        else:  # meusdados (LGPD art. 18, II): everything kept, then the deletion offered
            parts = await my_data.my_data(core, my_data.Account.whatsapp(self.m.wa_id))
            for part in parts[:-1]:
                await self.say(part)
            await self.say(Prompt(parts[-1], ((Choice(my_data.ASK_DELETION, "lgpd", "ask"),),)),
                           key=LGPD)
        if reporting:
            await self.ask(guide.BACK_TO_REPORT)

    async def data_choice(self, choice: str, reporting: bool) -> None:
        """The choices under "meus dados": see what a deletion removes and keeps, confirm it
        (LGPD art. 18, VI) or keep everything."""
        acc = my_data.Account.whatsapp(self.m.wa_id)
        await self.commit()
        if choice == "ask":
            preview = await my_data.preview_deletion(self.core, acc)
            await self.say(Prompt(preview + "\n\n" + my_data.CONFIRM_DELETION,
                                  ((Choice(my_data.CONFIRM, "lgpd", "yes"),
                                    Choice(my_data.KEEP, "lgpd", "no")),)), key=LGPD)
        elif choice == "yes":
            for part in await my_data.delete_my_data(self.core, acc):
                await self.say(part)
        else:
            await self.say(my_data.KEPT)
        if reporting and choice != "yes":
            await self.ask(guide.BACK_TO_REPORT)

    async def said(self) -> step.Said:
        """What the person sent, as the conversation reads it (a photo fetched and stored
        first, with the same checks as every upload)."""
        m = self.m
        if m.kind == "text":
            return step.Said(step.TEXT, text=m.text)
        if m.kind == "location":
            return step.Said(step.PIN, lat=m.lat, lon=m.lon)
        if m.kind == "reply" and m.reply_id:
            parsed = render.parse_reply(steps.key(self.draft), m.reply_id)
            if parsed is None:
                return step.Said(step.CHOICE)  # an earlier question's: stale
            return step.Said(step.CHOICE, action=parsed[0], value=parsed[1])
        if m.kind in ("image", "document") and m.media_id:
            return await self.photo(m.media_id)
        return step.Said(step.OTHER)

    async def photo(self, media_id: str) -> step.Said:
        if not step.takes_photo(self.core, self.state, self.draft):
            return step.Said(step.OTHER)
        refusal = step.photo_refused(self.core, self.state, self.draft, media_id)
        if refusal is not None:
            raise _Refusal(refusal)
        try:
            data, _ = await self.face.graph.download(media_id)
            stored = await store_upload(self.core, data, (media.IMAGE,))
        except GraphError as exc:
            raise _Refusal(Prompt(words.PHOTO_LOST if exc.outcome != DEAD
                                  else words.NOT_IMAGE)) from None
        except media.MediaRefused as exc:
            raise _Refusal(Prompt(exc.message)) from None
        return step.Said(step.PHOTO, photo={"sha": stored.sha256, "mime": stored.mime,
                                            "file_id": media_id, "unique_id": media_id})

    async def answer(self, said: step.Said | None = None) -> None:
        try:
            outcome = await step.take(self.core, self.state, self.draft, said or step.Said(
                step.OTHER), self.face.geocoder)
        except _Refusal as r:
            outcome = Refused("", again=False, prompt=r.prompt)
        await self.show(outcome)

    async def show(self, outcome: step.Outcome | None) -> None:
        core, d = self.core, self.draft
        if outcome is None:
            await self.commit(self.state, d)
            await self.ask(words.STALE_CHOICE + "\n\n")
        elif isinstance(outcome, Taken):
            await self.commit(outcome.state, outcome.draft)
            if outcome.prompt is not None and self.state != DUPLICATES:
                await self.say(outcome.prompt.before(outcome.said))
            else:
                await self.ask(outcome.said)
        elif isinstance(outcome, Refused):
            await self.commit(self.state, d)
            await self.say(outcome.prompt if outcome.prompt is not None else outcome.text)
            if outcome.again:
                await self.ask()
        elif isinstance(outcome, step.Toggled):
            await self.commit(SIGNS, outcome.draft)
            await self.ask("Marcado.\n\n" if outcome.marked else "Desmarcado.\n\n")
        elif isinstance(outcome, step.Menu):
            await self.commit(self.state, d)
            await self.say(outcome.prompt)
        elif isinstance(outcome, Support):
            protocol = await support_case(city_core(core, d), outcome.protocol, None,
                                          evidence(d), d.get("description"),
                                          display_name=self.m.name, whatsapp_id=self.m.wa_id,
                                          also=self.hook(clear=True))
            self.draft = {}
            await self.say(words.SUPPORTED.format(protocol=protocol))
        elif isinstance(outcome, step.Confirmed):
            here = city_core(core, d)
            done = await submit_report(here, None, receipt.report(d, evidence(d)),
                                       display_name=self.m.name, whatsapp_id=self.m.wa_id,
                                       also=self.hook(clear=True))
            self.draft = {}
            await self.say(receipt.receipt(here, d, done))


class _Refusal(Exception):
    def __init__(self, prompt: Prompt) -> None:
        super().__init__(prompt.text)
        self.prompt = prompt


def evidence(d: dict) -> list[EvidenceIn]:
    """The draft's photos as evidence (WhatsApp's media id kept as the platform's reference)."""
    return [EvidenceIn(p["sha"], p["mime"], "photo", None, None) for p in d.get("photos", [])]
