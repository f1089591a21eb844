"""What the tests share, imported by name (no tests here).

Fixtures, loaded for every test by `pytest_plugins` in tests/conftest.py: core_fixtures
(`clock`, `make_core`, `core`, `photo`), bot_chat (`bot`), panel (`panel`), browser
(`chromium`, `serve`, `shots`) and conversation_walk (`conversation_walk`).

Helpers, by who acts or what is tested: bot_chat and bot_process (the citizen's chat, the real
bot process), inspector, owner_chat and owner_cases (the inspector's and the owner's flows),
panel, panel_cases and queue_cases (the staff panel), paper_cases, paper_flow, pdf_layout and
document_samples (the papers), public_pages (the public pages), open311, payments,
hostile_media, lgpd_fixtures, step_cases, task_cases, fault_figures, and law_cases (each law's
YAML cases, found beside the law)."""
