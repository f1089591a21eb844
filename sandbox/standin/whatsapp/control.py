"""What a test or the sandbox does as a WhatsApp user, in Python or over HTTP under
``/_standin/``: send a message, a photo, a location, a button or list reply (each delivered as a
signed webhook and opening the user's 24 hours), move the clock, read what was sent to a user,
deliver a webhook again, check a face's verify handshake."""
from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING, Any

from aiohttp import web

from sandbox.standin.whatsapp.webhooks import Delivery, new_wamid, verify_endpoint

if TYPE_CHECKING:
    from sandbox.standin.whatsapp.server import Sent


class ControlMixin:
    """The user's side. Each ``user_*`` returns the webhook delivery (its ``message_id``)."""

    async def user_text(self, wa_id: str, body: str, *, name: str | None = None,
                        context: str | None = None) -> Delivery:
        return await self._inbound(wa_id, name, "text", {"text": {"body": body}}, context)

    async def user_image(self, wa_id: str, data: bytes, *, mime_type: str = "image/jpeg",
                         caption: str | None = None, name: str | None = None) -> Delivery:
        media = self.store_media(data, mime_type)  # type: ignore[attr-defined]
        digest = base64.b64encode(hashlib.sha256(data).digest()).decode()  # as the webhook has it
        image: dict[str, Any] = {"id": media.id, "mime_type": mime_type, "sha256": digest}
        if caption is not None:
            image["caption"] = caption
        return await self._inbound(wa_id, name, "image", {"image": image}, None)

    async def user_location(self, wa_id: str, latitude: float, longitude: float, *,
                            name: str | None = None, place: str | None = None,
                            address: str | None = None) -> Delivery:
        location: dict[str, Any] = {"latitude": latitude, "longitude": longitude}
        if place is not None:
            location["name"] = place
        if address is not None:
            location["address"] = address
        return await self._inbound(wa_id, name, "location", {"location": location}, None)

    async def user_button_reply(self, wa_id: str, button_id: str, title: str | None = None, *,
                                context: str | None = None, name: str | None = None,
                                check: bool = True) -> Delivery:
        """The user taps a reply button of a message the face sent them (``context``: its id;
        by default the last one with buttons). With check=True the button must be on it; the
        title defaults to the button's."""
        context, options = self._tapped(wa_id, "button", context, check)
        if check and button_id not in options:
            raise LookupError(f"no reply button {button_id!r} on {context}: {options}")
        title = title if title is not None else options[button_id]["title"]
        reply = {"type": "button_reply", "button_reply": {"id": button_id, "title": title}}
        return await self._inbound(wa_id, name, "interactive", {"interactive": reply}, context)

    async def user_list_reply(self, wa_id: str, row_id: str, title: str | None = None, *,
                              description: str | None = None, context: str | None = None,
                              name: str | None = None, check: bool = True) -> Delivery:
        """The user picks a row of a list the face sent them (as ``user_button_reply``)."""
        context, options = self._tapped(wa_id, "list", context, check)
        if check and row_id not in options:
            raise LookupError(f"no list row {row_id!r} on {context}: {options}")
        shown = options.get(row_id, {})
        row: dict[str, Any] = {"id": row_id,
                               "title": title if title is not None else shown["title"]}
        if description is not None or shown.get("description") is not None:
            row["description"] = description if description is not None else shown["description"]
        reply = {"type": "list_reply", "list_reply": row}
        return await self._inbound(wa_id, name, "interactive", {"interactive": reply}, context)

    def _tapped(self, wa_id: str, kind: str, context: str | None,
                check: bool) -> tuple[str | None, dict[str, dict]]:
        """The message tapped (its id) and its options by id."""
        shown = [s for s in self.sent_to(wa_id)
                 if s.type == "interactive" and s.body["interactive"]["type"] == kind]
        if context is not None:
            shown = [s for s in shown if s.id == context]
        if not shown:
            if check:
                raise LookupError(f"no {kind} message {context or ''} sent to {wa_id}")
            return context, {}
        action = shown[-1].body["interactive"]["action"]
        if kind == "button":
            options = {b["reply"]["id"]: b["reply"] for b in action["buttons"]}
        else:
            options = {r["id"]: r for sec in action["sections"] for r in sec["rows"]}
        return shown[-1].id, options

    async def user_reads(self, message_id: str) -> Delivery:
        """The user read a message the face sent: a ``read`` status."""
        found = [s for s in self.sent if s.id == message_id]  # type: ignore[attr-defined]
        if not found:
            raise LookupError(f"no message {message_id} was sent")
        sent = found[0]
        sent.statuses.append("read")
        return await self.deliver({"statuses": [{  # type: ignore[attr-defined]
            "id": sent.id, "status": "read", "timestamp": str(int(self.now())),  # type: ignore
            "recipient_id": sent.to}]})

    def sent_to(self, wa_id: str) -> list["Sent"]:
        """The messages the face sent to a user and the platform accepted, oldest first."""
        return [s for s in self.sent if s.to == wa_id]  # type: ignore[attr-defined]

    async def redeliver_message(self, message_id: str) -> int | None:
        """Deliver again the webhook that carried a user's message (same bytes, same id)."""
        found = [d for d in self.deliveries  # type: ignore[attr-defined]
                 if d.message_id == message_id]
        if not found:
            raise LookupError(f"no webhook carried message {message_id}")
        return await self.redeliver(found[-1])  # type: ignore[attr-defined]

    async def verify(self, url: str, verify_token: str) -> dict[str, Any]:
        return await verify_endpoint(url, verify_token)

    async def _inbound(self, wa_id: str, name: str | None, kind: str, content: dict,
                       context: str | None) -> Delivery:
        """`name`: the profile's name from now on (the platform sends it with every message;
        by default the one the user had, at first "Cidadão")."""
        now = self.now()  # type: ignore[attr-defined]
        self.last_inbound[wa_id] = now  # type: ignore[attr-defined]
        name = name or self.profiles.get(wa_id, "Cidadão")  # type: ignore[attr-defined]
        self.profiles[wa_id] = name  # type: ignore[attr-defined]
        message: dict[str, Any] = {"from": wa_id, "id": new_wamid(),
                                   "timestamp": str(int(now)), "type": kind, **content}
        if context is not None:
            message["context"] = {"from": self.display_phone_number,  # type: ignore
                                  "id": context}
        value = {"contacts": [{"profile": {"name": name}, "wa_id": wa_id}],
                 "messages": [message]}
        return await self.deliver(value, message["id"])  # type: ignore[attr-defined]

    # ------------------------------------------------------------ over HTTP

    def add_control_routes(self, app: web.Application) -> None:
        r = app.router
        r.add_post("/_standin/clock", self._c_clock)
        r.add_post("/_standin/users/{wa_id}/{kind}", self._c_user)
        r.add_get("/_standin/users/{wa_id}/sent", self._c_sent)
        r.add_post("/_standin/redeliver", self._c_redeliver)
        r.add_post("/_standin/verify", self._c_verify)
        r.add_post("/_standin/webhook", self._c_webhook)

    async def _c_clock(self, request: web.Request) -> web.Response:
        body = await _json(request)
        now = self.advance(float(body.get("advance", 0)))  # type: ignore[attr-defined]
        return web.json_response({"now": now})

    async def _c_user(self, request: web.Request) -> web.Response:
        wa_id, kind = request.match_info["wa_id"], request.match_info["kind"]
        b = await _json(request)
        try:
            d = await self._user_kind(wa_id, kind, b, b.get("name"))
        except LookupError as e:
            raise web.HTTPNotFound(text=str(e)) from None
        return web.json_response({"message_id": d.message_id, "statuses": d.statuses})

    async def _user_kind(self, wa_id: str, kind: str, b: dict, name: str | None) -> Delivery:
        if kind == "text":
            d = await self.user_text(wa_id, b["body"], name=name, context=b.get("context"))
        elif kind == "image":
            d = await self.user_image(wa_id, base64.b64decode(b["data_base64"]),
                                      mime_type=b.get("mime_type", "image/jpeg"),
                                      caption=b.get("caption"), name=name)
        elif kind == "location":
            d = await self.user_location(wa_id, b["latitude"], b["longitude"], name=name,
                                         place=b.get("place"), address=b.get("address"))
        elif kind == "button_reply":
            d = await self.user_button_reply(wa_id, b["id"], b.get("title"), name=name,
                                             context=b.get("context"))
        elif kind == "list_reply":
            d = await self.user_list_reply(wa_id, b["id"], b.get("title"), name=name,
                                           description=b.get("description"),
                                           context=b.get("context"))
        else:
            raise LookupError(f"unknown kind {kind}")
        return d

    async def _c_sent(self, request: web.Request) -> web.Response:
        return web.json_response([
            {"id": s.id, "to": s.to, "type": s.type, "at": s.at, "statuses": s.statuses,
             "body": s.body}
            for s in self.sent_to(request.match_info["wa_id"])
        ])

    async def _c_redeliver(self, request: web.Request) -> web.Response:
        try:
            status = await self.redeliver_message((await _json(request))["message_id"])
        except LookupError as e:
            raise web.HTTPNotFound(text=str(e)) from None
        return web.json_response({"status": status})

    async def _c_verify(self, request: web.Request) -> web.Response:
        b = await _json(request)
        return web.json_response(await self.verify(b["url"], b["verify_token"]))

    async def _c_webhook(self, request: web.Request) -> web.Response:
        self.webhook_url = (await _json(request)).get("url")
        return web.json_response({"url": self.webhook_url})


async def _json(request: web.Request) -> dict:
    try:
        body = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="a JSON object is expected") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="a JSON object is expected")
    return body
