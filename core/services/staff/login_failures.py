"""Wrong passwords at the panel, counted in the database so every panel process (replicas
behind one address) throttles the same login attempts (admin.security.LoginThrottle); the
rows live in core.storage.login_failures."""
from __future__ import annotations

from core.storage.login_failures import clear, record, since

__all__ = ["clear", "record", "since"]
