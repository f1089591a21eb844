"""Runtime settings, read from the environment and `.env` (pydantic-settings).

Every variable is documented in `.env.example`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, IPvAnyNetwork, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from core.formatting import TZ_NAME


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    municipality: str = Field("dores-do-indaia", description="Slug of the city's law module")
    data_dir: Path = Field(Path("data"), description="Where the SQLite file and evidence live")
    database_url: str = Field("", description="SQLAlchemy async URL; empty = SQLite in DATA_DIR")
    timezone: str = TZ_NAME

    # Telegram
    telegram_bot_token: str = ""
    telegram_api_url: str = "https://api.telegram.org"
    telegram_transport: Literal["aiohttp", "httpx"] = "aiohttp"
    telegram_bot_username: str = ""  # owner links: https://t.me/<username>?start=<case code>
    webhook_url: str = ""
    webhook_secret: str = ""
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    telegram_max_rate: float = Field(30.0, gt=0, description="Messages a second the whole bot "
                                     "may send, all workers together, counted in the database "
                                     "(Telegram: about 30; above 1000, e.g. a local stand-in, "
                                     "each worker counts alone)")
    telegram_chat_interval_s: float = Field(1.0, ge=0, description="Seconds between two "
                                            "messages to one chat, all workers together "
                                            "(Telegram: 1; 0: no pause)")
    telegram_chat_burst: int = Field(3, ge=1, description="Messages a chat may get at once "
                                     "before the pause (Telegram allows short bursts): a "
                                     "step's answer in parts — album, pin, text — goes at once")

    # WhatsApp (Cloud API): the face runs whenever the number, token and app secret are set
    whatsapp_phone_number_id: str = ""
    whatsapp_access_token: str = ""
    whatsapp_app_secret: str = ""  # signs every webhook (X-Hub-Signature-256)
    whatsapp_verify_token: str = ""  # the subscription handshake's hub.verify_token
    whatsapp_graph_url: str = "https://graph.facebook.com/v23.0"
    whatsapp_webhook_listen: str = "127.0.0.1"
    whatsapp_webhook_port: int = 8444
    #: the approved template for a case's update after the 24 hours (body: {{1}} the
    #: protocol, {{2}} the new situation); empty: such updates wait for the person to write
    whatsapp_template_update: str = ""
    #: the template's body has a third parameter, {{3}}: the case's public status page
    #: (PUBLIC_URL/publico/protocolo/<protocol>); the template must then be approved so
    whatsapp_template_link: bool = False
    whatsapp_template_language: str = "pt_BR"
    #: the number people write to, as digits with the country code (5537999990000): printed
    #: on the notices beside the Telegram link, https://wa.me/<number>?text=<case code>
    whatsapp_number: str = ""

    @field_validator("whatsapp_number")
    @classmethod
    def _digits(cls, value: str) -> str:
        digits = re.sub(r"\D", "", value)
        if value.strip() and not 10 <= len(digits) <= 15:
            raise ValueError("WHATSAPP_NUMBER: o número com DDI e DDD, só dígitos "
                             "(ex.: 5537999990000)")
        return digits

    @property
    def whatsapp_enabled(self) -> bool:
        return bool(self.whatsapp_phone_number_id and self.whatsapp_access_token
                    and self.whatsapp_app_secret)

    @property
    def whatsapp_link_number(self) -> str:
        """The number the papers print for WhatsApp: only while the face runs."""
        return self.whatsapp_number if self.whatsapp_enabled else ""

    # City area and geocoding
    city_center_lat: float | None = None
    city_center_lon: float | None = None
    city_radius_m: float | None = None
    city_boundary_file: Path | None = None
    nominatim_url: str = "https://nominatim.openstreetmap.org"
    geocoding_timeout_s: float = 4.0
    duplicate_radius_m: float = 50.0
    # The web report: a confirmation sooner than this after its first step is a program's
    web_report_min_seconds: float = Field(8.0, ge=0)

    # LGPD and the depot
    dpo_contact: str = "encarregado@prefeitura.example"
    evidence_retention_days: int = 1825
    depot_address: str = "Pátio municipal (endereço a definir pela Secretaria de Administração)"
    depot_hours: str = "segunda a sexta, das 8h às 17h"
    # The office printed on every legal document (where the owner asks and answers)
    office_address: str = ""
    office_phone: str = ""
    office_hours: str = "segunda a sexta, das 8h às 17h"
    # Where the inspectors' day starts when they have not shared their location today (the
    # route of the day); empty: the city's centre
    office_lat: float | None = None
    office_lon: float | None = None
    # Paying the fees: a static PIX BR Code (all three set) or the city's guia (DAM)
    pix_key: str = Field("", description="PIX key of the city's account; empty = no PIX")
    pix_merchant_name: str = Field("", description="Beneficiary name in the BR Code (≤ 25, "
                                   "accents removed)")
    pix_merchant_city: str = Field("", description="Beneficiary city in the BR Code (≤ 15)")
    payment_guia_instructions: str = Field("", description="Where the city collects by guia "
                                           "(DAM): how the owner gets and pays it; set, no "
                                           "PIX is offered")

    # E-mail updates for people without Telegram (core.services.messaging.email)
    smtp_url: str = Field("", description="smtp://user:pass@host:587 (STARTTLS) or "
                          "smtps://user:pass@host:465 (TLS); empty = no e-mail sent")
    smtp_from: str = Field("", description="The From of every e-mail, e.g. Prefeitura "
                           "<avisos@prefeitura.example>")
    public_url: str = Field("", description="The public address of the panel's public pages "
                            "(https://…, without /publico): the e-mails' links")

    # Admin panel
    admin_host: str = "127.0.0.1"
    admin_port: int = 8081
    admin_secret_key: str = ""
    map_tile_url: str = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    admin_cookie_secure: bool = Field(False, description="Secure cookies (panel behind HTTPS)")
    trusted_proxies: Annotated[list[IPvAnyNetwork], NoDecode] = Field(
        default_factory=list, description="Reverse proxies whose X-Forwarded-For is believed "
        "(admin.visitor): addresses or CIDR networks, comma-separated; empty = none")
    open311_api_key: str = ""
    open311_jurisdiction_id: str = Field("", description="Open311 jurisdiction_id; empty = "
                                         "single jurisdiction, any value accepted")
    open311_fetch_media: bool = Field(False, description="Download a POST's media_url")
    open311_fetch_timeout_s: float = 5.0
    open311_fetch_max_bytes: int = 10 * 1024 ** 2
    open311_post_limit: int = Field(60, description="Open311 POSTs per API key in a window")
    open311_post_window_s: int = Field(600, description="That window, in seconds")

    # Operations: /healthz, /readyz and /metrics on the panel and on the bot's listener
    ready_sweep_late_s: float = Field(900.0, gt=0, description="/readyz: the periodic job is "
                                      "late once its last run is this old (it runs every "
                                      "300 s)")
    ready_outbox_max_age_s: float = Field(900.0, gt=0, description="/readyz: an outbox is stuck "
                                          "once its oldest waiting message is this old")
    bot_health_listen: str = "127.0.0.1"
    bot_health_port: int = Field(0, ge=0, description="In polling mode, the port of the bot's "
                                 "own listener (/healthz, /readyz, /metrics); 0 = none. In "
                                 "webhook mode they are on the webhook's listener")
    metrics_token: str = Field("", description="/metrics answers only to Authorization: "
                               "Bearer <token>; empty = no metrics at all (404)")
    log_format: Literal["text", "json"] = Field("text", description="text: one readable "
                                                "line per event; json: one JSON object a "
                                                "line, for log shippers (core.logs)")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "INFO", description="The lowest level logged")

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _case(cls, value: object) -> object:
        if isinstance(value, str):
            return value.strip().upper() if value.strip().upper() in {
                "DEBUG", "INFO", "WARNING", "ERROR"} else value.strip().lower()
        return value

    @field_validator("smtp_url")
    @classmethod
    def _smtp_scheme(cls, value: str) -> str:
        if value.strip() and not value.strip().startswith(("smtp://", "smtps://")):
            raise ValueError("SMTP_URL deve começar com smtp:// (STARTTLS) ou smtps:// (TLS)")
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _comma_separated(cls, value):
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'vialivre.sqlite3').resolve()}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
