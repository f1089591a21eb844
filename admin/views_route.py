"""An inspector's route of the day (/fiscais/{id}/rota) and the assignment of the cases inside
a box on the map (/fiscais/atribuir-area): server-rendered, readable without JavaScript (the
route's sketch is an SVG drawn here; the box is four numbers, which the map fills when
JavaScript runs). Rules live in core.services.inspectors.route and .area_assign."""
from __future__ import annotations

import json
import math

from aiohttp import web

from admin import params
from admin.web import core_of, render, require, user_of
from core.services import staff as pq
from core.services.errors import InvalidInput
from core.services.inspectors.area_assign import (assign_in_box, assignable_points,
                                                  parse_box)
from core.services.inspectors.route import DayRoute, km, route_for_inspector

AREA = "/fiscais/atribuir-area"


def setup(app: web.Application) -> None:
    r = app.router
    r.add_get("/fiscais/{id:\\d+}/rota", route_page)
    r.add_get(AREA, area_page)
    r.add_post(AREA, area_post)


def sketch(route: DayRoute, width: int = 640, height: int = 360) -> dict:
    """The route drawn on a plane (equirectangular, north up): the start, the numbered stops
    and the path between them, in SVG coordinates."""
    points = [(route.start.lat, route.start.lon), *[(s.lat, s.lon) for s in route.stops]]
    lats, lons = [p[0] for p in points], [p[1] for p in points]
    squeeze = math.cos(math.radians(sum(lats) / len(lats)))
    span_x = max((max(lons) - min(lons)) * squeeze, 1e-4)
    span_y = max(max(lats) - min(lats), 1e-4)
    pad = 30
    scale = min((width - 2 * pad) / span_x, (height - 2 * pad) / span_y)
    off_x = (width - span_x * scale) / 2
    off_y = (height - span_y * scale) / 2

    def xy(lat: float, lon: float) -> tuple[float, float]:
        return (round(off_x + (lon - min(lons)) * squeeze * scale, 1),
                round(height - off_y - (lat - min(lats)) * scale, 1))

    dots = [xy(*p) for p in points]
    return {"width": width, "height": height, "start": dots[0],
            "stops": list(zip(route.stops, dots[1:])),
            "path": " ".join(f"{x},{y}" for x, y in dots)}


@require()
async def route_page(request: web.Request) -> web.Response:
    found = params.int_id(request.match_info["id"], "Identificador")
    if found is None:
        raise web.HTTPNotFound()
    route = await route_for_inspector(core_of(request), found)
    return render(request, "route.html", {"route": route, "km": km,
                                          "sketch": sketch(route) if route.stops else None})


def _inspector_id(form) -> int | None:
    try:
        return params.int_id(form.get("inspector_id"), "Fiscal")
    except InvalidInput as exc:
        raise InvalidInput(exc.message, "inspector_id") from None


@require()
async def area_page(request: web.Request) -> web.Response:
    core = core_of(request)
    points = await assignable_points(core)
    lat, lon = core.area.centre
    return render(request, "area.html", {
        "action": AREA, "inspectors": await pq.inspectors(core, only_active=True),
        "centre": (lat, lon), "tile_url": core.settings.map_tile_url,
        "points_json": json.dumps([[p.protocol, p.lat, p.lon, p.label] for p in points],
                                  ensure_ascii=False),
        "points": len(points), "result": None})


@require()
async def area_post(request: web.Request) -> web.Response:
    """Give the chosen inspector every open case inside the box; bad input is a 400 with the
    form kept (admin.kept_form), a case the inspector may not take is listed with why."""
    core = core_of(request)
    form = await request.post()
    box = parse_box(form)
    done = await assign_in_box(core, box, _inspector_id(form), user_of(request).actor())
    return render(request, "area_done.html", {"result": done, "box": box})
