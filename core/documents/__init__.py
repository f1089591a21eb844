"""Legal documents as PDFs (fpdf2 + segno QR codes). Pure functions: data in, bytes out;
no database, no Telegram, no calendar (deadlines arrive already spelled out)."""
from core.documents.affixed_notice import affixed_notice_pdf, day_notices_pdf
from core.documents.auto_infracao import auto_infracao_pdf, intimacao_pdf, low_value_note_pdf
from core.documents.edital import edital_pdf, edital_text
from core.documents.notification import notification_pdf
from core.documents.owner_summary import owner_summary_pdf
from core.documents.release_term import release_term_pdf
from core.documents.removal_term import removal_term_pdf

__all__ = [
    "affixed_notice_pdf", "auto_infracao_pdf", "day_notices_pdf", "edital_pdf", "edital_text", "intimacao_pdf",
    "low_value_note_pdf", "notification_pdf", "owner_summary_pdf", "release_term_pdf", "removal_term_pdf",
]
