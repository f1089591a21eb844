"""SMTP_URL as the operator writes it: STARTTLS for smtp:// (required with a user, so a password
never goes in clear), TLS from the start for smtps://, a clear refusal for anything else."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from core.services.messaging.email import enabled
from core.services.messaging.email_sender import smtp_target
from core.settings import Settings


def test_smtp_with_a_user_requires_starttls_and_smtps_speaks_tls():
    t = smtp_target("smtp://avisos%40prefeitura.example:s%3Ag@smtp.example:587")
    assert (t.host, t.port, t.username, t.password) == ("smtp.example", 587,
                                                        "avisos@prefeitura.example", "s:g")
    assert (t.use_tls, t.start_tls) == (False, True)
    t = smtp_target("smtps://u:p@smtp.example")
    assert (t.port, t.use_tls, t.start_tls) == (465, True, False)
    t = smtp_target("smtp://relay.local")  # no user: STARTTLS when the server offers it
    assert (t.port, t.start_tls) == (25, None)


def test_other_schemes_are_refused_in_portuguese_and_email_needs_both_settings():
    with pytest.raises(ValidationError, match="SMTP_URL deve começar com smtp://"):
        Settings(_env_file=None, smtp_url="http://smtp.example")
    assert not enabled(Settings(_env_file=None, smtp_url="smtp://h"))
    assert not enabled(Settings(_env_file=None, public_url="https://x.example"))
    assert enabled(Settings(_env_file=None, smtp_url="smtp://h", public_url="https://x"))
