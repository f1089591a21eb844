"""The application services both faces (bot/, admin/) share: one use case per function,
each in the room of the person who acts.

- cases/       a case's own life: transitions, steps with their papers, deadlines, evidence
- papers/      the legal documents: built, rendered, kept, issued again
- citizens/    reports, status, a citizen's own data
- inspectors/  tasks, the on-site forms, warnings, the day's notices
- owners/      reaching a case as its owner, the owner's view, statements, payment
- staff/       the panel's work: accounts, queue, counter intake, depot, editais, indicators
- public/      the public projection, map, owner's web page and Open311
- messaging/   the outbox, delivery, sending limits, the durable conversation

At the top: context (Core: what every use case needs), errors, geocoding, roles and the
periodic job. A face imports services, never core.storage.

Each room (a package's __init__, or a top-level module) says in its docstring what it may
import ("May import: ..."); tests/unit/test_layers.py holds every room to it, keeps at most 15
entries here and refuses another module's private name."""
