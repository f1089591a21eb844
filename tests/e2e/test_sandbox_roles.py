"""Every role in one terminal: on the sandbox's database `:eu fiscal` speaks as an inspector
already bound (through the invitation and binding services, with a demo matrícula) and
`:eu proprietario` opens the newest case as its QR code would."""
from __future__ import annotations

from core.services.context import Core
from core.services.inspectors.accounts import inspector_for
from core.settings import Settings
from sandbox.chat import IDENTITIES
from sandbox.terminal import run_sandbox


async def test_the_terminal_speaks_as_a_bound_demo_inspector(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    output: list[str] = []
    await run_sandbox([":eu fiscal", "/tarefas", ":eu proprietario", ":eu cidadao", ":sair"],
                      output.append)
    text = "\n".join(output)
    assert "agora você é o fiscal" in text
    assert "/fiscal CÓDIGO" not in text  # no invitation to make: already bound
    assert "Ainda não há caso" in text  # the owner with no case yet
    assert "agora você é o cidadão" in text
    core = await Core.open(Settings())
    try:
        inspector = await inspector_for(core, IDENTITIES["fiscal"].user.id)
    finally:
        await core.close()
    assert inspector is not None and inspector.registration == "DEMO-0001"
