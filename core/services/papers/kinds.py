"""The legal documents a step issues, by kind: one registry for the bot, the panel and the
re-issue (the issuer, the document's Portuguese name, the short text of its button).

A step names its document by kind (core.lifecycle.Transition.document); the kind's issuer
produces it in the step's own transaction (core.services.cases.steps) and again on request
(core.services.papers.reissue), and the kind is what the timeline records ("document" of a
"document_issued" event). The documents of both laws are below (Dores Art. 4º, I (Anexo I);
Art. 4º, II, a; Art. 6º, I, b; Dracena Art. 2º; Art. 2º, §3º; Art. 4º, §1º; Art. 4º and
Art. 6º). A city's own documents are written in its own folder and named by its law
(Law.papers), so a new city adds a paper without an edit here.

Every issuer is called as issue(core, protocol, by, *, session=None, recorded=None) and
returns (sha256, filename, bytes); `recorded` prints it again as first issued."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable, Mapping

from core.laws.base import Law
from core.services.inspectors.day_notices import issue_affixed_notice
from core.services.papers import documents as docs
from core.services.papers import release_term

Issuer = Callable[..., Awaitable[docs.Issued]]


@dataclass(frozen=True)
class DocumentKind:
    code: str  # recorded on the timeline ("document" of the "document_issued" event)
    label: str  # Portuguese: the document's name (panel, chat)
    button: str  # Portuguese: its name on a phone's "emitir de novo" button (a few words)
    issue: Issuer


#: The documents the two laws' steps issue.
SHARED: Mapping[str, DocumentKind] = {k.code: k for k in (
    DocumentKind("notificacao", "Notificação ao proprietário", "Notificação",
                 docs.issue_notification),
    DocumentKind("notificacao_afixada", "Notificação afixada no objeto", "Notificação afixada",
                 issue_affixed_notice),
    DocumentKind("termo_recolhimento", "Termo de recolhimento", "Termo de recolhimento",
                 docs.issue_removal_term),
    DocumentKind("auto_infracao", "Auto de infração", "Auto de infração",
                 docs.issue_auto_infracao),
    DocumentKind("intimacao", "Intimação", "Intimação", docs.issue_intimacao),
    DocumentKind("nota_apreensao", "Nota de apreensão", "Nota de apreensão",
                 docs.issue_low_value_note),
    # the paper's name, abridged on its button
    DocumentKind("registro_apreensao", "Auto de infração e apreensão", "Auto infr. e apreensão",
                 docs.issue_apprehension),
    # Dores Art. 3º, §3º and Art. 9º, I; Dracena Art. 7º: issued by the depot's release
    # (core.services.staff.release), not by an inspector's step
    DocumentKind(release_term.KIND, release_term.LABEL, "Termo de liberação",
                 release_term.issue_release_term),
)}


def document_kinds(law: Law) -> dict[str, DocumentKind]:
    """Every document `law`'s steps may issue: the shared ones and the law's own."""
    own = law.papers() if law.papers is not None else ()
    return {**SHARED, **{k.code: k for k in own}}


def document_kind(law: Law, code: str) -> DocumentKind | None:
    """The document `code` of `law` (None: not a document a step issues)."""
    return document_kinds(law).get(code)
