"""What kind of value each lifecycle fact holds, for the faces that ask for it: the bot's step
forms (core.services.inspectors.step_forms) and the panel's forms (admin/forms.py). One table, so both
ask for a fact the same way, and core.parsing.read_fact reads a typed answer by its kind for
both. Facts not listed are free text; a name ending in "_date" is a
date and one ending in "_at" a date and time.

The fee statement's facts are named here once (FEE_FACTS), so the bot's step form, the panel,
the owner's view, the documents and the CSV all read the same names."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

CRITERIA, PHOTOS, DATE, DATETIME, BOOL, PARTS = \
    "criteria", "photos", "date", "datetime", "bool", "parts"
CPF, ODOMETER, MONEY, NAMES, CHOICE, GOODS = "cpf", "odometer", "money", "names", "choice", "goods"
LONG, TEXT = "long", "text"
PLATE = "plate"
#: Quantities: a whole number of things (animals) and a weight in kilograms.
COUNT, WEIGHT = "count", "weight"

#: What a law's fee statement may charge by (Dracena Art. 7º: the taxes due; a) per animal
#: per day; b) per kilogram of goods per day). Stored canonical: "12.50", "3", "40.5".
TAXES_AMOUNT, ANIMALS, KILOGRAMS = "taxes_amount", "animals", "kilograms"
#: When the object was collected (Dores Art. 3º, caput: "contado da data de recolhimento").
COLLECTED_AT = "collected_at"

KINDS: dict[str, str] = {
    "abandonment_criteria": CRITERIA,
    "notice_photo": PHOTOS, "removal_photos": PHOTOS,
    "agreed_removal_by": DATE, "appeal_deadline": DATE,
    "copy_delivered": BOOL, "note_signed": BOOL, "perishable": BOOL,
    "release_checklist_confirmed": BOOL, "agent_signature": BOOL, "offender_signature": BOOL,
    "refusal_declaration": BOOL,
    "goods_list": GOODS, "goods_description": GOODS,
    "missing_parts": PARTS,
    "owner_document": CPF, "appellant_document": CPF,
    "plate": PLATE,
    "odometer": ODOMETER,
    "fine_amount": MONEY, "auction_proceeds": MONEY, "balance_amount": MONEY,
    TAXES_AMOUNT: MONEY, ANIMALS: COUNT, KILOGRAMS: WEIGHT,
    "witnesses": NAMES,
    "previous_case": CHOICE,
    **{f: LONG for f in ("reason", "inspection_notes", "reviewed_vehicle", "decision_text", "appeal_grounds",
                         "verification_notes", "owner_statement", "theft_suspicion_reason",
                         "police_response", "item_description", "sale_statement")},
}
#: Photo facts that take videos too: Dores Art. 6º, I, a, "ser fotografado ou filmado na
#: situação que se encontram, para servir como prova do abandono".
VIDEO_FACTS = {"removal_photos"}


def fact_kind(fact: str) -> str:
    if fact in KINDS:
        return KINDS[fact]
    if fact.endswith("_date"):
        return DATE
    if fact.endswith("_at"):
        return DATETIME
    return TEXT


def stored_decimal(value: Any) -> Decimal:
    """A stored money or quantity fact ("150.00", "3", 40.5) as a Decimal; absent → 0.

    Facts are stored canonical by the forms that parse them (a dot for decimals); a value
    that is not a number reads as 0 so a statement never fails on an old record."""
    if value in (None, ""):
        return Decimal(0)
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return Decimal(0)
