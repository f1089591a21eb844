"""Portuguese texts of the citizen's conversation."""
from __future__ import annotations

from core.services.citizens import questions as Q
from core.services.context import Core


def kinds(core: Core) -> str:
    """The kinds of report the city's law takes (its categories), one a line."""
    return "\n".join(f"• {c.label}" + (f" — ex.: {c.examples}" if c.examples else "")
                     for c in core.law.categories.values())


def kinds_by_city(core: Core) -> str:
    """Each city served with its law and the kinds of report it takes."""
    return "\n\n".join(f"Em {c.label}, pela {c.law.short}:\n{kinds(core.for_city(c))}"
                       for c in core.cities)


def served(core: Core) -> str:
    """"Atendemos Dores do Indaiá (MG) e Dracena (SP)."."""
    return f"Atendemos {core.cities_named()}."


def welcome(core: Core, name: str | None) -> str:
    law = core.law
    hello = f"Olá, {name}!" if name else "Olá!"
    if core.many_cities:
        intro = (f"{hello} Este é o canal de denúncias do Via Livre. {served(core)[:-1]}: cada "
                 "denúncia vai para a prefeitura do município onde fica o local e segue a lei "
                 f"de lá. Você pode denunciar:\n\n{kinds_by_city(core)}")
    else:
        intro = (f"{hello} Este é o canal da Prefeitura de {law.city} para denúncias conforme "
                 f"a {law.short}. Você pode denunciar:\n{kinds(core)}")
    return (f"{intro}\n\n"
            "O que você pode fazer:\n"
            "/denunciar — registrar uma denúncia com fotos e o local\n"
            "/minhas — ver suas denúncias e os avisos de cada uma\n"
            "/status AAAA-NNNNNN — consultar um protocolo\n"
            "/privacidade — como tratamos seus dados\n"
            "/meusdados — ver seus dados guardados ou pedir a eliminação\n"
            "/ajuda — ajuda\n"
            "/cancelar — desistir do que estiver fazendo")


def help_text(core: Core) -> str:
    if core.many_cities:
        steps = ("1. Envie /denunciar (ou já mande uma foto ou a localização) e mande o local, "
                 "pelo botão 📍 ou digitando o endereço: o município onde ele fica decide a lei "
                 "e os tipos.\n"
                 "2. Escolha o tipo e mande de 1 a 10 fotos (uma a uma ou em álbum); toque em "
                 "Pronto.\n")
        what = f"{served(core)} O que dá para denunciar em cada município:\n\n" \
            f"{kinds_by_city(core)}"
    else:
        steps = ("1. Envie /denunciar (ou já mande uma foto ou a localização) e escolha o "
                 "tipo.\n"
                 "2. Mande de 1 a 10 fotos (uma a uma ou em álbum) e toque em Pronto.\n"
                 "3. Envie a localização pelo botão 📍 ou digite o endereço.\n")
        what = f"O que dá para denunciar em {core.city.name} ({core.law.short}):\n{kinds(core)}"
    n = 3 if core.many_cities else 4
    return ("Como denunciar:\n" + steps +
            f"{n}. Responda às perguntas (pode pular as que não souber).\n"
            f"{n + 1}. Confira o resumo e toque em Confirmar: você recebe o número do "
            "protocolo.\n\n"
            f"{what}\n\n"
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


def privacy(core: Core, every_city: bool = False) -> str:
    """/privacidade: of the Core's city (the report's), or, with `every_city` and more than
    one city served, of all of them, each with its law and its DPO."""
    s = core.settings
    years = s.evidence_retention_days / 365
    keep = (f"{s.evidence_retention_days} dias (cerca de {years:.0f} anos)"
            if years >= 1 else f"{s.evidence_retention_days} dias")
    if every_city and core.many_cities:
        who = ("Quem trata os dados: a prefeitura do município onde fica o local denunciado; "
               f"atendemos {core.cities_named()}.\n")
        purpose = ("Finalidade: apurar e resolver as denúncias previstas na lei de cada "
                   "município (" + "; ".join(f"{c.name}: {c.law.short}" for c in core.cities)
                   + ") e avisar você sobre o andamento.\n")
        dpo = "Encarregados de dados (DPO):\n" + "\n".join(
            f"• {c.label}: {c.dpo_contact}" for c in core.cities)
    else:
        who = f"Quem trata os dados: Prefeitura de {core.city.name}.\n"
        purpose = (f"Finalidade: apurar e resolver as denúncias previstas na {core.law.short} "
                   "e avisar você sobre o andamento.\n")
        dpo = f"Encarregado de dados (DPO): {core.city.dpo_contact}."
    return ("Privacidade (LGPD — Lei 13.709/2018)\n\n" + who +
            "Base legal: execução de políticas públicas e cumprimento de dever legal pela "
            "administração pública (art. 7º, III, e art. 23 da Lei 13.709/2018) — não "
            "dependemos do seu consentimento, mas só coletamos o necessário.\n" + purpose +
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
            + dpo)


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
ASK_LOCATION_FIRST = ("Onde fica? Começamos pelo local: ele decide a prefeitura e o que dá "
                      "para denunciar. Atendemos {cities}.\nEnvie o local:\n"
                      "• No local: toque no botão 📍 abaixo para enviar sua localização.\n"
                      f"• {PIN_FROM_HOME}\n"
                      "• Ou digite o endereço (rua, número, bairro e cidade).")
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
#: Several cities served: a point in none of them, an address found in none or in several.
OUTSIDE_ALL = ("Esse ponto fica fora dos municípios que atendemos: {cities}. Se o local fica "
               "em outra cidade, procure a prefeitura de lá. Se foi engano, envie o local "
               "certo.")
NOT_FOUND_ALL = ("Não encontrei esse endereço em {cities}. Confira a rua e o número e "
                 "escreva também a cidade, ou envie a localização pelo botão 📍.")
AMBIGUOUS = ("Encontrei esse endereço em mais de uma cidade: {cities}. Digite de novo com o "
             "nome da cidade (ex.: {example}) ou envie a localização pelo botão 📍.")
#: The pin is in a city whose law has not the category chosen before.
CATEGORY_ELSEWHERE = "A lei de {city} não tem {what}. Escolha de novo, entre os tipos de lá:"
ADDRESS_AGAIN_ALL = ("Tudo bem. Envie a localização pelo botão 📍 (ou pelo clipe 📎 → Localização, "
              "marcando o ponto no mapa), ou digite o endereço de novo com o nome da cidade.")
NEED_BUTTON = "Use os botões da mensagem acima para responder."
TOO_LONG = "Texto longo demais (máximo de {n} caracteres). Resuma e envie de novo."
NEED_TEXT = "Responda com um texto curto, ou use os botões."
