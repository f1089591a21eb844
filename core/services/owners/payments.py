"""How the owner pays the fees owed today: a static PIX BR Code of the one fee statement's
total (core.services.cases.fee_statement, as the owner's view shows it), or the city's guia (DAM)
instructions. Settings PIX_KEY, PIX_MERCHANT_NAME, PIX_MERCHANT_CITY and
PAYMENT_GUIA_INSTRUCTIONS; no PIX while a tariff is still a reference value (the amount would
be an estimate)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import segno

from core import pix

#: What the owner reads under the PIX code.
PIX_HINT = ("Pague pelo aplicativo do seu banco: PIX > Pix copia e cola (cole o código) ou "
            "leia o QR code. O valor vale para hoje; depois, cada dia no pátio aumenta o total.")


@dataclass(frozen=True)
class PaymentOffer:
    """The way to pay offered to the owner: `pix` (the "copia e cola" text, also the QR
    code's content) or `guia` (the city's instructions)."""

    amount: Decimal
    txid: str
    pix: str = ""
    guia: str = ""

    def qr_svg_uri(self) -> str:
        """The PIX QR code as an inline SVG data URI (no external request)."""
        return segno.make(self.pix, error="m", micro=False).svg_data_uri(scale=4, border=4)


def pix_configured(settings: Any) -> bool:
    return all((getattr(settings, name, "") or "").strip()
               for name in ("pix_key", "pix_merchant_name", "pix_merchant_city"))


def payment_offer(settings: Any, case_code: str, total: Decimal | None, estimate: bool
                  ) -> PaymentOffer | None:
    """The PIX of `total` (the statement's total today) with the case as txid, or the guia's
    instructions; None when nothing is offered (no settings, an estimate, nothing owed)."""
    txid = pix.txid_of(case_code)
    guia = (getattr(settings, "payment_guia_instructions", "") or "").strip()
    if guia:
        return PaymentOffer(total or Decimal(0), txid, guia=guia)
    if total is None or total <= 0 or estimate or not pix_configured(settings):
        return None
    code = pix.static_brcode(settings.pix_key, settings.pix_merchant_name,
                             settings.pix_merchant_city, total, txid)
    return PaymentOffer(total, txid, pix=code)
