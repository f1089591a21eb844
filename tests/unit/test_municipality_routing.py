"""Which city a pin is in (core.municipality.CityMap), as properties: holes belong to no city,
every part of a multipolygon to its own, a point outside every boundary to none, the STRtree's
answer is the brute-force answer, and a point that is not on Earth is in no city."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st
from shapely.geometry import MultiPolygon, Point, Polygon, box

from core.area import CityArea
from core.laws import get_law
from core.municipality import City, CityMap

LAW = get_law("dracena")
#: Cities are drawn in a grid of 1° cells (one city per cell at most): they never overlap
LON0, LAT0, COLUMNS, ROWS = -56.0, -25.0, 6, 6


def _city(slug: str, shape) -> City:
    return City(slug=slug, law=LAW, name=slug.title(), uf="SP", ibge_code="3514403",
                area=CityArea(slug, (shape.centroid.y, shape.centroid.x), None, shape))


fractions = st.floats(0.05, 0.95)


@st.composite
def rectangle_in_cell(draw, col: int, row: int):
    """A rectangle strictly inside grid cell (col, row)."""
    x0, x1 = sorted((draw(fractions), draw(fractions)))
    y0, y1 = sorted((draw(fractions), draw(fractions)))
    x1, y1 = max(x1, x0 + 0.02), max(y1, y0 + 0.02)
    return box(LON0 + col + x0, LAT0 + row + y0, LON0 + col + x1, LAT0 + row + y1)


@st.composite
def holed_city(draw):
    """A square city with a rectangular hole, and a point strictly inside the hole."""
    outer = box(-51.6, -21.6, -51.4, -21.4)
    x0, x1 = sorted((draw(st.floats(0.1, 0.9)), draw(st.floats(0.1, 0.9))))
    y0, y1 = sorted((draw(st.floats(0.1, 0.9)), draw(st.floats(0.1, 0.9))))
    x1, y1 = max(x1, x0 + 0.01), max(y1, y0 + 0.01)
    hole = [(-51.6 + 0.2 * x, -21.6 + 0.2 * y) for x, y in
            ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    u, v = draw(st.floats(0.01, 0.99)), draw(st.floats(0.01, 0.99))
    point = (-21.6 + 0.2 * (y0 + v * (y1 - y0)), -51.6 + 0.2 * (x0 + u * (x1 - x0)))
    return Polygon(outer.exterior.coords, [hole]), point


@given(holed_city())
def test_a_point_inside_a_hole_is_in_no_city(case):
    shape, (lat, lon) = case
    cities = CityMap([_city("furada", shape)])
    assert cities.at(lat, lon) is None


@st.composite
def layouts(draw):
    """Up to six cities, each in cells of its own; some are multipolygons (several cells)."""
    cells = draw(st.permutations([(c, r) for c in range(COLUMNS) for r in range(ROWS)]))
    n = draw(st.integers(1, 6))
    cities, used = [], 0
    for i in range(n):
        parts = draw(st.integers(1, 3))
        shapes = [draw(rectangle_in_cell(*cells[used + k])) for k in range(parts)]
        used += parts
        shape = shapes[0] if parts == 1 else MultiPolygon(shapes)
        cities.append(_city(f"cidade-{i}", shape))
    return cities


@given(layouts(), st.data())
def test_each_part_of_a_multipolygon_routes_to_its_city(cities, data):
    routes = CityMap(cities)
    for city in cities:
        parts = getattr(city.area.shape, "geoms", [city.area.shape])
        for part in parts:
            x0, y0, x1, y1 = part.bounds
            u, v = data.draw(fractions), data.draw(fractions)
            lat, lon = y0 + v * (y1 - y0), x0 + u * (x1 - x0)
            assert routes.at(lat, lon) is city


@given(layouts(), st.floats(-26, -18), st.floats(-57, -49))
def test_a_point_on_no_boundary_is_in_no_city(cities, lat, lon):
    if any(c.area.shape.covers(Point(lon, lat)) for c in cities):
        return  # inside one: the next property's business
    assert CityMap(cities).at(lat, lon) is None


@settings(max_examples=60)
@given(layouts(), st.lists(st.tuples(st.floats(-25.5, -18.5), st.floats(-56.5, -49.5)),
                           min_size=1, max_size=40))
def test_routing_agrees_with_a_brute_force_check_of_every_boundary(cities, points):
    routes = CityMap(cities)
    for lat, lon in points:
        covering = [c for c in cities if c.area.shape.covers(Point(lon, lat))]
        assert len(covering) <= 1
        assert routes.at(lat, lon) is (covering[0] if covering else None)


@given(layouts(), st.one_of(
    st.tuples(st.just(math.nan), st.floats(-57, -49)),
    st.tuples(st.floats(-26, -18), st.just(math.nan)),
    st.tuples(st.sampled_from([math.inf, -math.inf]), st.floats(-57, -49)),
    st.tuples(st.floats(90.0001, 1e9) | st.floats(-1e9, -90.0001), st.floats(-57, -49)),
    st.tuples(st.floats(-26, -18), st.floats(180.0001, 1e9) | st.floats(-1e9, -180.0001))))
def test_a_point_that_is_not_on_earth_is_in_no_city(cities, point):
    assert CityMap(cities).at(*point) is None


def test_a_city_without_a_boundary_holds_the_points_of_its_circle():
    """A city recorded without a drawn boundary covers its law's circle (Dracena: 7 km)."""
    circle = City(slug="dracena", law=LAW, name="Dracena", uf="SP", ibge_code="3514403",
                  area=CityArea("Dracena", LAW.centre, LAW.radius_m))
    routes = CityMap([circle, _city("vizinha", box(-51.0, -21.6, -50.8, -21.4))])
    assert routes.at(*LAW.centre) is circle
    assert routes.at(LAW.centre[0] + 0.1, LAW.centre[1]) is None  # ~11 km north
    assert routes.at(-21.5, -50.9).slug == "vizinha"
