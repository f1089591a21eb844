"""The municipalities one installation serves (core.municipality.City is what services see).
A field left empty keeps the installation's setting of the same name. Imported by
core.storage.models' users, so it shares Base's metadata."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Float, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from core.storage.models import Base
from core.storage.types import utcnow


class Municipality(Base):
    __tablename__ = "municipalities"
    #: The city's slug: its cases, tariffs, closures, staff and inspectors carry it
    slug: Mapped[str] = mapped_column(String(60), primary_key=True)
    #: Its law module (core.laws registry); usually the slug itself
    law: Mapped[str] = mapped_column(String(60))
    name: Mapped[str] = mapped_column(String(120))
    uf: Mapped[str] = mapped_column(String(2))
    ibge_code: Mapped[str] = mapped_column(String(7), default="")
    #: GeoJSON (Polygon / MultiPolygon, holes kept); None: a circle around the centre
    boundary: Mapped[str | None] = mapped_column(Text)
    centre_lat: Mapped[float | None] = mapped_column(Float)
    centre_lon: Mapped[float | None] = mapped_column(Float)
    radius_m: Mapped[float | None] = mapped_column(Float)
    office_address: Mapped[str] = mapped_column(String(300), default="")
    office_phone: Mapped[str] = mapped_column(String(60), default="")
    office_hours: Mapped[str] = mapped_column(String(200), default="")
    office_lat: Mapped[float | None] = mapped_column(Float)
    office_lon: Mapped[float | None] = mapped_column(Float)
    depot_address: Mapped[str] = mapped_column(String(300), default="")
    depot_hours: Mapped[str] = mapped_column(String(200), default="")
    dpo_contact: Mapped[str] = mapped_column(String(200), default="")
    pix_key: Mapped[str] = mapped_column(String(77), default="")
    pix_merchant_name: Mapped[str] = mapped_column(String(25), default="")
    pix_merchant_city: Mapped[str] = mapped_column(String(15), default="")
    payment_guia_instructions: Mapped[str] = mapped_column(Text, default="")
    open311_jurisdiction_id: Mapped[str] = mapped_column(String(120), default="")
    #: SHA-256 of the city's Open311 API key (POST); empty: only OPEN311_API_KEY, and only
    #: for the settings' own city
    open311_key_sha256: Mapped[str] = mapped_column(String(64), default="")
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
