"""The report conversation as the web page says it: the same questions, refusals and answers
(words.py, prompts.py), with the chat's gestures ("toque no botão 📍", "o clipe 📎", "toque em
Pronto") put in the page's own words (its "Usar minha localização" button, its map, its
"Continuar"), and what only a page needs: the privacy notice shown before sending, where a
case is followed without a chat. The page (admin/views_report.py) decides nothing of this."""
from __future__ import annotations

from core.services.citizens.conversation import words
from core.services.context import Core

#: The page's buttons, as the rewritten texts name them.
USE_LOCATION = "Usar minha localização"
CONTINUE = "Continuar"

_GESTURES = (
    (f"\n• {words.PIN_FROM_HOME}", ""),
    (f" {words.PIN_FROM_HOME}", ""),
    ("• No local: toque no botão 📍 abaixo para enviar sua localização.",
     f"• No local: toque em “{USE_LOCATION}”.\n• Em outro lugar: marque o ponto no mapa."),
    ("pelo botão 📍 (ou pelo clipe 📎 → Localização, marcando o ponto no mapa)",
     f"pelo botão “{USE_LOCATION}” ou marque o ponto no mapa"),
    ("pelo botão 📍 ou pelo clipe 📎 → Localização, marcando o ponto no mapa",
     f"pelo botão “{USE_LOCATION}” ou marque o ponto no mapa"),
    ("toque no botão 📍 para enviar a localização",
     f"toque em “{USE_LOCATION}”, marque o ponto no mapa"),
    ("pelo botão 📍", f"pelo botão “{USE_LOCATION}” ou marque o ponto no mapa"),
    ("(uma a uma ou em álbum)", "(da câmera ou da galeria)"),
    ("(pela câmera ou galeria) e toque em Pronto", f"(pela câmera ou galeria) e toque em "
                                                   f"“{CONTINUE}”"),
    ("Quando terminar, toque em Pronto.", f"Quando terminar, toque em “{CONTINUE}”."),
    ("antes de tocar em Pronto", f"antes de tocar em “{CONTINUE}”"),
    ("Toque em Pronto para continuar.", f"Toque em “{CONTINUE}”."),
    ("(toque para marcar ou desmarcar) e depois toque em Continuar:",
     f"e toque em “{CONTINUE}”:"),
    ("toque em Pular", "toque em “Pular”"),
    ("Escreva ou toque em Pular", "Escreva ou toque em “Pular”"),
    (words.NEED_BUTTON, "Escolha uma das opções abaixo."),
    ("Responda com um texto curto, ou use os botões.", "Escreva uma resposta curta, ou use "
                                                        "os botões abaixo."),
    (words.STALE_CHOICE, "Essa resposta era de uma etapa anterior (a página foi enviada de "
                         "novo ou está aberta em outra aba). Continue daqui:"),
)


def for_web(text: str) -> str:
    """`text` (a question or a refusal of the conversation) as the web page says it."""
    for chat, page in _GESTURES:
        text = text.replace(chat, page)
    return text


def supported(protocol: str) -> str:
    """"É este" on the page: the photos joined the open case (no chat to be told in)."""
    return (f"Obrigado! Suas fotos foram juntadas ao caso {protocol}, que já está em "
            "andamento. Acompanhe pela página pública do protocolo.")


def privacy_notice(core: Core) -> tuple[str, ...]:
    """What the page says of personal data before the report is sent (LGPD, Lei 13.709/2018,
    art. 9º: the person is told before, in clear words)."""
    who = (f"Prefeitura de {core.city.name}" if not core.many_cities
           else "a Prefeitura do município onde fica o local")
    return (
        f"Quem recebe: {who}, para apurar a denúncia e resolver o caso (art. 7º, III, e "
        "art. 23 da Lei 13.709/2018).",
        "A denúncia é anônima: não pedimos nome, documento nem telefone. Guardamos as fotos, "
        "o local e as respostas, e o endereço de conexão por pouco tempo, só para evitar "
        "abusos.",
        "Nas páginas públicas aparecem só o tipo, o bairro e a situação do caso; as fotos só "
        "depois de revisadas por um servidor, sem os dados de localização do aparelho e com "
        "rostos e placas borrados.",
    )
