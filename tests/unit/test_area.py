"""The city's area: a point outside it is refused before a report is written."""
from __future__ import annotations

import json

from core.area import CityArea
from core.laws import get_law
from core.services.context import Core
from core.settings import Settings

BH = (-19.9167, -43.9345)  # Belo Horizonte


def test_default_area_is_the_law_modules_centre_and_radius():
    law = get_law("dores-do-indaia")
    area = CityArea(law.city, law.centre, law.radius_m)
    assert area.contains(*law.centre)
    assert area.contains(law.centre[0] + 0.03, law.centre[1])  # ~3.3 km north
    assert not area.contains(*BH)


def test_geojson_boundary_with_a_hole_free_polygon_and_multipolygon(tmp_path):
    square = [[-45.62, -19.48], [-45.58, -19.48], [-45.58, -19.44], [-45.62, -19.44],
              [-45.62, -19.48]]
    far = [[-43.95, -19.93], [-43.92, -19.93], [-43.92, -19.90], [-43.95, -19.93]]
    doc = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon",
                                                           "coordinates": [square]}},
        {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon",
                                                           "coordinates": [[far]]}}]}
    path = tmp_path / "limite.geojson"
    path.write_text(json.dumps(doc), encoding="utf-8")
    area = CityArea.from_geojson("Dores do Indaiá", path)
    assert area.contains(-19.46, -45.60)
    assert not area.contains(-19.46, -45.57)  # just east of the square
    assert area.contains(-19.925, -43.94)  # inside the second polygon


def test_settings_choose_the_boundary_file(tmp_path):
    path = tmp_path / "limite.geojson"
    path.write_text(json.dumps({"type": "Polygon", "coordinates": [[
        [0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]}), encoding="utf-8")
    s = Settings(_env_file=None, city_boundary_file=path)
    core = Core(None, get_law("dores-do-indaia"), s, None)  # type: ignore[arg-type]
    assert core.area.contains(0.5, 0.5) and not core.area.contains(*get_law(
        "dores-do-indaia").centre)
