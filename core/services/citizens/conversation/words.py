"""The words of the citizen's report conversation: each question and each refusal, in
Portuguese, one text for every face (Telegram, WhatsApp, the web); the greeting, the help
and the privacy notice are in guide.py. A face adds only what its platform needs (Telegram:
what it does to a large file)."""
from __future__ import annotations

from core.services.citizens import questions as Q
from core.services.context import Core


def photos_received(n: int) -> str:
    """"1 foto recebida", "2 fotos recebidas"."""
    return "1 foto recebida" if n == 1 else f"{n} fotos recebidas"


def photos_count(n: int) -> str:
    return "1 foto" if n == 1 else f"{n} fotos"


def time_options(core: Core) -> tuple[str, ...]:
    """How long it has been there (core.services.citizens.questions.time_options)."""
    return Q.time_options(core.law)


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
ADDRESS_AGAIN = ("Tudo bem. Envie a localização pelo botão 📍 (ou pelo clipe 📎 → Localização, "
                 "marcando o ponto no mapa), ou digite o endereço de novo.")
ADDRESS_AGAIN_ALL = ("Tudo bem. Envie a localização pelo botão 📍 (ou pelo clipe 📎 → Localização, "
                     "marcando o ponto no mapa), ou digite o endereço de novo com o nome da "
                     "cidade.")
#: "É este": the citizen's photos join an open case nearby instead of a new report.
SUPPORTED = ("Obrigado! Suas fotos foram juntadas ao caso {protocol}, que já está em "
             "andamento. Você vai receber aqui os avisos deste caso (para parar, use "
             "/minhas). Consulte quando quiser: /status {protocol}")
INVALID_LOCATION = ("Essa localização não é válida (coordenadas fora do mapa). Envie a "
                    "localização pelo botão 📍 ou pelo clipe 📎 → Localização, marcando o ponto "
                    "no mapa.")
NEED_BUTTON = "Use os botões da mensagem acima para responder."
TOO_LONG = "Texto longo demais (máximo de {n} caracteres). Resuma e envie de novo."
NEED_TEXT = "Responda com um texto curto, ou use os botões."
#: A choice tapped on an earlier question (a channel whose old buttons stay tappable).
STALE_CHOICE = "Essa opção é de uma pergunta anterior. Responda à última mensagem, por favor."
#: A photo that could not be fetched from the platform (it may send it again).
PHOTO_LOST = ("Não consegui receber essa foto. Envie-a novamente, por favor.")
#: Something failed on our side: nothing the person gave is lost.
OUR_FAULT = ("Tivemos um problema para registrar sua mensagem. Envie-a de novo em instantes; "
             "o que você já informou está guardado.")
