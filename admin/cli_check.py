"""`python -m admin check`: what is still missing or wrong in the settings before going live.

Each finding is one Portuguese line on standard output, "ERRO:" (it blocks going live) or
"AVISO:" (worth a look); the last line sums them up. Exit status 1 while there is an ERRO, 0
otherwise. It reads the settings and the database (the tariffs in force, the cities served)
and tries the SMTP server (a short connection, with the login when SMTP_URL has one); it
changes nothing.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from core.formatting import plural
from core.settings import Settings, get_settings

if TYPE_CHECKING:
    from core.services.context import Core

SMTP_TIMEOUT_S = 5.0


@dataclass
class Findings:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def error(self, text: str) -> None:
        self.errors.append(text)

    def warn(self, text: str) -> None:
        self.warnings.append(text)


def add_parser(sub) -> None:
    sub.add_parser("check", help="conferir as configurações antes de entrar em produção",
                   description="Confere as configurações e o banco antes de entrar em "
                               "produção: tokens, endereços e tarifas provisórios, o servidor "
                               "SMTP, o webhook, PUBLIC_URL, METRICS_TOKEN. Cada problema numa "
                               "linha; sai com status 1 se algum impede a entrada em produção.")


def _settings_only(s: Settings, out: Findings) -> None:
    """What the settings alone say."""
    wa = [s.whatsapp_phone_number_id, s.whatsapp_access_token, s.whatsapp_app_secret]
    if not s.telegram_bot_token.strip() and not s.whatsapp_enabled:
        out.error("Falta TELEGRAM_BOT_TOKEN (o token do bot, dado pelo @BotFather), e o "
                  "WhatsApp não está configurado: o bot não tem como atender ninguém.")
    if any(v.strip() for v in wa) and not s.whatsapp_enabled:
        out.error("WhatsApp configurado pela metade: defina juntos WHATSAPP_PHONE_NUMBER_ID, "
                  "WHATSAPP_ACCESS_TOKEN e WHATSAPP_APP_SECRET (ou deixe os três vazios).")
    if s.whatsapp_enabled and not s.whatsapp_verify_token.strip():
        out.error("WHATSAPP_VERIFY_TOKEN está vazio: a Meta não consegue confirmar o webhook "
                  "do WhatsApp.")
    if s.webhook_url.strip():
        if not s.webhook_secret.strip():
            out.error("WEBHOOK_URL definido, mas WEBHOOK_SECRET está vazio: qualquer um poderia "
                      "chamar o webhook do bot. Defina um segredo (letras, dígitos, _ e -).")
        if urlsplit(s.webhook_url.strip()).scheme != "https":
            out.error("WEBHOOK_URL não começa com https://: o Telegram só chama webhooks em "
                      "HTTPS.")
    public = s.public_url.strip()
    if not public:
        out.error("PUBLIC_URL está vazio: os e-mails e os avisos não têm o endereço público "
                  "das páginas de acompanhamento (defina https://…).")
    elif urlsplit(public).scheme != "https" or not urlsplit(public).hostname:
        out.error(f"PUBLIC_URL ({public}) não é um endereço https://: as páginas públicas "
                  "devem ser servidas com HTTPS.")
    elif not s.admin_cookie_secure:
        out.warn("O painel é servido por HTTPS (PUBLIC_URL), mas ADMIN_COOKIE_SECURE=false: "
                 "os cookies de sessão deveriam ter a marca Secure (ADMIN_COOKIE_SECURE=true).")
    if s.smtp_url.strip() and not s.smtp_from.strip():
        out.error("SMTP_URL definido, mas SMTP_FROM está vazio: os e-mails não têm remetente.")
    if not s.smtp_url.strip():
        out.warn("SMTP_URL está vazio: nenhum e-mail é enviado; quem deixou só o e-mail é "
                 "avisado à mão (painel, \"Cidadãos a avisar\").")
    if not s.metrics_token.strip():
        out.warn("METRICS_TOKEN está vazio: /metrics não responde (sem monitoramento pelo "
                 "Prometheus).")


async def _smtp(s: Settings, out: Findings) -> None:
    """The SMTP server answers, and takes the login when there is one."""
    if not s.smtp_url.strip():
        return
    import aiosmtplib

    from core.services.messaging.email_sender import smtp_target
    try:
        target = smtp_target(s.smtp_url)
    except ValueError as exc:
        out.error(str(exc))
        return
    where = f"{target.host}:{target.port}"
    client = aiosmtplib.SMTP(hostname=target.host, port=target.port, use_tls=target.use_tls,
                             start_tls=target.start_tls, timeout=SMTP_TIMEOUT_S)
    try:
        await client.connect()
        if target.username:
            await client.login(target.username, target.password or "")
    except aiosmtplib.SMTPAuthenticationError as exc:
        out.error(f"O servidor SMTP ({where}) recusou o usuário e a senha de SMTP_URL "
                  f"({exc.code}).")
    except (aiosmtplib.SMTPException, OSError) as exc:
        out.error(f"O servidor SMTP ({where}) não respondeu em {SMTP_TIMEOUT_S:.0f} s "
                  f"({type(exc).__name__}): confira SMTP_URL e a rede.")
    finally:
        if client.is_connected:
            try:
                await client.quit()
            except (aiosmtplib.SMTPException, OSError):
                client.close()


async def _cities(core: Core, out: Findings) -> None:
    """Each city served: its depot and office, its DPO, its tariffs."""
    from core.services.papers import placeholders
    dpo_default = Settings.model_fields["dpo_contact"].default
    for city in core.cities:
        bound = core.for_city(city)
        c = bound.city

        def error(text: str, name: str = c.name) -> None:  # "Dracena: o …", or "O …" alone
            out.error(f"{name}: {text}" if core.many_cities else text[0].upper() + text[1:])

        if placeholders.depot_address_is_placeholder(c):
            error("o endereço do pátio ainda é provisório (DEPOT_ADDRESS): os documentos "
                  "dizem que ele falta.")
        if not (c.office_address or "").strip():
            error("falta o endereço do setor (OFFICE_ADDRESS): os documentos imprimem "
                  "\"a informar\".")
        if not (c.office_phone or "").strip():
            error("falta o telefone do setor (OFFICE_PHONE): os documentos imprimem "
                  "\"a informar\".")
        if not (c.dpo_contact or "").strip() or c.dpo_contact.strip() == dpo_default:
            error(f"o contato do encarregado de dados (DPO_CONTACT) ainda é o de exemplo "
                  f"({dpo_default}): a LGPD pede o contato real.")
        tariffs = await placeholders.placeholder_tariffs(bound)
        if tariffs:
            error(f"tarifas ainda com valor de referência: {', '.join(tariffs)}. Cadastre o "
                  "valor oficial no painel (Tarifas).")


async def check(s: Settings, core: Core | None = None) -> Findings:
    """Every finding for settings `s`, on `core` (else a Core opened, and closed, from `s`)."""
    from core.services.context import Core
    from core.services.errors import USER_ERRORS
    out = Findings()
    _settings_only(s, out)
    await _smtp(s, out)
    if core is not None:
        await _cities(core, out)
        return out
    try:
        opened = await Core.open(s)
    except USER_ERRORS as exc:
        out.error(f"O banco de dados não abriu: {exc.message}")
        return out
    except OSError as exc:
        out.error(f"O banco de dados não abriu ({type(exc).__name__}): confira DATABASE_URL.")
        return out
    try:
        await _cities(opened, out)
    finally:
        await opened.close()
    return out


def run(settings: Settings | None = None) -> int:
    found = asyncio.run(check(settings or get_settings()))
    for line in found.errors:
        print(f"ERRO: {line}")
    for line in found.warnings:
        print(f"AVISO: {line}")
    warnings = plural(len(found.warnings), "aviso", "avisos")
    if found.errors:
        errors = len(found.errors)
        stop = "impede" if errors == 1 else "impedem"
        print(f"{plural(errors, 'erro', 'erros')} {stop} a entrada em produção; {warnings}.")
        return 1
    print(f"Nada impede a entrada em produção; {warnings}.")
    return 0
