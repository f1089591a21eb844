"""Portuguese texts of the citizen's conversation."""
from __future__ import annotations

from core.services.citizens import questions as Q
from core.services.context import Core


def kinds(core: Core) -> str:
    """The kinds of report the city's law takes (its categories), one a line."""
    return "\n".join(f"• {c.label}" + (f" — ex.: {c.examples}" if c.examples else "")
                     for c in core.law.categories.values())


def welcome(core: Core, name: str | None) -> str:
    law = core.law
    hello = f"Olá, {name}!" if name else "Olá!"
    return (f"{hello} Este é o canal da Prefeitura de {law.city} para denúncias conforme a "
            f"{law.short}. Você pode denunciar:\n{kinds(core)}\n\n"
            "O que você pode fazer:\n"
            "/denunciar — registrar uma denúncia com fotos e o local\n"
            "/minhas — ver suas denúncias e os avisos de cada uma\n"
            "/status AAAA-NNNNNN — consultar um protocolo\n"
            "/privacidade — como tratamos seus dados\n"
            "/meusdados — ver seus dados guardados ou pedir a eliminação\n"
            "/ajuda — ajuda\n"
            "/cancelar — desistir do que estiver fazendo")


def help_text(core: Core) -> str:
    return ("Como denunciar:\n"
            "1. Envie /denunciar (ou já mande uma foto ou a localização) e escolha o tipo.\n"
            "2. Mande de 1 a 10 fotos (uma a uma ou em álbum) e toque em Pronto.\n"
            "3. Envie a localização pelo botão 📍 ou digite o endereço.\n"
            "4. Responda às perguntas (pode pular as que não souber).\n"
            "5. Confira o resumo e toque em Confirmar: você recebe o número do protocolo.\n\n"
            f"O que dá para denunciar em {core.city.name} ({core.law.short}):\n{kinds(core)}\n\n"
            "Você é avisado aqui a cada etapa do caso. Para parar ou retomar os avisos, use "
            "/minhas. Para consultar um protocolo, envie o número (ex.: 2026-000123).\n"
            "A qualquer momento, /cancelar desiste da denúncia em andamento.")


def photos_received(n: int) -> str:
    """"1 foto recebida", "2 fotos recebidas"."""
    return "1 foto recebida" if n == 1 else f"{n} fotos recebidas"


def photos_count(n: int) -> str:
    return "1 foto" if n == 1 else f"{n} fotos"


def time_options(core: Core) -> tuple[str, ...]:
    """How long it has been there (core.services.citizens.questions.time_options)."""
    return Q.time_options(core.law)


def privacy(core: Core) -> str:
    s = core.settings
    years = s.evidence_retention_days / 365
    keep = (f"{s.evidence_retention_days} dias (cerca de {years:.0f} anos)"
            if years >= 1 else f"{s.evidence_retention_days} dias")
    return ("Privacidade (LGPD — Lei 13.709/2018)\n\n"
            f"Quem trata os dados: Prefeitura de {core.city.name}.\n"
            "Base legal: execução de políticas públicas e cumprimento de dever legal pela "
            "administração pública (art. 7º, III, e art. 23 da Lei 13.709/2018) — não "
            "dependemos do seu consentimento, mas só coletamos o necessário.\n"
            f"Finalidade: apurar e resolver as denúncias previstas na {core.law.short} "
            "e avisar você sobre o andamento.\n"
            "O que guardamos: seu identificador do Telegram e o nome que aparece nele, as "
            "fotos, o local e as respostas da denúncia, e o histórico do caso.\n"
            f"Por quanto tempo: até o fim do caso e depois por {keep}, conforme as regras de "
            "arquivo do município.\n"
            "Sua identidade como denunciante é informação restrita (Lei 13.460/2017, art. 10, "
            "§7º): não é mostrada ao responsável denunciado nem ao público.\n"
            "Fotos: nas páginas públicas só aparece uma cópia sem os dados de localização do "
            "aparelho, com rostos e placas borrados, depois que um servidor a revisou.\n"
            "Seus direitos (art. 18): em /meusdados você vê tudo o que guardamos sobre você e "
            "pode pedir a eliminação do que a lei não manda guardar; o que fizer parte de um "
            "processo administrativo fica guardado (art. 16), e a resposta diz o motivo.\n"
            f"Encarregado de dados (DPO): {core.city.dpo_contact}.")


CANCELLED = "Denúncia cancelada. Nada foi registrado. Quando quiser, use /denunciar."
OTHER_CANCELLED = "Cancelado. Nada do que estava em andamento foi registrado."
#: /cancelar while the photos after "Não, continua lá" are awaited (bot/citizen/followup.py)
FOLLOWUP_CANCELLED = ("Tudo bem, sem mais fotos. Sua resposta já está registrada: um fiscal vai "
                      "ao local.")
NOTHING_TO_CANCEL = "Não há nada em andamento para cancelar."
IDLE_HINT = ("Para fazer uma denúncia, envie /denunciar (ou já mande uma foto ou a "
             "localização). Para consultar um protocolo, envie o número (ex.: 2026-000123). "
             "Suas denúncias: /minhas. Ajuda: /ajuda.")
DEEP_LINK_UNKNOWN = ("Este link não foi reconhecido ou ainda não está disponível. Se você "
                     "recebeu um código do caso da prefeitura, procure o setor responsável. "
                     "Para fazer uma denúncia, use /denunciar.")
RESUMING = "Você tem uma denúncia em andamento. Vamos continuar de onde parou (ou /cancelar).\n\n"
#: Before the pending question, after /ajuda, /minhas, /status... in the middle of a report.
BACK_TO_REPORT = "↩️ Continuando sua denúncia (ou /cancelar):\n\n"
#: Where the citizen hears of the case's steps (the laws' next steps say it in these words).
UPDATES_HERE = "Você recebe aqui um aviso a cada etapa."

ASK_CATEGORY = "O que você quer denunciar? Escolha o tipo:"
ASK_PHOTOS = ("Envie de 1 a 10 fotos (uma a uma ou em álbum) que mostrem bem o que você "
              "está denunciando{plate}. Quando terminar, toque em Pronto.")
PHOTO_PLATE = ", com a placa se der para ver"
#: How to send a pin from anywhere (the 📍 button sends only where the phone is).
PIN_FROM_HOME = ("Está em casa? Toque no clipe 📎 → Localização e arraste o mapa até o ponto "
                 "do local.")
ASK_LOCATION = ("Onde fica? Envie o local:\n"
                "• No local: toque no botão 📍 abaixo para enviar sua localização.\n"
                f"• {PIN_FROM_HOME}\n"
                "• Ou digite o endereço (rua, número e bairro).")
ASK_PLATE = Q.PLATE.prompt + " Se não tiver ou não souber, toque em Pular."
ASK_COLOUR = Q.COLOUR.prompt
ASK_MAKE_MODEL = Q.MAKE_MODEL.prompt
ASK_TIME_THERE = Q.TIME_THERE.prompt
ASK_SIGNS = Q.SIGNS.prompt + " (toque para marcar ou desmarcar) e depois toque em Continuar:"
ASK_DESCRIPTION = Q.DESCRIPTION.prompt[:-1] + ". Escreva ou toque em Pular."

NEED_PHOTO = ("Aqui preciso de fotos: envie de 1 a 10 fotos (pela câmera ou galeria) e "
              "toque em Pronto.")
NO_VIDEO = "Vídeos não são aceitos na denúncia. Envie fotos, por favor."
NO_STICKER = "Figurinhas não valem como foto 🙂. Envie fotos, por favor."
NOT_IMAGE = ("Esse arquivo não é uma imagem. Envie uma foto (JPG ou PNG), pela "
             "câmera ou galeria.")
TOO_BIG = ("Esse arquivo é grande demais (máximo de 20 MB). Envie a foto normalmente pela "
           "câmera ou galeria, que o Telegram a reduz.")
PHOTO_MAX = "Você já enviou 10 fotos, o máximo. Toque em Pronto para continuar."
PHOTO_SEEN = "Essa foto já estava na denúncia."
NEED_PHOTO_FIRST = "Envie pelo menos uma foto antes de tocar em Pronto."
NEED_LOCATION = ("Aqui preciso do local: toque no botão 📍 para enviar a localização ou "
                 f"digite o endereço (rua, número e bairro). {PIN_FROM_HOME}")
GEOCODER_DOWN = ("O serviço de endereços não respondeu agora. Por favor, envie a localização "
                 "pelo botão 📍 (ou pelo clipe 📎 → Localização, marcando o ponto no mapa).")
NOT_FOUND = ("Não encontrei esse endereço em {city}. Confira a rua e o número, ou envie a "
             "localização pelo botão 📍.")
OUTSIDE = ("Esse ponto fica fora da área de {city}. Esta prefeitura só pode atender "
           "ocorrências dentro do município ({law}). Se o local fica em outra cidade, procure "
           "a prefeitura de lá. Se foi engano, envie o local certo.")
NEED_BUTTON = "Use os botões da mensagem acima para responder."
TOO_LONG = "Texto longo demais (máximo de {n} caracteres). Resuma e envie de novo."
NEED_TEXT = "Responda com um texto curto, ou use os botões."
