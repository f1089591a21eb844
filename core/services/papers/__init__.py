"""The legal papers of a case: build the document's data from the recorded facts, render it
(core.documents), keep it as evidence with its SHA-256, issue it again, and never print a
placeholder as a firm value. The kinds of document a step issues — issuer, name, button — are
one registry (kinds).

May import: core's pure rules, core.storage, and core.services.{context, errors, cases,
inspectors, messaging}."""
