"""Portuguese texts of the citizen's conversation that only Telegram needs (what it does to
a file); the greeting, the help, the privacy notice and the rest are the core's
(core.services.citizens.conversation.guide), worded for each channel."""
from __future__ import annotations

TOO_BIG = ("Esse arquivo é grande demais (máximo de 20 MB). Envie a foto normalmente pela "
           "câmera ou galeria, que o Telegram a reduz.")
