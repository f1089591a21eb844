"""Via Livre rules core: the laws as code, the legal calendar, the case lifecycle,
fees, identifiers, and the application services and storage both faces share.

Nothing in this package imports Telegram or HTTP frameworks (tests/integration/test_core_purity.py).
"""
